// y = softmax(x) over the last axis, float16 and float32, with the SoftMax high-level API: the
// TilingFunc sizes the API's temporary buffer (GetSoftMaxMaxTmpSize) and fills its tiling
// (SoftMaxTilingFunc) for a tile of tileRows rows.
#include "softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
// Elements of one tile at most (x and y double-buffered besides the temporary buffer).
constexpr uint32_t TILE_ELEMS = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rowLength = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));
    uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / rowLength);
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    if (rowLength == 0 || rowLength % (BLOCK_BYTES / typeSize) != 0 || rowLength > TILE_ELEMS) {
        return ge::GRAPH_FAILED;
    }
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerNum = rows % usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);
    uint32_t tileRows = TILE_ELEMS / rowLength;
    tileRows = tileRows < formerRows ? tileRows : formerRows;

    AscendC::TensorShape tile({tileRows, rowLength});
    uint32_t tmpBytes = AscendC::GetSoftMaxMaxTmpSize(tile, typeSize, false);
    SoftmaxCustomTilingData tiling;
    tiling.set_rowLength(rowLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_tileRows(tileRows);
    tiling.set_tmpBytes(tmpBytes);
    AscendC::SoftMaxTilingFunc(tile, typeSize, tmpBytes, tiling.softmaxTiling);

    context->SetBlockDim(usedCores);
    context->SetTilingKey(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize();
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
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class SoftmaxCustom : public OpDef {
public:
    explicit SoftmaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
        this->AICore().AddConfig("ascend310p");
    }
};
OP_ADD(SoftmaxCustom);
}  // namespace ops
