// y[c] = sum over r of x[r][c] for a float32 (rows, cols) input: every core sums its rows into
// a partial row in the user workspace; after a software SyncAll (32 bytes of flags per core,
// also in the user workspace), core 0 adds the partials in core order.
#include "col_sum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
// Bytes of barrier flags per core at the start of the user workspace.
constexpr uint32_t SYNC_BYTES = 32;
// UB holds two input rows, the accumulator and one output row.
constexpr uint32_t UB_ROWS = 4;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = shape.GetDim(0);
    uint32_t cols = shape.GetDim(1);
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    if (rows == 0 || cols * sizeof(float) % BLOCK_BYTES != 0 || UB_ROWS * cols * sizeof(float) > ubSize) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cores = platform.GetCoreNumAiv();
    uint32_t used = rows < cores ? rows : cores;
    used = used < COL_SUM_MAX_CORES ? used : COL_SUM_MAX_CORES;

    ColSumCustomTilingData tiling;
    uint32_t start[COL_SUM_MAX_CORES] = {};
    uint32_t count[COL_SUM_MAX_CORES] = {};
    uint32_t next = 0;
    for (uint32_t i = 0; i < used; ++i) {
        count[i] = rows / used + (i < rows % used ? 1 : 0);
        start[i] = next;
        next += count[i];
    }
    tiling.set_cols(cols);
    tiling.set_usedCores(used);
    tiling.set_rowStart(start);
    tiling.set_rowCount(count);

    context->SetBlockDim(used);
    context->SetTilingKey(0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(used) * (SYNC_BYTES + cols * sizeof(float));
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(1);
    y->SetDim(0, x->GetDim(x->GetDimNum() - 1));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ColSumCustom : public OpDef {
public:
    explicit ColSumCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend310p");
    }
};
OP_ADD(ColSumCustom);
}  // namespace ops
