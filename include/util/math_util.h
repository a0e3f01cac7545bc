// Integer helpers of the operator libraries' base layer (Ops::Base): division and alignment.
// Each returns the type of its first argument; a zero divisor or alignment gives 0.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace Ops {
namespace Base {

// ceil(a / b) for non-negative a and positive b.
template <typename T, typename U>
constexpr T CeilDiv(T a, U b) {
    if (b == 0) {
        return 0;
    }
    return static_cast<T>((a + static_cast<T>(b) - 1) / static_cast<T>(b));
}

// floor(a / b) for non-negative a and positive b.
template <typename T, typename U>
constexpr T FloorDiv(T a, U b) {
    if (b == 0) {
        return 0;
    }
    return static_cast<T>(a / static_cast<T>(b));
}

// a rounded up to a multiple of b.
template <typename T, typename U>
constexpr T CeilAlign(T a, U b) {
    return static_cast<T>(CeilDiv(a, b) * static_cast<T>(b));
}

// a rounded down to a multiple of b.
template <typename T, typename U>
constexpr T FloorAlign(T a, U b) {
    return static_cast<T>(FloorDiv(a, b) * static_cast<T>(b));
}

// The remainder of the last of ceil(a / b) pieces of b: b when a is a multiple of b.
template <typename T, typename U>
constexpr T GetTail(T a, U b) {
    if (b == 0 || a == 0) {
        return 0;
    }
    return static_cast<T>((a - 1) % static_cast<T>(b) + 1);
}

// |a - b| within the float epsilon.
inline bool IsFloatEqual(float a, float b) { return std::fabs(a - b) <= std::numeric_limits<float>::epsilon(); }
inline bool IsFloatEqual(double a, double b) { return std::fabs(a - b) <= std::numeric_limits<double>::epsilon(); }

}  // namespace Base
}  // namespace Ops
