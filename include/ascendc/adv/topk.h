// High-level API, sort family: TopK (half/float; A2, A3 and the Atlas inference series; the
// MERGE_SORT algorithm: RADIX_SELECT is Ascend 950's).
#pragma once

#include "common.h"
#include "topk_struct.h"

extern "C" {
int32_t ascendc_adv_topk(uint8_t elem, uint8_t topkMode, uint8_t flags, const AscLocal* dstValue,
                         const AscLocal* dstIndex, const AscLocal* src, const AscLocal* srcIndex,
                         const AscLocal* finish, const AscLocal* tmp, const void* pipe, int32_t k,
                         const void* tiling, int32_t outter, int32_t inner, int32_t n, AscLoc loc);
}

namespace AscendC {
namespace detail {
template <typename T, bool isInitIndex, bool isHasfinish, bool isReuseSrc, TopKMode topkMode, const TopKConfig& config>
inline void AdvTopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                    const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
                    const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>* tmpLocal, int32_t k,
                    const TopkTiling& tiling, const TopKInfo& topKInfo, bool isLargest, Loc loc) {
    static_assert(config.algo == TopKAlgo::MERGE_SORT,
                  "TopKAlgo::RADIX_SELECT is Ascend 950's: these products run MERGE_SORT");
    const uint8_t flags = (isInitIndex ? 1 : 0) | (isHasfinish ? 2 : 0) | (isReuseSrc ? 4 : 0) | (isLargest ? 8 : 0);
    Check(ascendc_adv_topk(dtype<T>, topkMode == TopKMode::TOPK_NORMAL ? 0 : 1, flags, &dstValueLocal.Raw(),
                           &dstIndexLocal.Raw(), &srcLocal.Raw(), &srcIndexLocal.Raw(), &finishLocal.Raw(),
                           tmpLocal != nullptr ? &tmpLocal->Raw() : nullptr, PipeHandle(), k, &tiling,
                           topKInfo.outter, topKInfo.inner, topKInfo.n, loc));
}
}  // namespace detail

// The k largest (isLargest) or smallest values of each row and their indices, with the
// temporary space in tmpLocal (GetTopKMaxMinTmpSize bytes).
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig& config = defaultTopKConfig>
void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
          const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
          const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& tmpLocal, const int32_t k,
          const TopkTiling& tilling, const TopKInfo& topKInfo, const bool isLargest = true,
          detail::Loc loc = detail::Loc()) {
    detail::AdvTopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode, config>(
        dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, &tmpLocal, k, tilling, topKInfo,
        isLargest, loc);
}
// The same with the temporary space taken from the UB the pipe has not given out.
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig& config = defaultTopKConfig>
void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
          const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
          const LocalTensor<bool>& finishLocal, const int32_t k, const TopkTiling& tilling,
          const TopKInfo& topKInfo, const bool isLargest = true, detail::Loc loc = detail::Loc()) {
    detail::AdvTopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode, config>(
        dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, nullptr, k, tilling, topKInfo,
        isLargest, loc);
}
}  // namespace AscendC
