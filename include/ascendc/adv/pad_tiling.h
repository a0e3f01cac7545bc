// Host helpers of Pad and UnPad: GetPadMaxMinTmpSize, PadTilingFunc, GetUnPadMaxMinTmpSize,
// UnPadTilingFunc, and the host tiling classes optiling::PadTiling / optiling::UnPadTiling.
#pragma once

#include "../host/ge_shape.h"
#include "../host/fail.h"
#include "common.h"
#include "pad.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

extern "C" {
void ascendc_adv_pad_tmp_size(uint32_t npuArch, uint32_t height, uint32_t width, uint32_t typeSize,
                              uint32_t* maxValue, uint32_t* minValue);
void ascendc_adv_pad_tiling(uint32_t height, uint32_t width, uint32_t oriWidth, uint32_t stackBufferSize,
                            uint32_t typeSize, void* out);
void ascendc_adv_unpad_tiling(uint32_t height, uint32_t width, uint32_t stackBufferSize, uint32_t typeSize,
                              void* out);
}

namespace optiling {
BEGIN_TILING_DATA_DEF(PadTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcHeight);
TILING_DATA_FIELD_DEF(uint32_t, srcWidth);
TILING_DATA_FIELD_DEF(uint32_t, srcOriWidth);
TILING_DATA_FIELD_DEF(uint32_t, widthWithoutLastBlock);
TILING_DATA_FIELD_DEF(uint32_t, blocksPerRow);
TILING_DATA_FIELD_DEF(uint32_t, heightTiling);
TILING_DATA_FIELD_DEF(uint32_t, heightFractal);
TILING_DATA_FIELD_DEF(uint32_t, heightFractalTail);
TILING_DATA_FIELD_DEF(uint32_t, mainLoopOffset);
TILING_DATA_FIELD_DEF(uint32_t, tailBlockOffset);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1BlockNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1RowNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer2Offset);
TILING_DATA_FIELD_DEF(uint32_t, widthTiling);
TILING_DATA_FIELD_DEF(uint32_t, widthFractal);
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTail);
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTailAlingned);
TILING_DATA_FIELD_DEF(uint32_t, brcbTiling);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractal);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTail);
TILING_DATA_FIELD_DEF(uint32_t, maxRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, brcbTilingRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, brcbTilingRepeatTimesTail);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTailRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTailRepeatTimesTail);
TILING_DATA_FIELD_DEF(uint32_t, reserved);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(UnPadTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcHeight);
TILING_DATA_FIELD_DEF(uint32_t, srcWidth);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1BlockNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1RowNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer2Offset);
TILING_DATA_FIELD_DEF(uint32_t, widthTiling);
TILING_DATA_FIELD_DEF(uint32_t, widthFractal);
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTail);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace AscendC {
namespace detail {
// The plain struct `plain` into the host class `out` (same fields, same order).
template <typename Plain>
inline void PutTiling(optiling::TilingDef& out, const Plain& plain, const char* api) {
    if (out.GetDataSize() != sizeof(Plain)) {
        ascendc_host::Fail(std::string(api) + ": tiling class layout differs from its kernel struct");
    }
    out.AscendcPut(0, &plain, sizeof(Plain));
}
// The two dimensions of a Pad/UnPad shape (an error unless it is 2-D).
inline void PadDims(const ge::Shape& shape, const char* api, const char* param, uint32_t typeSize,
                    uint32_t& height, uint32_t& width) {
    if (shape.GetDimNum() != 2) {
        ascendc_host::Fail(std::string(api) + ": " + param + " has " + std::to_string(shape.GetDimNum()) +
                           " dims, should be 2");
    }
    if (typeSize != 2 && typeSize != 4) {
        ascendc_host::Fail(std::string(api) + ": typeSize is " + std::to_string(typeSize) + ", should be 2 or 4");
    }
    height = static_cast<uint32_t>(shape.GetDim(0));
    width = static_cast<uint32_t>(shape.GetDim(1));
}
}  // namespace detail

inline void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                uint32_t& minValue) {
    uint32_t h, w;
    detail::PadDims(srcShape, "GetPadMaxMinTmpSize", "srcShape", typeSize, h, w);
    ascendc_adv_pad_tmp_size(0, h, w, typeSize, &maxValue, &minValue);
}
inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, tiling::PadTiling& tiling) {
    uint32_t h, w, oh, ow;
    detail::PadDims(srcShape, "PadTilingFunc", "srcShape", typeSize, h, w);
    detail::PadDims(oriSrcShape, "PadTilingFunc", "oriSrcShape", typeSize, oh, ow);
    if (oriSrcShape.GetShapeSize() > srcShape.GetShapeSize()) {
        ascendc_host::Fail("PadTilingFunc: oriSrcShape has more elements than srcShape");
    }
    ascendc_adv_pad_tiling(h, w, ow, stackBufferSize, typeSize, &tiling);
}
inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, optiling::PadTiling& tiling) {
    tiling::PadTiling plain;
    PadTilingFunc(srcShape, oriSrcShape, stackBufferSize, typeSize, plain);
    detail::PutTiling(tiling, plain, "PadTilingFunc");
}
inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                                  const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    uint32_t h, w;
    detail::PadDims(srcShape, "GetUnPadMaxMinTmpSize", "srcShape", typeSize, h, w);
    ascendc_adv_pad_tmp_size(static_cast<uint32_t>(ascendcPlatform.GetCurNpuArch()), h, w, typeSize, &maxValue,
                             &minValue);
}
inline void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            tiling::UnPadTiling& tiling) {
    uint32_t h, w;
    detail::PadDims(srcShape, "UnPadTilingFunc", "srcShape", typeSize, h, w);
    ascendc_adv_unpad_tiling(h, w, stackBufferSize, typeSize, &tiling);
}
inline void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            optiling::UnPadTiling& tiling) {
    tiling::UnPadTiling plain;
    UnPadTilingFunc(srcShape, stackBufferSize, typeSize, plain);
    detail::PutTiling(tiling, plain, "UnPadTilingFunc");
}
}  // namespace AscendC
