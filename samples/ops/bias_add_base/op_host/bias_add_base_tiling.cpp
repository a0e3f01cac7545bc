// The tiling of BiasAddBase. TilingParse reads the platform into the compile info (cores, UB
// bytes, UB block bytes); the TilingFunc reads it back, splits the rows of x over the cores and
// each row into column tiles that divide it.
#include "log/log.h"
#include "util/math_util.h"
#include "util/platform_util.h"
#include "op_host/tiling_base_util.h"
#include <graph/utils/type_utils.h>
#include "tiling/platform/platform_ascendc.h"
#include "register/op_impl_registry.h"
#include "../op_kernel/bias_add_base_tiling_data.h"

namespace optiling {
// UB the TilingParse requires (bytes).
constexpr uint64_t MIN_UB_BYTES = 1024;
// Queues in UB: x, bias and y, each double-buffered.
constexpr uint64_t UB_TILES = 6;
constexpr int64_t ATTR_ALPHA = 0;
constexpr int64_t ATTR_RELU = 1;
constexpr int64_t ATTR_MAX_CORES = 2;

struct BiasAddBaseCompileInfo {
    int64_t coreNum = 0;
    uint64_t ubSize = 0;
    uint32_t blockBytes = 0;
    bool parsed = false;
};

static ge::graphStatus TilingParseForBiasAddBase(gert::TilingParseContext* context)
{
    auto compileInfo = context->GetCompiledInfo<BiasAddBaseCompileInfo>();
    OP_CHECK_NULL_WITH_CONTEXT(context, compileInfo);
    fe::PlatFormInfos* platformInfo = context->GetPlatformInfo();
    OP_CHECK_NULL_WITH_CONTEXT(context, platformInfo);
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(platformInfo);
    compileInfo->coreNum = ascendcPlatform.GetCoreNumAiv();
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, compileInfo->ubSize);
    compileInfo->blockBytes = Ops::Base::GetUbBlockSize(context);
    OP_CHECK_IF(compileInfo->ubSize < MIN_UB_BYTES,
                OP_LOGE(context, "UB of %lu bytes is below the %lu the operator needs",
                        static_cast<unsigned long>(compileInfo->ubSize), static_cast<unsigned long>(MIN_UB_BYTES)),
                return ge::GRAPH_FAILED);
    compileInfo->parsed = true;
    OP_LOGD(context, "compile info: %ld cores, %lu UB bytes", static_cast<long>(compileInfo->coreNum),
            static_cast<unsigned long>(compileInfo->ubSize));
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus BiasAddBaseTilingFunc(gert::TilingContext* context)
{
    auto compileInfo = context->GetCompileInfo<BiasAddBaseCompileInfo>();
    OP_CHECK_NULL_WITH_CONTEXT(context, compileInfo);
    OP_CHECK_IF(!compileInfo->parsed, OP_LOGE(context, "the compile info was not parsed"), return ge::GRAPH_FAILED);

    auto xShapePtr = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, xShapePtr);
    gert::Shape xShape = Ops::Base::EnsureNotScalar(xShapePtr->GetStorageShape());
    auto biasShapePtr = context->GetInputShape(1);
    OP_CHECK_NULL_WITH_CONTEXT(context, biasShapePtr);
    const gert::Shape& biasShape = biasShapePtr->GetStorageShape();
    int64_t cols = xShape.GetDim(xShape.GetDimNum() - 1);
    int64_t rows = xShape.GetShapeSize() / cols;
    OP_CHECK_IF(biasShape.GetShapeSize() != cols,
                OP_LOGE(context, "bias %s must hold the %ld elements of x's last dimension (x is %s)",
                        Ops::Base::ToString(biasShape).c_str(), static_cast<long>(cols),
                        Ops::Base::ToString(xShape).c_str()),
                return ge::GRAPH_FAILED);

    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeBytes = 0;
    OP_CHECK_IF(!ge::TypeUtils::GetDataTypeLength(dtype, typeBytes),
                OP_LOGE_FOR_INVALID_DTYPE(context->GetNodeName(), "x",
                                          ge::TypeUtils::DataTypeToSerialString(dtype).c_str(), "float or float16"),
                return ge::GRAPH_FAILED);
    int64_t blockElems = compileInfo->blockBytes / typeBytes;
    OP_CHECK_IF(cols % blockElems != 0,
                OP_LOGE_FOR_INVALID_SHAPE_WITH_REASON(context->GetNodeName(), "x", Ops::Base::ToString(xShape),
                                                      "the last dimension must be a multiple of " +
                                                          std::to_string(blockElems) + " elements (32 bytes)"),
                return ge::GRAPH_FAILED);

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    OP_CHECK_NULL_WITH_CONTEXT(context, attrs);
    const float* alpha = attrs->GetAttrPointer<float>(ATTR_ALPHA);
    const bool* relu = attrs->GetAttrPointer<bool>(ATTR_RELU);
    const int32_t* maxCores = attrs->GetAttrPointer<int32_t>(ATTR_MAX_CORES);
    OP_CHECK_NULL_WITH_CONTEXT(context, maxCores);
    OP_CHECK_IF(*maxCores < 0, OP_LOGE(context, "max_cores must be 0 (all) or positive, got %d", *maxCores),
                return ge::GRAPH_FAILED);

    int64_t cores = compileInfo->coreNum;
    if (*maxCores > 0 && *maxCores < cores) {
        cores = *maxCores;
    }
    int64_t rowsPerCore = Ops::Base::CeilDiv(rows, cores);
    int64_t usedCores = Ops::Base::CeilDiv(rows, rowsPerCore);

    // The widest tile of whole blocks that fits UB_TILES times and divides the row.
    int64_t maxTile = Ops::Base::FloorAlign(static_cast<int64_t>(compileInfo->ubSize / UB_TILES / typeBytes), blockElems);
    int64_t tile = Ops::Base::FloorAlign(std::min(cols, maxTile), blockElems);
    while (tile > blockElems && cols % tile != 0) {
        tile -= blockElems;
    }

    BiasAddBaseTilingData* tiling = context->GetTilingData<BiasAddBaseTilingData>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
    OP_CHECK_IF(memset_s(tiling, sizeof(BiasAddBaseTilingData), 0, sizeof(BiasAddBaseTilingData)) != EOK,
                OP_LOGE(context, "set tiling data error"), return ge::GRAPH_FAILED);
    tiling->rowsPerCore = static_cast<uint32_t>(rowsPerCore);
    tiling->lastCoreRows = static_cast<uint32_t>(rows - (usedCores - 1) * rowsPerCore);
    tiling->cols = static_cast<uint32_t>(cols);
    tiling->tileCols = static_cast<uint32_t>(tile);
    tiling->alpha = *alpha;
    tiling->relu = *relu ? 1 : 0;
    context->SetBlockDim(static_cast<uint32_t>(usedCores));
    context->SetTilingKey(0);
    size_t* workspace = context->GetWorkspaceSizes(1);
    OP_CHECK_NULL_WITH_CONTEXT(context, workspace);
    workspace[0] = 0;
    OP_LOGI(context, "rows %ld over %ld cores, tiles of %ld columns", static_cast<long>(rows),
            static_cast<long>(usedCores), static_cast<long>(tile));
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_OPTILING(BiasAddBase).Tiling(BiasAddBaseTilingFunc).TilingParse<BiasAddBaseCompileInfo>(TilingParseForBiasAddBase);
}  // namespace optiling
