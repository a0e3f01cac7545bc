// DataCopy: GM -> local, local -> GM and local -> local, level 0 (DataCopyParams) and level 2
// (element count).
#pragma once

#include "tensor.h"

namespace AscendC {

struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    uint16_t srcStride = 0;
    uint16_t dstStride = 0;

    DataCopyParams() = default;
    DataCopyParams(uint16_t count, uint16_t len, uint16_t srcGap, uint16_t dstGap)
        : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap) {}
};

namespace detail {

enum CopyDir : uint8_t { GM_TO_LOCAL = 0, LOCAL_TO_GM = 1, LOCAL_TO_LOCAL = 2 };

inline const RawCopyParams* CopyParams(const DataCopyParams& p, RawCopyParams& out) {
    out = {p.blockCount, p.blockLen, p.srcStride, p.dstStride};
    return &out;
}

}  // namespace detail

template <typename T>
void DataCopy(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal,
              const DataCopyParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::RawCopyParams p;
    detail::RawGlobal g = srcGlobal.Raw();
    detail::Check(ascendc_data_copy(detail::dtype<T>, detail::GM_TO_LOCAL, &dstLocal.Raw(), nullptr,
                                    nullptr, &g, detail::CopyParams(repeatParams, p), 0, loc));
}

template <typename T>
void DataCopy(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal,
              const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::RawGlobal g = srcGlobal.Raw();
    detail::Check(ascendc_data_copy(detail::dtype<T>, detail::GM_TO_LOCAL, &dstLocal.Raw(), nullptr,
                                    nullptr, &g, nullptr, calCount, loc));
}

template <typename T>
void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal,
              const DataCopyParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::RawCopyParams p;
    detail::RawGlobal g = dstGlobal.Raw();
    detail::Check(ascendc_data_copy(detail::dtype<T>, detail::LOCAL_TO_GM, nullptr, &g,
                                    &srcLocal.Raw(), nullptr, detail::CopyParams(repeatParams, p), 0,
                                    loc));
}

template <typename T>
void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal,
              const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::RawGlobal g = dstGlobal.Raw();
    detail::Check(ascendc_data_copy(detail::dtype<T>, detail::LOCAL_TO_GM, nullptr, &g,
                                    &srcLocal.Raw(), nullptr, nullptr, calCount, loc));
}

template <typename T>
void DataCopy(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
              const DataCopyParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::RawCopyParams p;
    detail::Check(ascendc_data_copy(detail::dtype<T>, detail::LOCAL_TO_LOCAL, &dstLocal.Raw(),
                                    nullptr, &srcLocal.Raw(), nullptr,
                                    detail::CopyParams(repeatParams, p), 0, loc));
}

template <typename T>
void DataCopy(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
              const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_data_copy(detail::dtype<T>, detail::LOCAL_TO_LOCAL, &dstLocal.Raw(),
                                    nullptr, &srcLocal.Raw(), nullptr, nullptr, calCount, loc));
}

}  // namespace AscendC
