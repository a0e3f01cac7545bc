// AscendC::ReducePattern: the reduction patterns host helpers and kernel configs (NormalizeConfig)
// name. Self-contained, so kernel headers reach it without the host headers.
#pragma once

#include <cstdint>

namespace AscendC {
// A reduction's axes, outermost first: A kept, R reduced.
enum class ReducePattern : uint32_t {
    AR = 0,
    RA = 1,
    R,
    ARA,
    ARAR,
    ARARA,
    ARARAR,
    ARARARA,
    ARARARAR,
    ARARARARA,
    RAR,
    RARA,
    RARAR,
    RARARA,
    RARARAR,
    RARARARA,
};
}  // namespace AscendC
