// Host helpers of SoftmaxFlash (the first version), as the vendor's softmax_tiling.h declares
// them: GetSoftMaxFlashMaxTmpSize / GetSoftMaxFlashMinTmpSize (bytes) and SoftMaxFlashTilingFunc
// into optiling::SoftMaxTiling or the kernel struct.
#pragma once

#include "softmax_tiling.h"

extern "C" {
uint32_t ascendc_adv_softmax_flash_v1_tmp_size(uint32_t m, uint32_t k, uint32_t typeSize, bool isUpdate,
                                               bool wantMax);
void ascendc_adv_softmax_flash_v1_tiling(uint32_t m, uint32_t k, uint32_t typeSize, uint32_t workBytes, bool isUpdate,
                                         uint32_t* words);
}

namespace AscendC {

inline uint32_t GetSoftMaxFlashMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool isReuseSource) {
    (void)isReuseSource;
    uint32_t m, k;
    detail::SoftMaxRows(srcShape, m, k);
    return ascendc_adv_softmax_flash_v1_tmp_size(m, k, dataTypeSize, isUpdate, true);
}

inline uint32_t GetSoftMaxFlashMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool isReuseSource) {
    (void)isReuseSource;
    uint32_t m, k;
    detail::SoftMaxRows(srcShape, m, k);
    return ascendc_adv_softmax_flash_v1_tmp_size(m, k, dataTypeSize, isUpdate, false);
}

namespace detail {
template <typename Words>
inline void SoftMaxFlashV1TilingTo(const ge::Shape& s, uint32_t size, uint32_t work, bool isUpdate, Words& out) {
    uint32_t m, k, w[16];
    SoftMaxRows(s, m, k);
    ascendc_adv_softmax_flash_v1_tiling(m, k, size, work, isUpdate, w);
    out.AscendcFrom(w);
}
}  // namespace detail

inline void SoftMaxFlashTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                   const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxFlashTiling,
                                   const bool isUpdate = false) {
    detail::SoftMaxFlashV1TilingTo(srcShape, dataTypeSize, localWorkSpaceSize, isUpdate, softmaxFlashTiling);
}

inline void SoftMaxFlashTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                   const uint32_t localWorkSpaceSize, ::SoftMaxTiling& softmaxFlashTiling,
                                   const bool isUpdate = false) {
    detail::PlainWords<::SoftMaxTiling> w{softmaxFlashTiling};
    detail::SoftMaxFlashV1TilingTo(srcShape, dataTypeSize, localWorkSpaceSize, isUpdate, w);
}

}  // namespace AscendC
