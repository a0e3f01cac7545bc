// y = x / sqrt(mean(x², last axis) + epsilon) * gamma, float16 and float32, with the RmsNorm
// high-level API: the TilingFunc sizes the API's temporary buffer (GetRmsNormMaxMinTmpSize) and
// fills its tiling (GetRmsNormTilingInfo) for each tile shape a core meets.
#include "rms_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
// Elements of one tile at most (x and y double-buffered, gamma and the temporary buffer besides).
constexpr uint32_t TILE_ELEMS = 4096;

// RmsNorm's tiling for `rows` rows of hLength (a [1, rows, H] source); an empty tiling for none.
static bool TileTiling(uint32_t rows, uint32_t hLength, uint32_t tmpBytes, uint32_t typeSize, RmsNormTiling& out)
{
    if (rows == 0) {
        return true;
    }
    ge::Shape shape({1, rows, hLength});
    return AscendC::GetRmsNormTilingInfo(shape, shape, tmpBytes, typeSize, out);
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t hLength = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));
    uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / hLength);
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    if (hLength == 0 || hLength % (BLOCK_BYTES / typeSize) != 0 || hLength > TILE_ELEMS) {
        return ge::GRAPH_FAILED;
    }
    const float* epsilon = context->GetAttrs()->GetAttrPointer<float>(0);
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerNum = rows % usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);
    uint32_t tileRows = TILE_ELEMS / hLength;
    tileRows = tileRows < formerRows ? tileRows : formerRows;

    uint32_t maxBytes = 0;
    uint32_t minBytes = 0;
    if (!AscendC::GetRmsNormMaxMinTmpSize(ge::Shape({1, tileRows, hLength}), typeSize, maxBytes, minBytes)) {
        return ge::GRAPH_FAILED;
    }
    RmsNormCustomTilingData tiling;
    tiling.set_hLength(hLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_tileRows(tileRows);
    tiling.set_tmpBytes(maxBytes);
    tiling.set_epsilon(epsilon == nullptr ? 1e-6f : *epsilon);
    if (!TileTiling(tileRows, hLength, maxBytes, typeSize, tiling.tileTiling) ||
        !TileTiling(formerRows % tileRows, hLength, maxBytes, typeSize, tiling.formerLastTiling) ||
        !TileTiling(tailRows % tileRows, hLength, maxBytes, typeSize, tiling.tailLastTiling)) {
        return ge::GRAPH_FAILED;
    }

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
class RmsNormCustom : public OpDef {
public:
    explicit RmsNormCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-6f);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
        this->AICore().AddConfig("ascend310p");
    }
};
OP_ADD(RmsNormCustom);
}  // namespace ops
