// Ops::Base::fp16_t: an IEEE half-precision value as host code reads one from raw bits (an
// attribute or constant input), converted to and from float with round-to-nearest-even.
#pragma once

#include <cstdint>
#include <cstring>

namespace Ops {
namespace Base {

struct fp16_t {
    uint16_t val = 0;

    fp16_t() = default;
    fp16_t(float f) : val(FromFloat(f)) {}
    operator float() const { return ToFloat(val); }

    static uint16_t FromFloat(float f) {
        uint32_t x;
        std::memcpy(&x, &f, 4);
        uint32_t sign = (x >> 16) & 0x8000u;
        uint32_t absx = x & 0x7FFFFFFFu;
        if (absx > 0x7F800000u) return static_cast<uint16_t>(sign | 0x7E00u);  // NaN
        if (absx >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // rounds to inf
        if (absx < 0x38800000u) {  // subnormal or zero in half
            if (absx < 0x33000000u) return static_cast<uint16_t>(sign);
            uint32_t e = absx >> 23;
            uint32_t m = (absx & 0x7FFFFFu) | 0x800000u;
            uint32_t shift = 126 - e;  // to the 2^-24 grid
            uint32_t q = m >> shift;
            uint32_t rem = m & ((1u << shift) - 1);
            uint32_t half = 1u << (shift - 1);
            if (rem > half || (rem == half && (q & 1u))) ++q;
            return static_cast<uint16_t>(sign | q);
        }
        uint32_t q = (absx - 0x38000000u) >> 13;
        uint32_t rem = absx & 0x1FFFu;
        if (rem > 0x1000u || (rem == 0x1000u && (q & 1u))) ++q;
        return static_cast<uint16_t>(sign | q);
    }
    static float ToFloat(uint16_t h) {
        uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
        uint32_t e = (h >> 10) & 0x1Fu;
        uint32_t m = h & 0x3FFu;
        uint32_t x;
        if (e == 0x1Fu) {
            x = sign | 0x7F800000u | (m << 13);
        } else if (e != 0) {
            x = sign | ((e + 112) << 23) | (m << 13);
        } else if (m == 0) {
            x = sign;
        } else {
            int shift = 0;
            while ((m & 0x400u) == 0) {
                m <<= 1;
                ++shift;
            }
            x = sign | (static_cast<uint32_t>(113 - shift) << 23) | ((m & 0x3FFu) << 13);
        }
        float f;
        std::memcpy(&f, &x, 4);
        return f;
    }
};

}  // namespace Base
}  // namespace Ops
