// DataCopyPad: GM -> VECIN/VECOUT with padding, VECIN/VECOUT -> GM, VECIN/VECOUT -> TSCM; and
// SetPadValue.
#pragma once

#include "data_copy.h"

namespace AscendC {

// Like DataCopyParams with wider fields; blockLen in bytes.
struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;

    DataCopyExtParams() = default;
    DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcStrideIn, uint32_t dstStrideIn, uint32_t rsvIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
};

template <typename T>
struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = 0;

    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(bool isPadIn, uint8_t left, uint8_t right, T value)
        : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

struct DataCopyPadParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;

    DataCopyPadParams() = default;
    DataCopyPadParams(bool isPadIn, uint8_t left, uint8_t right, uint64_t value)
        : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

namespace detail {

struct RawPadCopy {
    uint8_t ext;
    uint16_t blockCount;
    uint32_t blockLen, srcStride, dstStride, rsv;
};

struct RawPad {
    uint8_t ext, isPad, left, right;
    uint64_t value;
};

inline RawPadCopy PadCopy(const DataCopyExtParams& p) {
    return {1, p.blockCount, p.blockLen, p.srcStride, p.dstStride, p.rsv};
}
inline RawPadCopy PadCopy(const DataCopyParams& p) {
    return {0, p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0};
}
template <typename T>
RawPad Pad(const DataCopyPadExtParams<T>& p) {
    RawPad r{1, p.isPad, p.leftPadding, p.rightPadding, 0};
    std::memcpy(&r.value, &p.paddingValue, sizeof(T));
    return r;
}
inline RawPad Pad(const DataCopyPadParams& p) { return {0, p.isPad, p.leftPadding, p.rightPadding, p.paddingValue}; }

template <typename T, typename Params, typename PadT>
void PadIn(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Params& params, const PadT& pad, Loc loc) {
    RawPadCopy p = PadCopy(params);
    RawPad r = Pad(pad);
    RawGlobal g = src.Raw();
    Check(ascendc_data_copy_pad(dtype<T>, GM_TO_LOCAL, &dst.Raw(), nullptr, nullptr, &g, &p, &r, nullptr, loc));
}

template <typename T, typename Params>
void PadOut(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const Params& params, Loc loc) {
    RawPadCopy p = PadCopy(params);
    RawGlobal g = dst.Raw();
    Check(ascendc_data_copy_pad(dtype<T>, LOCAL_TO_GM, nullptr, &g, &src.Raw(), nullptr, &p, nullptr, nullptr, loc));
}

template <typename T, typename Params>
void PadTscm(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Params& params, const Nd2NzParams& n,
             Loc loc) {
    RawPadCopy p = PadCopy(params);
    uint16_t v[8] = {n.ndNum,     n.nValue,        n.dValue,       n.srcNdMatrixStride,
                     n.srcDValue, n.dstNzC0Stride, n.dstNzNStride, n.dstNzMatrixStride};
    Check(ascendc_data_copy_pad(dtype<T>, LOCAL_TO_LOCAL, &dst.Raw(), nullptr, &src.Raw(), nullptr, &p, nullptr, v,
                                loc));
}

}  // namespace detail

template <typename T>
void DataCopyPad(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal,
                 const DataCopyExtParams& dataCopyParams, const DataCopyPadExtParams<T>& padParams,
                 detail::Loc loc = detail::Loc()) {
    detail::PadIn(dstLocal, srcGlobal, dataCopyParams, padParams, loc);
}

template <typename T>
void DataCopyPad(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal,
                 const DataCopyParams& dataCopyParams, const DataCopyPadParams& padParams,
                 detail::Loc loc = detail::Loc()) {
    detail::PadIn(dstLocal, srcGlobal, dataCopyParams, padParams, loc);
}

template <typename T>
void DataCopyPad(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal,
                 const DataCopyExtParams& dataCopyParams, detail::Loc loc = detail::Loc()) {
    detail::PadOut(dstGlobal, srcLocal, dataCopyParams, loc);
}

template <typename T>
void DataCopyPad(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal,
                 const DataCopyParams& dataCopyParams, detail::Loc loc = detail::Loc()) {
    detail::PadOut(dstGlobal, srcLocal, dataCopyParams, loc);
}

template <typename T>
void DataCopyPad(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                 const DataCopyExtParams& dataCopyParams, const Nd2NzParams& nd2nzParams,
                 detail::Loc loc = detail::Loc()) {
    detail::PadTscm(dstLocal, srcLocal, dataCopyParams, nd2nzParams, loc);
}

template <typename T>
void DataCopyPad(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                 const DataCopyParams& dataCopyParams, const Nd2NzParams& nd2nzParams,
                 detail::Loc loc = detail::Loc()) {
    detail::PadTscm(dstLocal, srcLocal, dataCopyParams, nd2nzParams, loc);
}

template <typename T>
void SetPadValue(T paddingValue, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_pad_value(detail::dtype<T>, &paddingValue, loc));
}

}  // namespace AscendC
