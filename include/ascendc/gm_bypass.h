// WriteGmByPassDCache / ReadGmByPassDCache: one scalar GM access that bypasses the data cache
// (GM is coherent in the simulator). T: int8_t ... uint64_t. A2/A3.
#pragma once

#include <cstring>

#include "types.h"

extern "C" int32_t ascendc_gm_bypass(uint8_t write, uint8_t elem, const void* addr, uint64_t* value, AscLoc loc);

namespace AscendC {

template <typename T>
void WriteGmByPassDCache(__gm__ T* addr, T value, detail::Loc loc = detail::Loc()) {
    static_assert(sizeof(T) <= 8, "WriteGmByPassDCache takes 8- to 64-bit integers");
    uint64_t v = 0;
    std::memcpy(&v, &value, sizeof(T));
    detail::Check(ascendc_gm_bypass(1, detail::dtype<T>, addr, &v, loc));
}

template <typename T>
T ReadGmByPassDCache(__gm__ T* addr, detail::Loc loc = detail::Loc()) {
    static_assert(sizeof(T) <= 8, "ReadGmByPassDCache takes 8- to 64-bit integers");
    uint64_t v = 0;
    detail::Check(ascendc_gm_bypass(0, detail::dtype<T>, addr, &v, loc));
    T out;
    std::memcpy(&out, &v, sizeof(T));
    return out;
}

}  // namespace AscendC
