// y = !x for bool tensors (one byte, 0 or 1, per element), with InferShape / InferDataType; one
// block, a whole number of 32-element blocks.
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FlipFlagsTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(FlipFlags, FlipFlagsTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    FlipFlagsTilingData tiling;
    uint32_t n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (n == 0 || n % 32 != 0 || n > 16384 || context->GetInputDesc(0)->GetDataType() != ge::DT_BOOL) {
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

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, DT_BOOL);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class FlipFlags : public OpDef {
public:
    explicit FlipFlags(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_BOOL}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_BOOL}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(FlipFlags);
}  // namespace ops
