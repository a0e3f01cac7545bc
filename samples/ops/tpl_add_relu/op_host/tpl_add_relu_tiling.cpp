// The TilingFunc of TplAddRelu: the largest tile of 512, 256, 128 or 64 elements that divides
// the data, double-buffered from 4096 elements on, whole tiles spread over the vector cores; the
// template arguments go into the tiling key with ASCENDC_TPL_SEL_PARAM.
#include "register/op_impl_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "../op_kernel/tpl_add_relu_tiling_data.h"
#include "../op_kernel/tpl_add_relu_tiling_key.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    if (context->GetInputShape(1)->GetStorageShape().GetShapeSize() != total) {
        return ge::GRAPH_FAILED;
    }
    uint32_t tileLen = 512;
    while (tileLen >= 64 && total % tileLen != 0) {
        tileLen /= 2;
    }
    if (total == 0 || tileLen < 64) {
        return ge::GRAPH_FAILED;
    }
    uint32_t tiles = static_cast<uint32_t>(total / tileLen);
    uint32_t coreNum = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    uint32_t perCore = (tiles + coreNum - 1) / coreNum;
    uint32_t cores = (tiles + perCore - 1) / perCore;

    TplAddReluTilingData* tiling = context->GetTilingData<TplAddReluTilingData>();
    tiling->tilesPerCore = perCore;
    tiling->lastCoreTiles = tiles - (cores - 1) * perCore;
    context->SetBlockDim(cores);

    uint32_t dtype = static_cast<uint32_t>(context->GetInputDesc(0)->GetDataType());
    uint32_t bufferNum = total >= 4096 ? 2 : 1;
    bool relu = *context->GetAttrs()->GetBool(0);
    ASCENDC_TPL_SEL_PARAM(context, dtype, bufferNum, tileLen, relu);

    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_OPTILING(TplAddRelu).Tiling(TilingFunc);
}  // namespace optiling
