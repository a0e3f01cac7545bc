// High-level API, data filtering (数据过滤): Select with a byte mask (SelectWithBytesMask) and
// DropOut (half/float; A2, A3, 310P).
#pragma once

#include "common.h"

namespace AscendC {
// Rows and row lengths of Select's source and mask.
struct SelectWithBytesMaskShapeInfo {
    SelectWithBytesMaskShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
// Rows and row lengths of DropOut's source and mask (mask rows in bytes).
struct DropOutShapeInfo {
    DropOutShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
constexpr uint32_t DROPOUT_MODE_BYTE_MISALIGN = 1;
constexpr uint32_t DROPOUT_MODE_BYTE_ALIGN = 2;
constexpr uint32_t DROPOUT_MODE_BIT_ALIGN = 3;
constexpr uint32_t DROPOUT_MODE_BIT_MISALIGN = 4;
}  // namespace AscendC

extern "C" {
int32_t ascendc_adv_select(uint8_t elem, uint32_t maskSize, const AscLocal* dst, const AscLocal* src, double scalar,
                           bool scalarFirst, const AscLocal* mask, const AscLocal* tmp,
                           const AscendC::SelectWithBytesMaskShapeInfo* info, bool reuseMask, AscLoc loc);
int32_t ascendc_adv_dropout(uint8_t elem, const AscLocal* dst, const AscLocal* src, const AscLocal* mask,
                            const AscLocal* tmp, const void* pipe, float keepProb,
                            const AscendC::DropOutShapeInfo* info, bool initBitMode, uint32_t mode, AscLoc loc);
int32_t ascendc_adv_dropout_bit_mode_init(const AscLocal* tmp, const void* pipe, AscLoc loc);
}

namespace AscendC {
namespace detail {
template <typename U>
constexpr bool SelectMaskType = sizeof(U) == 1 || sizeof(U) == 2 || sizeof(U) == 4;
}  // namespace detail

// dst = mask ? src1 (scalar) : src0 (tensor), element by element.
template <typename T, typename U, bool isReuseMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
            const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info,
            detail::Loc loc = detail::Loc()) {
    static_assert(detail::SelectMaskType<U>, "Select: the mask type U has 1, 2 or 4 bytes");
    detail::Check(ascendc_adv_select(detail::dtype<T>, sizeof(U), &dst.Raw(), &src0.Raw(), static_cast<double>(static_cast<float>(src1)),
                             false, &mask.Raw(), &sharedTmpBuffer.Raw(), &info, isReuseMask, loc));
}
// dst = mask ? src1 (tensor) : src0 (scalar), element by element.
template <typename T, typename U, bool isReuseMask = true>
void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
            const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info,
            detail::Loc loc = detail::Loc()) {
    static_assert(detail::SelectMaskType<U>, "Select: the mask type U has 1, 2 or 4 bytes");
    detail::Check(ascendc_adv_select(detail::dtype<T>, sizeof(U), &dst.Raw(), &src1.Raw(), static_cast<double>(static_cast<float>(src0)),
                             true, &mask.Raw(), &sharedTmpBuffer.Raw(), &info, isReuseMask, loc));
}

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& maskLocal,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const float keepProb, const DropOutShapeInfo& info,
             detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_dropout(detail::dtype<T>, &dstLocal.Raw(), &srcLocal.Raw(), &maskLocal.Raw(), &sharedTmpBuffer.Raw(),
                              detail::PipeHandle(), keepProb, &info, isInitBitMode, dropOutMode, loc));
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& maskLocal,
             const float keepProb, const DropOutShapeInfo& info, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_dropout(detail::dtype<T>, &dstLocal.Raw(), &srcLocal.Raw(), &maskLocal.Raw(), nullptr, detail::PipeHandle(),
                              keepProb, &info, isInitBitMode, dropOutMode, loc));
}
// Loads zeros into CMPMASK for DropOut<T, true> calls in bit mode.
template <typename T>
void DropOutBitModeInit(const LocalTensor<T>& sharedTmpBuffer, detail::Loc loc = detail::Loc()) {
    LocalTensor<uint8_t> bytes = sharedTmpBuffer.template ReinterpretCast<uint8_t>();
    detail::Check(ascendc_adv_dropout_bit_mode_init(&bytes.Raw(), detail::PipeHandle(), loc));
}
inline void DropOutBitModeInit(detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_dropout_bit_mode_init(nullptr, detail::PipeHandle(), loc));
}
}  // namespace AscendC
