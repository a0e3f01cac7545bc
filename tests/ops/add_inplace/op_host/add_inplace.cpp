// var += x (float32) in place: the output `var` is the input `var` (one GM buffer); one block,
// a whole number of 8-element blocks.
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddInplaceTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(AddInplace, AddInplaceTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AddInplaceTilingData tiling;
    uint32_t n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (n == 0 || n % 8 != 0 || n > 8192 || context->GetInputShape(1)->GetStorageShape().GetShapeSize() != n) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_totalLength(n);
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class AddInplace : public OpDef {
public:
    explicit AddInplace(const char* name) : OpDef(name)
    {
        this->Input("var").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("var").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AddInplace);
}  // namespace ops
