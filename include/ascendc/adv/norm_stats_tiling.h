// Host helpers of the normalization statistics APIs: GetWelfordUpdateMaxMinTmpSize and
// GetWelfordFinalizeMaxMinTmpSize.
#pragma once

#include <string>
#include <vector>

#include "../host/ge_shape.h"
#include "common.h"
#include "norm_stats.h"

extern "C" {
bool ascendc_adv_welford_update_tmp_size(const int64_t* dims, uint32_t rank, uint32_t typeSizeT, bool isReuseSource,
                                         uint32_t* maxValue, uint32_t* minValue);
bool ascendc_adv_welford_finalize_tmp_size(const int64_t* dims, uint32_t rank, uint32_t* maxValue,
                                           uint32_t* minValue);
}

namespace AscendC {
// Bytes of temporary space WelfordUpdate needs for a [rnLength, abLength] block of inputX
// (typeSizeT bytes per element); isInplace and typeSizeU do not change it.
inline void GetWelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeT,
                                          const uint32_t typeSizeU, const bool isReuseSource, const bool isInplace,
                                          uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSizeU;
    (void)isInplace;
    std::vector<int64_t> d = srcShape.GetDims();
    if (!ascendc_adv_welford_update_tmp_size(d.data(), static_cast<uint32_t>(d.size()), typeSizeT, isReuseSource,
                                             &maxValue, &minValue)) {
        ascendc_host::Fail("GetWelfordUpdateMaxMinTmpSize: srcShape has " + std::to_string(d.size()) +
                           " dimensions; it must be 2 ([rnLength, abLength])");
    }
}

// Bytes of temporary space WelfordFinalize needs for [abLength] partials (typeSize and
// isReuseSource do not change it).
inline void GetWelfordFinalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                            const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSize;
    (void)isReuseSource;
    std::vector<int64_t> d = srcShape.GetDims();
    if (!ascendc_adv_welford_finalize_tmp_size(d.data(), static_cast<uint32_t>(d.size()), &maxValue, &minValue)) {
        ascendc_host::Fail("GetWelfordFinalizeMaxMinTmpSize: srcShape must have 1 dimension ([abLength]), a "
                           "non-zero multiple of 8 (32 bytes of float)");
    }
}
}  // namespace AscendC
