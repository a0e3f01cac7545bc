// Element types, positions, pipes, events and the keywords kernels are written with.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <type_traits>

#include <cstring>

#include "abi.h"

// Address-space and execution-space qualifiers: plain host C++ here.
#define __aicore__
#define __global__
// The workspace parameter of a mixed kernel whose vector cores call Matmul.
#define __kfc_workspace__
#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __vector__
#define __cube__
#define __mix__(cube, vec)
#define GM_ADDR __gm__ uint8_t*

namespace AscendC {
namespace detail {

// `v` rounded to nearest even into a 16-bit float with `manBits` mantissa bits (1 sign, 15 -
// manBits exponent bits; 10 for half, 7 for bfloat16), NaN as the quiet NaN. Usable in constant
// expressions (`constexpr half x = 1.0;`); at run time the simulator's conversion is used.
template <int manBits>
constexpr uint16_t DoubleToF16Bits(double v) {
    constexpr int expBits = 15 - manBits;
    constexpr int bias = (1 << (expBits - 1)) - 1;
    constexpr uint16_t inf = uint16_t(((1 << expBits) - 1) << manBits);
    const uint16_t sign = __builtin_signbit(v) ? 0x8000 : 0;
    if (v != v) {
        return uint16_t(inf | (1 << (manBits - 1)));
    }
    double a = sign ? -v : v;
    // The smallest normal, 2^(1 - bias), and the scale that makes subnormals integers.
    double minNormal = 1.0;
    for (int i = 0; i < bias - 1; i++) {
        minNormal /= 2;
    }
    uint32_t exp = 0;
    double q = a;
    if (a < minNormal) {
        for (int i = 0; i < bias - 1 + manBits; i++) {
            q *= 2;
        }
    } else {
        exp = 1;
        double scale = minNormal;
        while (exp < uint32_t((1 << expBits) - 1) && a >= scale * 2) {
            scale *= 2;
            exp++;
        }
        if (exp == uint32_t((1 << expBits) - 1)) {
            return uint16_t(sign | inf);
        }
        q = a / scale;
        for (int i = 0; i < manBits; i++) {
            q *= 2;
        }
        q -= double(1 << manBits);
    }
    uint32_t whole = uint32_t(q);
    double frac = q - double(whole);
    uint32_t bits = (exp << manBits) + whole;
    if (frac > 0.5 || (frac == 0.5 && (whole & 1) != 0)) {
        bits++;  // a carry out of the mantissa moves to the next exponent (or to infinity)
    }
    return uint16_t(sign | bits);
}

// A 16-bit float held as bits; arithmetic happens in float, conversions round to nearest even.
template <uint16_t (*FromDouble)(double), float (*ToFloat)(uint16_t), int manBits>
struct Float16Bits {
    uint16_t bits;

    Float16Bits() = default;
    template <typename U, typename = std::enable_if_t<std::is_arithmetic<U>::value>>
    constexpr Float16Bits(U v)
        : bits(__builtin_is_constant_evaluated() ? DoubleToF16Bits<manBits>(static_cast<double>(v))
                                                 : FromDouble(static_cast<double>(v))) {}
    operator float() const { return ToFloat(bits); }

    Float16Bits& operator+=(float v) { return *this = float(*this) + v; }
    Float16Bits& operator-=(float v) { return *this = float(*this) - v; }
    Float16Bits& operator*=(float v) { return *this = float(*this) * v; }
    Float16Bits& operator/=(float v) { return *this = float(*this) / v; }
    Float16Bits operator-() const { return -float(*this); }
};

// Stops the running block after a failed call (caught by the launch trampoline).
struct BlockAbort {};

inline thread_local bool inKernel = false;

// Turns a C ABI status into control flow: inside a kernel the block stops; outside one the
// process reports the error and exits.
inline void Check(int32_t status) {
    if (status == 0) {
        return;
    }
    if (inKernel) {
        throw BlockAbort{};
    }
    ascendc_print_last_error();
    std::exit(1);
}

}  // namespace detail
}  // namespace AscendC

using half = AscendC::detail::Float16Bits<ascendc_f64_to_f16, ascendc_f16_to_f32, 10>;
using bfloat16_t = AscendC::detail::Float16Bits<ascendc_f64_to_bf16, ascendc_bf16_to_f32, 7>;
static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2, "16-bit float layout");

