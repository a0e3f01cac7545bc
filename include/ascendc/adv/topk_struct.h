// The sort family's plain types, shared by kernel and host code: TopkTiling as the kernel reads
// it (the vendor's kernel_tiling/kernel_tiling.h; 24 four-byte fields then 8 uint16_t, 112 bytes,
// at global scope and in AscendC::tiling), TopKMode / TopKInfo / TopKConfig, and SortType /
// SortConfig of the high-level Sort's host query.
#pragma once

#include <cstdint>

#define ASCENDC_TOPK_TILING_FIELDS(F32, FU32, FU16) \
    F32(tmpLocalSize)                               \
    F32(allDataSize)                                \
    F32(innerDataSize)                              \
    FU32(sortRepeat)                                \
    F32(mrgSortRepeat)                              \
    F32(kAlignFourBytes)                            \
    F32(kAlignTwoBytes)                             \
    F32(maskOffset)                                 \
    F32(maskVreducev2FourBytes)                     \
    F32(maskVreducev2TwoBytes)                      \
    F32(mrgSortSrc1offset)                          \
    F32(mrgSortSrc2offset)                          \
    F32(mrgSortSrc3offset)                          \
    F32(mrgSortTwoQueueSrc1Offset)                  \
    F32(mrgFourQueueTailPara1)                      \
    F32(mrgFourQueueTailPara2)                      \
    F32(srcIndexOffset)                             \
    FU32(copyUbToUbBlockCount)                      \
    F32(topkMrgSrc1MaskSizeOffset)                  \
    F32(topkNSmallSrcIndexOffset)                   \
    FU32(vreduceValMask0)                           \
    FU32(vreduceValMask1)                           \
    FU32(vreduceIdxMask0)                           \
    FU32(vreduceIdxMask1)                           \
    FU16(vreducehalfValMask0)                       \
    FU16(vreducehalfValMask1)                       \
    FU16(vreducehalfValMask2)                       \
    FU16(vreducehalfValMask3)                       \
    FU16(vreducehalfValMask4)                       \
    FU16(vreducehalfValMask5)                       \
    FU16(vreducehalfValMask6)                       \
    FU16(vreducehalfValMask7)

#define ASCENDC_TOPK_PLAIN_I32(f) int32_t f = 0;
#define ASCENDC_TOPK_PLAIN_U32(f) uint32_t f = 0;
#define ASCENDC_TOPK_PLAIN_U16(f) uint16_t f = 0;
// TopK's tiling (TopKTilingFunc fills it): offsets, sizes, repeat counts and GatherMask
// patterns, in elements of the value type unless named otherwise.
struct TopkTiling {
    ASCENDC_TOPK_TILING_FIELDS(ASCENDC_TOPK_PLAIN_I32, ASCENDC_TOPK_PLAIN_U32, ASCENDC_TOPK_PLAIN_U16)
};
#undef ASCENDC_TOPK_PLAIN_I32
#undef ASCENDC_TOPK_PLAIN_U32
#undef ASCENDC_TOPK_PLAIN_U16
static_assert(sizeof(TopkTiling) == 112, "TopkTiling is 24 four-byte fields and 8 uint16_t");

namespace AscendC {
namespace tiling {
using ::TopkTiling;
}  // namespace tiling

// TopK's modes: rows of 32 to 4096 elements, or rows of exactly 32.
enum class TopKMode {
    TOPK_NORMAL,
    TOPK_NSMALL,
};
// TopK's algorithms and orders (RADIX_SELECT and the orders are Ascend 950's).
enum class TopKAlgo { RADIX_SELECT, MERGE_SORT };
enum class TopKOrder { UNSET, LARGEST, SMALLEST };
struct TopKConfig {
    TopKAlgo algo = TopKAlgo::MERGE_SORT;
    TopKOrder order = TopKOrder::UNSET;
    bool sorted = true;
};
inline constexpr TopKConfig defaultTopKConfig = {TopKAlgo::MERGE_SORT, TopKOrder::UNSET, true};

// The source's shape: outter rows of inner elements (a multiple of 32), n of them valid.
struct TopKInfo {
    int32_t outter = 1;
    int32_t inner;
    int32_t n;
};

// The algorithms of Ascend 950's high-level Sort (its host query takes them).
enum class SortType { RADIX_SORT, MERGE_SORT };
#ifndef ASCC_STRUCT_SORTCONFIG
#define ASCC_STRUCT_SORTCONFIG
struct SortConfig {
    SortType type = SortType::RADIX_SORT;
    bool isDescend = false;
    bool hasSrcIndex = false;
    bool hasDstIndex = false;
};
#endif
}  // namespace AscendC
