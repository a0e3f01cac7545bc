// The sorting family: Sort32 and MrgSort on (score, index) pairs (Atlas A2 / A3, Atlas 200I/500
// A2), ProposalConcat, ProposalExtract, RpSort16 and MrgSort4 on 8-element region proposals
// (Atlas training series, Atlas inference series AI Core), GetMrgSortResult. Layouts and
// ordering rules: docs/sort.md.
#pragma once

#include "vec.h"

extern "C" {
int32_t ascendc_sort32(uint8_t elem, const AscLocal* dst, const AscLocal* src0, const AscLocal* src1,
                       int32_t repeat, AscLoc loc);
int32_t ascendc_mrg_sort(uint8_t proposals, uint8_t elem, const AscLocal* dst, const AscLocal* srcs,
                         const uint16_t* lens, uint8_t suspension, uint16_t validBit, uint16_t repeat,
                         AscLoc loc);
int32_t ascendc_proposal(uint8_t op, uint8_t elem, const AscLocal* dst, const AscLocal* src, int32_t repeat,
                         int32_t mode, AscLoc loc);
int32_t ascendc_get_mrg_sort_result(uint16_t* out, AscLoc loc);
}

namespace AscendC {

// The four sorted source lists of a merge; lists left out by validBit may stay default-constructed.
template <typename T>
struct MrgSortSrcList {
    MrgSortSrcList() {}
    MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In, const LocalTensor<T>& src3In,
                   const LocalTensor<T>& src4In)
        : src1(src1In), src2(src2In), src3(src3In), src4(src4In) {}

    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;
};

// Merge parameters: list lengths in items (8-byte pairs for MrgSort, proposals for MrgSort4),
// stop-on-exhaustion, valid lists (3, 7, 15) and repeats.
struct MrgSort4Info {
    MrgSort4Info() {}
    MrgSort4Info(const uint16_t elementLengthsIn[4], const bool ifExhaustedSuspensionIn, const uint16_t validBitIn,
                 const uint16_t repeatTimesIn)
        : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes(repeatTimesIn) {
        for (int i = 0; i < 4; ++i) elementLengths[i] = elementLengthsIn[i];
    }

    uint16_t elementLengths[4] = {0, 0, 0, 0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint16_t repeatTimes = 1;
};

namespace detail {
template <typename T>
inline int32_t MrgSortCall(uint8_t proposals, const LocalTensor<T>& dst, const MrgSortSrcList<T>& src,
                           const MrgSort4Info& params, Loc loc) {
    const AscLocal srcs[4] = {src.src1.Raw(), src.src2.Raw(), src.src3.Raw(), src.src4.Raw()};
    return ascendc_mrg_sort(proposals, dtype<T>, &dst.Raw(), srcs, params.elementLengths,
                            params.ifExhaustedSuspension ? 1 : 0, params.validBit, params.repeatTimes, loc);
}
}  // namespace detail

template <typename T>
void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
            const int32_t repeatTime, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_sort32(detail::dtype<T>, &dst.Raw(), &src0.Raw(), &src1.Raw(), repeatTime, loc));
}

template <typename T>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params,
             detail::Loc loc = detail::Loc()) {
    detail::Check(detail::MrgSortCall(0, dst, src, params, loc));
}

template <typename T>
void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params,
              detail::Loc loc = detail::Loc()) {
    detail::Check(detail::MrgSortCall(1, dst, src, params, loc));
}

template <typename T>
void ProposalConcat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                    const int32_t modeNumber, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_proposal(0, detail::dtype<T>, &dst.Raw(), &src.Raw(), repeatTime, modeNumber, loc));
}

template <typename T>
void ProposalExtract(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                     const int32_t modeNumber, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_proposal(1, detail::dtype<T>, &dst.Raw(), &src.Raw(), repeatTime, modeNumber, loc));
}

// The 2023 spellings of ProposalConcat / ProposalExtract (dst, src, repeatTime, modeNumber).
template <typename T>
void Concat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const int32_t modeNumber,
            detail::Loc loc = detail::Loc()) {
    ProposalConcat(dst, src, repeatTime, modeNumber, loc);
}

