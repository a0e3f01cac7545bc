// Sqrt: y = sqrt(x) for float32 on one core; its kernel entry is `sqrt`, the name of the C library
// function.
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SqrtTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Sqrt, SqrtTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SqrtTilingData tiling;
    uint32_t totalLength = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (totalLength == 0 || totalLength % 8 != 0) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_totalLength(totalLength);
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class Sqrt : public OpDef {
public:
    explicit Sqrt(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
    }
};
OP_ADD(Sqrt);
}  // namespace ops
