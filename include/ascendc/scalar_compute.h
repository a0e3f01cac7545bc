// Scalar compute: bit counts and searches on 64-bit words, and the scalar Casts (float -> half
// with CAST_ODD, float -> int32_t, float <-> bfloat16_t).
#pragma once

#include <cstring>

#include "vec.h"

extern "C" int32_t ascendc_scalar(uint8_t op, uint64_t a, uint64_t b, uint64_t* out, AscLoc loc);

namespace AscendC {

namespace detail {
inline uint64_t Scalar(uint8_t op, uint64_t a, uint64_t b, Loc loc) {
    uint64_t out = 0;
    Check(ascendc_scalar(op, a, b, &out, loc));
    return out;
}
inline uint64_t FloatBits(float v) {
    uint32_t b;
    std::memcpy(&b, &v, 4);
    return b;
}
}  // namespace detail

template <int countValue>
int64_t GetBitCount(uint64_t valueIn, detail::Loc loc = detail::Loc()) {
    return static_cast<int64_t>(detail::Scalar(0, valueIn, static_cast<uint64_t>(countValue), loc));
}
inline int64_t CountLeadingZero(uint64_t valueIn, detail::Loc loc = detail::Loc()) {
    return static_cast<int64_t>(detail::Scalar(1, valueIn, 0, loc));
}
inline int64_t CountBitsCntSameAsSignBit(int64_t valueIn, detail::Loc loc = detail::Loc()) {
    return static_cast<int64_t>(detail::Scalar(2, static_cast<uint64_t>(valueIn), 0, loc));
}
template <int countValue>
int64_t GetSFFValue(uint64_t valueIn, detail::Loc loc = detail::Loc()) {
    return static_cast<int64_t>(detail::Scalar(3, valueIn, static_cast<uint64_t>(countValue), loc));
}

// Cast<float, half, CAST_ODD> and Cast<float, int32_t, CAST_ROUND/CEIL/FLOOR/RINT>.
template <typename T, typename U, RoundMode roundMode>
U Cast(T valueIn, detail::Loc loc = detail::Loc()) {
    static_assert(std::is_same<T, float>::value, "the scalar Cast converts from float");
    static_assert(std::is_same<U, half>::value || std::is_same<U, int32_t>::value,
                  "the scalar Cast converts float to half or int32_t");
    uint64_t r = detail::Scalar(std::is_same<U, half>::value ? 4 : 5, detail::FloatBits(valueIn),
                                static_cast<uint64_t>(roundMode), loc);
    U out;
    std::memcpy(&out, &r, sizeof(U));
    return out;
}
inline bfloat16_t Cast(const float& fVal, detail::Loc loc = detail::Loc()) {
    uint64_t r = detail::Scalar(6, detail::FloatBits(fVal), 0, loc);
    bfloat16_t out;
    std::memcpy(&out, &r, 2);
    return out;
}
inline float Cast(const bfloat16_t& bVal, detail::Loc loc = detail::Loc()) {
    uint16_t bits;
    std::memcpy(&bits, &bVal, 2);
    uint64_t r = detail::Scalar(7, bits, 0, loc);
    float out;
    uint32_t b = static_cast<uint32_t>(r);
    std::memcpy(&out, &b, 4);
    return out;
}

// The earlier spellings of the same calls.
template <int countValue>
int64_t ScalarGetCountOfValue(uint64_t valueIn, detail::Loc loc = detail::Loc()) {
    return GetBitCount<countValue>(valueIn, loc);
}
inline int64_t ScalarCountLeadingZero(uint64_t valueIn, detail::Loc loc = detail::Loc()) {
    return CountLeadingZero(valueIn, loc);
}
template <int countValue>
int64_t ScalarGetSFFValue(uint64_t valueIn, detail::Loc loc = detail::Loc()) {
    return GetSFFValue<countValue>(valueIn, loc);
}
template <typename T, typename U, RoundMode roundMode>
U ScalarCast(T valueIn, detail::Loc loc = detail::Loc()) {
    return Cast<T, U, roundMode>(valueIn, loc);
}
inline bfloat16_t ToBfloat16(const float& fVal, detail::Loc loc = detail::Loc()) { return Cast(fVal, loc); }
inline float ToFloat(const bfloat16_t& bVal, detail::Loc loc = detail::Loc()) { return Cast(bVal, loc); }

}  // namespace AscendC