namespace AscendC {

// int4b_t: a signed 4-bit integer, [-8, 7]. A tensor holds two to a byte, the element with the
// even index in the low nibble (sizes and offsets of int4b_t tensors count elements); a value on
// its own keeps its nibble in the low four bits of `storage`.
struct int4b_t {
    static constexpr int kBits = 4;
    static constexpr bool kSigned = true;
    uint8_t storage;

    int4b_t() = default;
    // The low four bits of `value` (9 becomes -7).
    constexpr int4b_t(int32_t value) : storage(static_cast<uint8_t>(value & 0xF)) {}
    constexpr int4b_t(uint32_t value) : storage(static_cast<uint8_t>(value & 0xF)) {}
    // The value, sign-extended.
    constexpr operator int8_t() const { return static_cast<int8_t>(static_cast<int8_t>(storage << 4) >> 4); }

    constexpr bool operator==(const int4b_t& rhs) const { return (storage & 0xF) == (rhs.storage & 0xF); }
    constexpr bool operator!=(const int4b_t& rhs) const { return !(*this == rhs); }
    constexpr bool operator<(const int4b_t& rhs) const { return int8_t(*this) < int8_t(rhs); }
    constexpr bool operator>(const int4b_t& rhs) const { return rhs < *this; }
    constexpr bool operator<=(const int4b_t& rhs) const { return !(rhs < *this); }
    constexpr bool operator>=(const int4b_t& rhs) const { return !(*this < rhs); }
};
static_assert(sizeof(int4b_t) == 1, "int4b_t is one byte of storage");

namespace detail {

// Bytes that `n` elements of T occupy, and the elements `bytes` bytes hold (two int4b_t to a byte).
template <typename T>
constexpr uint64_t BytesOf(uint64_t n) {
    return std::is_same<T, int4b_t>::value ? n / 2 : n * sizeof(T);
}
template <typename T>
constexpr uint64_t ElementsIn(uint64_t bytes) {
    return std::is_same<T, int4b_t>::value ? bytes * 2 : bytes / sizeof(T);
}

}  // namespace detail
}  // namespace AscendC

// Pipes, in the simulator's order.
enum pipe_t : uint8_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX, PIPE_ALL };

// CPU-debug kernel modes (SetKernelMode).
enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1 };

namespace AscendC {

enum class TPosition : uint8_t {
    GM = 0,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM = VECCALC,
    SPM,
    SHM = SPM,
    TSCM,
    C2PIPE2GM,
    C2PIPE2LOCAL,
    MAX,
};
using QuePosition = TPosition;

enum class HardEvent : uint8_t {
    MTE2_MTE1 = 0, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V,
    MTE3_MTE1, MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3,
    S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3,
    MTE1_FIX, FIX_MTE1, FIX_FIX,
};

constexpr int32_t ONE_BLK_SIZE = 32;
// Bytes of one C0 group (a 32-byte block).
constexpr int32_t DEFAULT_C0_SIZE = 32;
// Rows (and columns) of a cube fractal.
constexpr int32_t BLOCK_CUBE = 16;
constexpr int32_t DEFAULT_BLK_NUM = 8;
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint64_t MASK_PLACEHOLDER = 0;

namespace detail {

// The simulator's element-type index of T (DType order).
template <typename T> struct DTypeOf;
#define ASCENDC_DTYPE(type, index) \
    template <> struct DTypeOf<type> { static constexpr uint8_t value = index; };
ASCENDC_DTYPE(int8_t, 0)
ASCENDC_DTYPE(uint8_t, 1)
ASCENDC_DTYPE(int16_t, 2)
ASCENDC_DTYPE(uint16_t, 3)
ASCENDC_DTYPE(int32_t, 4)
ASCENDC_DTYPE(uint32_t, 5)
ASCENDC_DTYPE(int64_t, 6)
ASCENDC_DTYPE(uint64_t, 7)
ASCENDC_DTYPE(half, 8)
ASCENDC_DTYPE(bfloat16_t, 9)
ASCENDC_DTYPE(float, 10)
ASCENDC_DTYPE(double, 11)
ASCENDC_DTYPE(int4b_t, 12)
// bool tensors are byte tensors (0 or 1 per element), as on the device.
ASCENDC_DTYPE(bool, 1)
#undef ASCENDC_DTYPE

template <typename T> constexpr uint8_t dtype = DTypeOf<T>::value;

}  // namespace detail
}  // namespace AscendC
