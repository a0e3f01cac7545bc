// Host helper of Broadcast: GetBroadCastMaxMinTmpSize.
#pragma once

#include <cstdio>
#include <vector>

#include "../../tiling/platform/platform_ascendc.h"
#include "../host/ge_shape.h"
#include "common.h"

extern "C" {
bool ascendc_adv_broadcast_tmp_size(const int64_t* src, uint32_t srcRank, const int64_t* dst, uint32_t dstRank,
                                    uint32_t typeSize, bool v200, uint32_t* maxValue, uint32_t* minValue);
}

namespace AscendC {
// Bytes of temporary space Broadcast needs from srcShape to dstShape (typeSize bytes per element) on the
// platform's product; on a failed check a message goes to stderr and the outputs stay unchanged.
inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                      const ge::Shape& srcShape, const ge::Shape& dstShape, uint32_t typeSize,
                                      const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    std::vector<int64_t> s = srcShape.GetDims();
    std::vector<int64_t> d = dstShape.GetDims();
    bool v200 = ascendcPlatform.GetCurNpuArch() == platform_ascendc::NpuArch::DAV_2002;
    if (!ascendc_adv_broadcast_tmp_size(s.data(), static_cast<uint32_t>(s.size()), d.data(),
                                        static_cast<uint32_t>(d.size()), typeSize, v200, &maxValue, &minValue)) {
        std::fprintf(stderr, "[Broadcast][GetBroadCastMaxMinTmpSize] srcShape can not broadcast to dstShape here\n");
    }
}
}  // namespace AscendC
