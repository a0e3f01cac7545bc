// Gather, scatter and compaction: GatherMask (built-in pattern or pattern tensor), Gather
// (level 2 and level 0), Gatherb and Scatter. Offsets are in bytes.
#pragma once

#include "vec.h"

extern "C" {
int32_t ascendc_gather_mask(uint8_t elem, uint8_t patElem, const AscLocal* dst, const AscLocal* src0,
                            const AscLocal* pattern, uint8_t builtin, uint8_t reduceMode, uint32_t mask,
                            const uint16_t* params, uint64_t* rsvdCnt, AscLoc loc);
int32_t ascendc_gather_mask_remain(uint64_t* out, AscLoc loc);
int32_t ascendc_gather(uint8_t op, uint8_t elem, const AscLocal* dst, const AscLocal* src, const AscLocal* offset,
                       uint32_t base, int32_t count, const AscendC::detail::RawMask* mask, uint8_t repeat,
                       uint16_t stride, AscLoc loc);
int32_t ascendc_gatherb(uint8_t elem, const AscLocal* dst, const AscLocal* src, const AscLocal* offset,
                        uint8_t repeat, uint8_t dstBlk, uint16_t dstRep, AscLoc loc);
}

namespace AscendC {

struct GatherMaskParams {
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = 0;
    uint8_t src1RepeatStride = 0;

    GatherMaskParams() = default;
    GatherMaskParams(uint8_t src0BlockStrideIn, uint16_t repeatTimesIn, uint16_t src0RepeatStrideIn,
                     uint8_t src1RepeatStrideIn)
        : src0BlockStride(src0BlockStrideIn), repeatTimes(repeatTimesIn), src0RepeatStride(src0RepeatStrideIn),
          src1RepeatStride(src1RepeatStrideIn) {}
};

struct GatherRepeatParams {
    uint8_t dstBlkStride = 1;
    uint16_t dstRepStride = 8;

    GatherRepeatParams() = default;
    GatherRepeatParams(uint8_t dstBlkStrideIn, uint16_t dstRepStrideIn)
        : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
};

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;

namespace detail {
inline const uint16_t* GatherMaskRaw(const GatherMaskParams& p, uint16_t (&raw)[4]) {
    raw[0] = p.src0BlockStride;
    raw[1] = p.repeatTimes;
    raw[2] = p.src0RepeatStride;
    raw[3] = p.src1RepeatStride;
    return raw;
}
}  // namespace detail

template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                uint64_t& rsvdCnt, detail::Loc loc = detail::Loc()) {
    uint16_t raw[4];
    detail::Check(ascendc_gather_mask(detail::dtype<T>, detail::dtype<U>, &dst.Raw(), &src0.Raw(),
                                      &src1Pattern.Raw(), 0, reduceMode, mask,
                                      detail::GatherMaskRaw(gatherMaskParams, raw), &rsvdCnt, loc));
}

template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                uint64_t& rsvdCnt, detail::Loc loc = detail::Loc()) {
    uint16_t raw[4];
    detail::Check(ascendc_gather_mask(detail::dtype<T>, 0, &dst.Raw(), &src0.Raw(), nullptr, src1Pattern,
                                      reduceMode, mask, detail::GatherMaskRaw(gatherMaskParams, raw), &rsvdCnt,
                                      loc));
}

// The kept-element count of the last GatherMask (an earlier spelling, not in the index).
inline int64_t GetGatherMaskRemainCount(detail::Loc loc = detail::Loc()) {
    uint64_t n = 0;
    detail::Check(ascendc_gather_mask_remain(&n, loc));
    return static_cast<int64_t>(n);
}

template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint32_t count, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_gather(0, detail::dtype<T>, &dst.Raw(), &src.Raw(), &srcOffset.Raw(), srcBaseAddr,
                                 static_cast<int32_t>(count), nullptr, 0, 0, loc));
}
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint64_t mask[], const uint8_t repeatTime, const uint16_t dstRepStride,
            detail::Loc loc = detail::Loc()) {
    detail::RawMask m = detail::BitMask(true, mask);
    detail::Check(ascendc_gather(0, detail::dtype<T>, &dst.Raw(), &src.Raw(), &srcOffset.Raw(), srcBaseAddr, 0, &m,
                                 repeatTime, dstRepStride, loc));
}
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint64_t mask, const uint8_t repeatTime, const uint16_t dstRepStride,
            detail::Loc loc = detail::Loc()) {
    detail::RawMask m = detail::CountMask(true, mask);
    detail::Check(ascendc_gather(0, detail::dtype<T>, &dst.Raw(), &src.Raw(), &srcOffset.Raw(), srcBaseAddr, 0, &m,
                                 repeatTime, dstRepStride, loc));
}

template <typename T>
void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& dstOffset,
             const uint32_t dstBaseAddr, const uint32_t count, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_gather(1, detail::dtype<T>, &dst.Raw(), &src.Raw(), &dstOffset.Raw(), dstBaseAddr,
                                 static_cast<int32_t>(count), nullptr, 0, 0, loc));
}
template <typename T>
void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& dstOffset,
             const uint32_t dstBaseAddr, const uint64_t mask[], const uint8_t repeatTime, const uint8_t srcRepStride,
             detail::Loc loc = detail::Loc()) {
    detail::RawMask m = detail::BitMask(true, mask);
    detail::Check(ascendc_gather(1, detail::dtype<T>, &dst.Raw(), &src.Raw(), &dstOffset.Raw(), dstBaseAddr, 0, &m,
                                 repeatTime, srcRepStride, loc));
}
template <typename T>
void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& dstOffset,
             const uint32_t dstBaseAddr, const uint64_t mask, const uint8_t repeatTime, const uint8_t srcRepStride,
             detail::Loc loc = detail::Loc()) {
    detail::RawMask m = detail::CountMask(true, mask);
    detail::Check(ascendc_gather(1, detail::dtype<T>, &dst.Raw(), &src.Raw(), &dstOffset.Raw(), dstBaseAddr, 0, &m,
                                 repeatTime, srcRepStride, loc));
}

template <typename T>
void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& offset,
             const uint8_t repeatTime, const GatherRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_gatherb(detail::dtype<T>, &dst.Raw(), &src.Raw(), &offset.Raw(), repeatTime,
                                  repeatParams.dstBlkStride, repeatParams.dstRepStride, loc));
}

}  // namespace AscendC
