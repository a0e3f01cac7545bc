// printf from kernels: printed on the host as the block runs (half and bfloat16_t as double).
#pragma once

#include <cstdio>

#include "types.h"

namespace AscendC {
namespace detail {

template <typename T>
T PrintArg(T v) {
    return v;
}
inline double PrintArg(half v) { return float(v); }
inline double PrintArg(bfloat16_t v) { return float(v); }

}  // namespace detail

template <typename... Args>
void printf(const char* fmt, Args... args) {
    if constexpr (sizeof...(Args) == 0) {
        std::fputs(fmt, stdout);
    } else {
        std::printf(fmt, detail::PrintArg(args)...);
    }
}

}  // namespace AscendC

namespace AscendC {
// PRINTF: printf under its other name, qualified (`AscendC::PRINTF`) or not.
template <typename... Args>
void PRINTF(const char* fmt, Args... args) {
    printf(fmt, args...);
}
}  // namespace AscendC
using AscendC::PRINTF;
