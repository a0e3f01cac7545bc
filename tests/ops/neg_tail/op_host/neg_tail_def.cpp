// y = -x over any element count: no InferShape (the output shape comes from the command line),
// per-product tiling directories (CMakeLists.txt) and a kernel entry file named by the A2
// configuration (opFile.value).
#include "neg_tail_tiling.h"
#include "register/op_def_registry.h"

ge::graphStatus NegTailTiling(gert::TilingContext* context, uint32_t tileLength)
{
    optiling::NegTailTilingData tiling;
    uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (total == 0) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_totalLength(total);
    tiling.set_tileLength(tileLength);
    context->SetBlockDim((total + tileLength - 1) / tileLength);
    context->SetTilingKey(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}

namespace ops {
class NegTail : public OpDef {
public:
    explicit NegTail(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        OpAICoreConfig a2;
        a2.ExtendCfgInfo("opFile.value", "neg_tail_v2");
        this->AICore().AddConfig("ascend910b", a2);
        // 310P takes float16 only: its configuration replaces the data-type lists.
        OpAICoreConfig p;
        p.Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        p.Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->AICore().AddConfig("ascend310p", p);
    }
};
OP_ADD(NegTail);
}  // namespace ops
