// Ops::Base::bfloat16: a bfloat16 value as host code reads one from raw bits, converted to and
// from float (round-to-nearest-even).
#pragma once

#include <cstdint>
#include <cstring>

namespace Ops {
namespace Base {

struct bfloat16 {
    uint16_t value = 0;

    bfloat16() = default;
    bfloat16(float f) {
        uint32_t x;
        std::memcpy(&x, &f, 4);
        if ((x & 0x7FFFFFFFu) > 0x7F800000u) {
            value = static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
        } else {
            value = static_cast<uint16_t>((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
        }
    }
    operator float() const {
        uint32_t x = static_cast<uint32_t>(value) << 16;
        float f;
        std::memcpy(&f, &x, 4);
        return f;
    }
};

}  // namespace Base
}  // namespace Ops