template <typename T>
void Extract(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
             const int32_t modeNumber, detail::Loc loc = detail::Loc()) {
    ProposalExtract(dst, src, repeatTime, modeNumber, loc);
}

template <typename T>
void RpSort16(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
              detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_proposal(2, detail::dtype<T>, &dst.Raw(), &src.Raw(), repeatTime, 0, loc));
}

inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                             uint16_t& mrgSortList4, detail::Loc loc = detail::Loc()) {
    uint16_t c[4] = {0, 0, 0, 0};
    detail::Check(ascendc_get_mrg_sort_result(c, loc));
    mrgSortList1 = c[0];
    mrgSortList2 = c[1];
    mrgSortList3 = c[2];
    mrgSortList4 = c[3];
}

}  // namespace AscendC

// The high-level sort API (Concat, Sort, Extract, MrgSort with sortedNum, GetSortOffset,
// GetSortLen): the pairs layout on Atlas A2 / A3, region proposals on the Atlas inference series.
extern "C" {
int32_t ascendc_sort_concat(uint8_t elem, AscLocal* concat, const AscLocal* src, const AscLocal* tmp, int32_t repeat,
                            AscLoc loc);
int32_t ascendc_sort_sort(uint8_t elem, const AscLocal* dst, const AscLocal* concat, const AscLocal* index,
                          const AscLocal* tmp, int32_t repeat, uint8_t full, AscLoc loc);
int32_t ascendc_sort_extract(uint8_t elem, const AscLocal* dstValue, const AscLocal* dstIndex, const AscLocal* sorted,
                             int32_t repeat, AscLoc loc);
int32_t ascendc_sort_mrg_sort(uint8_t elem, const AscLocal* dst, const AscLocal* srcs, const uint16_t* lens,
                              uint32_t* sortedNum, uint16_t validBit, int32_t repeat, uint8_t suspension, AscLoc loc);
int32_t ascendc_sort_elems(uint8_t elem, uint8_t len, uint32_t n, uint32_t* out, AscLoc loc);
}

namespace AscendC {

template <typename T>
void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp, const int32_t repeatTime,
            detail::Loc loc = detail::Loc()) {
    AscLocal c = concat.Raw();
    detail::Check(ascendc_sort_concat(detail::dtype<T>, &c, &src.Raw(), &tmp.Raw(), repeatTime, loc));
    concat = LocalTensor<T>::FromRaw(c);
}

template <typename T, bool isFullSort>
void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index,
          LocalTensor<T>& tmp, const int32_t repeatTime, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_sort_sort(detail::dtype<T>, &dst.Raw(), &concat.Raw(), &index.Raw(), &tmp.Raw(), repeatTime,
                                    isFullSort ? 1 : 0, loc));
}

template <typename T>
void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex, const LocalTensor<T>& sorted,
             const int32_t repeatTime, detail::Loc loc = detail::Loc()) {
    detail::Check(
        ascendc_sort_extract(detail::dtype<T>, &dstValue.Raw(), &dstIndex.Raw(), &sorted.Raw(), repeatTime, loc));
}

template <typename T, bool isExhaustedSuspension = false>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList, const uint16_t elementCountList[4],
             uint32_t sortedNum[4], uint16_t validBit, const int32_t repeatTime, detail::Loc loc = detail::Loc()) {
    const AscLocal srcs[4] = {sortList.src1.Raw(), sortList.src2.Raw(), sortList.src3.Raw(), sortList.src4.Raw()};
    detail::Check(ascendc_sort_mrg_sort(detail::dtype<T>, &dst.Raw(), srcs, elementCountList, sortedNum, validBit,
                                        repeatTime, isExhaustedSuspension ? 1 : 0, loc));
}

template <typename T>
uint32_t GetSortOffset(const uint32_t elemOffset, detail::Loc loc = detail::Loc()) {
    uint32_t out = 0;
    detail::Check(ascendc_sort_elems(detail::dtype<T>, 0, elemOffset, &out, loc));
    return out;
}

template <typename T>
uint32_t GetSortLen(const uint32_t elemCount, detail::Loc loc = detail::Loc()) {
    uint32_t out = 0;
    detail::Check(ascendc_sort_elems(detail::dtype<T>, 1, elemCount, &out, loc));
    return out;
}

}  // namespace AscendC
