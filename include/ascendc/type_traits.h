// The vendor headers' own compile-time helpers that kernels use: IsSameType, Conditional,
// ConditionalMulti, SupportType and the K_MAX_DIM constant.
#pragma once

#include <cstdint>
#include <type_traits>

namespace AscendC {

// Most dimensions of a SliceInfo copy.
constexpr int32_t K_MAX_DIM = 8;

// A compile-time bool with `value` and `Type`.
template <bool b>
struct BoolInst {
    using Type = BoolInst<b>;
    static constexpr bool value = b;
};
using TrueType = BoolInst<true>;
using FalseType = BoolInst<false>;

// `value` is true when T and U are the same type.
template <typename T, typename U>
struct IsSameType : FalseType {};
template <typename T>
struct IsSameType<T, T> : TrueType {};

// `type` is T1 when `condition` holds, else T2.
template <bool condition, typename T1, typename T2>
struct Conditional {
    using type = T1;
};
template <typename T1, typename T2>
struct Conditional<false, T1, T2> {
    using type = T2;
};

// Two conditions choosing among four types: (c1, c2) = (1, 1) T1, (1, 0) T2, (0, 1) T3, (0, 0) T4.
template <bool condition1, bool condition2, typename T1, typename T2, typename T3, typename T4>
struct ConditionalMulti {
    using type = typename Conditional<condition1, typename Conditional<condition2, T1, T2>::type,
                                      typename Conditional<condition2, T3, T4>::type>::type;
};

// True when T is one of the listed types.
template <typename T, typename... Ts>
constexpr bool SupportType() {
    return (std::is_same<T, Ts>::value || ...);
}

}  // namespace AscendC
