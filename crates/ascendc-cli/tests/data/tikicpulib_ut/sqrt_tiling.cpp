// The TilingFunc of the sqrt kernel (host side), registered by operator type: elements split
// evenly over min(cores, maxBlocks) blocks, the scale from attribute 0, tiling key 1, one
// 1 KiB workspace.
#include <algorithm>
#include "register/op_impl_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "sqrt_tiling.h"

static ge::graphStatus SqrtTilingFunc(gert::TilingContext* context)
{
    int64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const SqrtCompileInfo* info = context->GetCompileInfo<SqrtCompileInfo>();
    auto cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    uint32_t blocks = std::min<uint32_t>(cores, info->maxBlocks);
    if (context->GetInputDesc(0)->GetDataType() != ge::DT_FLOAT || total % blocks != 0) {
        return ge::GRAPH_FAILED;
    }
    SqrtTiling* tiling = context->GetTilingData<SqrtTiling>();
    tiling->count = static_cast<uint32_t>(total / blocks);
    tiling->scale = *context->GetAttrs()->GetFloat(0);
    context->SetBlockDim(blocks);
    context->SetTilingKey(1);
    context->GetWorkspaceSizes(1)[0] = 1024;
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_OPTILING(SqrtDemo).Tiling(SqrtTilingFunc);
