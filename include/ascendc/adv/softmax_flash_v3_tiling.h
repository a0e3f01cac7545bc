// Host helpers of SoftmaxFlashV3 (the vendor's softmax_flashv3_tiling.h): the temporary-space
// sizes and SoftMaxFlashV3TilingFunc into optiling::SoftMaxTiling or the kernel struct.
#pragma once

#include "softmax_tiling.h"

extern "C" {
void ascendc_adv_softmax_flash_v3_tmp_size(uint32_t m, uint32_t k, uint32_t size1, uint32_t size2,
                                           uint32_t* maxValue, uint32_t* minValue);
void ascendc_adv_softmax_flash_v3_tiling(uint32_t m, uint32_t k, uint32_t size1, uint32_t size2, uint32_t workBytes,
                                         uint32_t* words);
}

namespace AscendC {

inline void GetSoftMaxFlashV3MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                           const uint32_t dataTypeSize2, uint32_t& maxValue, uint32_t& minValue,
                                           const bool isUpdate, const bool isBasicBlock = false) {
    (void)isUpdate;
    (void)isBasicBlock;
    uint32_t m, k;
    detail::SoftMaxRows(srcShape, m, k);
    ascendc_adv_softmax_flash_v3_tmp_size(m, k, dataTypeSize1, dataTypeSize2, &maxValue, &minValue);
}

namespace detail {
template <typename Words>
inline void SoftMaxFlashV3TilingTo(const ge::Shape& s, uint32_t size1, uint32_t size2, uint32_t work, Words& out) {
    uint32_t m, k, w[16];
    SoftMaxRows(s, m, k);
    ascendc_adv_softmax_flash_v3_tiling(m, k, size1, size2, work, w);
    out.AscendcFrom(w);
}
}  // namespace detail

inline void SoftMaxFlashV3TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling& softmaxFlashV3Tiling, const bool isUpdate,
                                     const bool isBasicBlock = false) {
    (void)isUpdate;
    (void)isBasicBlock;
    detail::SoftMaxFlashV3TilingTo(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, softmaxFlashV3Tiling);
}

inline void SoftMaxFlashV3TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     ::SoftMaxTiling& softmaxFlashV3Tiling, const bool isUpdate,
                                     const bool isBasicBlock = false) {
    (void)isUpdate;
    (void)isBasicBlock;
    detail::PlainWords<::SoftMaxTiling> w{softmaxFlashV3Tiling};
    detail::SoftMaxFlashV3TilingTo(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, w);
}

}  // namespace AscendC
