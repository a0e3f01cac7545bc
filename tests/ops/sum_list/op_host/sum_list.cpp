// y = x[0] + x[1] + … for a DYNAMIC (tensor-list) input x of float32 tensors of one shape; one
// block, a whole number of 8-element blocks.
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SumListTilingData)
TILING_DATA_FIELD_DEF(uint32_t, count);
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SumList, SumListTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::AnchorInstanceInfo* list = context->GetIrInputInstanceInfo(0);
    uint32_t count = static_cast<uint32_t>(list->GetInstanceNum());
    uint32_t n = context->GetDynamicInputShape(0, 0)->GetStorageShape().GetShapeSize();
    for (uint32_t k = 1; k < count; ++k) {
        if (context->GetDynamicInputShape(0, k)->GetStorageShape().GetShapeSize() != n) {
            return ge::GRAPH_FAILED;
        }
    }
    if (n == 0 || n % 8 != 0 || n > 8192 || count != context->GetComputeNodeInputNum() ||
        context->GetDynamicInputShape(0, count) != nullptr) {
        return ge::GRAPH_FAILED;
    }
    SumListTilingData tiling;
    tiling.set_count(count);
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
    *context->GetOutputShape(0) = *context->GetDynamicInputShape(0, 0);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class SumList : public OpDef {
public:
    explicit SumList(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SumList);
}  // namespace ops
