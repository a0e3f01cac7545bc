// y = x * scale over the rows of a 2-D (or higher, flattened to rows of the last dimension)
// tensor. Tiling key 1: rows are whole 32-byte blocks, tiles move with DataCopy. Tiling key 2:
// they are not, tiles move with DataCopyPad (each row padded to 32 bytes in UB).
#include "scale_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t KEY_ALIGNED = 1;
constexpr uint32_t KEY_PADDED = 2;
// Queues in UB: x and y, each double-buffered.
constexpr uint32_t UB_TILES = 4;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = shape.GetDim(shape.GetDimNum() - 1);
    uint32_t rows = shape.GetShapeSize() / cols;
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    uint32_t rowBytes = cols * typeSize;
    uint32_t alignedBytes = (rowBytes + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t rowsPerTile = static_cast<uint32_t>(ubSize / UB_TILES / alignedBytes);
    if (rowsPerTile == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cores = platform.GetCoreNumAiv();
    uint32_t used = rows < cores ? rows : cores;

    ScaleCustomTilingData tiling;
    tiling.set_cols(cols);
    tiling.set_colsAligned(alignedBytes / typeSize);
    tiling.set_formerNum(rows % used);
    tiling.set_formerRows(rows / used + 1);
    tiling.set_tailRows(rows / used);
    tiling.set_rowsPerTile(rowsPerTile < 255 ? rowsPerTile : 255);
    tiling.set_scale(*context->GetAttrs()->GetFloat(0));

    context->SetTilingKey(rowBytes % BLOCK_BYTES == 0 ? KEY_ALIGNED : KEY_PADDED);
    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ScaleCustom : public OpDef {
public:
    explicit ScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
        this->AICore().AddConfig("ascend310b");
    }
};
OP_ADD(ScaleCustom);
}  // namespace ops
