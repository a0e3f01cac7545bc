// Vector instructions: level 2 (element count) and level 0 (mask, repeat times, strides).
#pragma once

#include "tensor.h"

namespace AscendC {

struct BinaryRepeatParams {
    uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
    uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;

    BinaryRepeatParams() = default;
    BinaryRepeatParams(uint8_t dstBlk, uint8_t src0Blk, uint8_t src1Blk, uint8_t dstRep,
                       uint8_t src0Rep, uint8_t src1Rep)
        : dstBlkStride(dstBlk), src0BlkStride(src0Blk), src1BlkStride(src1Blk),
          dstRepStride(dstRep), src0RepStride(src0Rep), src1RepStride(src1Rep) {}
};

struct UnaryRepeatParams {
    uint16_t dstBlkStride = 1, srcBlkStride = 1;
    uint8_t dstRepStride = 8, srcRepStride = 8;

    UnaryRepeatParams() = default;
    UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint8_t dstRep, uint8_t srcRep)
        : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep) {}
};

namespace detail {

inline RawMask CountMask(bool isSetMask, uint64_t mask) { return {uint8_t(isSetMask ? 0 : 2), mask, 0}; }
inline RawMask BitMask(bool isSetMask, const uint64_t mask[]) {
    return {uint8_t(isSetMask ? 1 : 2), mask[0], mask[1]};
}
inline RawBinaryParams Strides(const BinaryRepeatParams& p) {
    return {{p.dstBlkStride, p.src0BlkStride, p.src1BlkStride},
            {p.dstRepStride, p.src0RepStride, p.src1RepStride}};
}

template <typename T>
void Binary(uint8_t op, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, int32_t count, const RawMask* mask, uint8_t repeat,
            const BinaryRepeatParams* params, Loc loc) {
    RawBinaryParams p{};
    if (params != nullptr) {
        p = Strides(*params);
    }
    Check(ascendc_vec_binary(op, dtype<T>, &dst.Raw(), &src0.Raw(), &src1.Raw(), count, mask,
                             repeat, params != nullptr ? &p : nullptr, loc));
}

}  // namespace detail

// Declares the three forms of a two-source instruction: level 2, level 0 with a contiguous mask,
// level 0 with a bitwise mask.
#define ASCENDC_BINARY_OP(Name, id)                                                              \
    template <typename T>                                                                        \
    void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local,                   \
              const LocalTensor<T>& src1Local, const int32_t& calCount, detail::Loc loc = detail::Loc()) {  \
        detail::Binary(id, dstLocal, src0Local, src1Local, calCount, nullptr, 0, nullptr, loc);  \
    }                                                                                            \
    template <typename T, bool isSetMask = true>                                                 \
    void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local,                   \
              const LocalTensor<T>& src1Local, uint64_t mask, const uint8_t repeatTimes,         \
              const BinaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {                    \
        detail::RawMask m = detail::CountMask(isSetMask, mask);                                  \
        detail::Binary(id, dstLocal, src0Local, src1Local, 0, &m, repeatTimes, &repeatParams,    \
                       loc);                                                                     \
    }                                                                                            \
    template <typename T, bool isSetMask = true>                                                 \
    void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local,                   \
              const LocalTensor<T>& src1Local, const uint64_t mask[], const uint8_t repeatTimes, \
              const BinaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {                    \
        detail::RawMask m = detail::BitMask(isSetMask, mask);                                    \
        detail::Binary(id, dstLocal, src0Local, src1Local, 0, &m, repeatTimes, &repeatParams,    \
                       loc);                                                                     \
    }

ASCENDC_BINARY_OP(Add, 0)

}  // namespace AscendC
