// The kernel entries of a program compiled by aclrtcCompileProg. The runtime compiler appends, after
// the program's source, one RtcEntry per kernel aclrtBinaryGetFunction can find (each name
// expression, each non-template __global__ definition) and the null-terminated table
// `ascendc_rtc_entries`, which the simulator (crate ascendc-ffi, module acl_kernel) reads when
// aclrtBinaryLoadFromData loads the program. An entry launches its kernel like a <<<>>> launch,
// with the parameters taken from an array of pointers to their values.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "chevron.h"

namespace AscendC {
namespace detail {

// One kernel of a compiled program, as the simulator reads it (C layout).
struct RtcEntry {
    // The name expression, or the qualified name of a non-template kernel.
    const char* name;
    // The lowered name of a name expression (what aclrtcGetLoweredName returned), else null.
    const char* lowered;
    // Number of parameters, and each one's size and alignment in bytes.
    uint32_t argc;
    const uint32_t* sizes;
    const uint32_t* aligns;
    // Runs `blockDim` blocks of the kernel with parameter i read from `args[i]`; 0 when every
    // block succeeded (the launch has printed the errors otherwise).
    int32_t (*launch)(const char* name, uint32_t blockDim, void* const* args, Loc loc);
};

template <typename T>
struct RtcNotAKernel : std::false_type {};

template <auto Kernel>
struct RtcKernel {
    static_assert(RtcNotAKernel<decltype(Kernel)>::value,
                  "aclrtcAddNameExpr: the name expression does not name a __global__ function returning void "
                  "(a template needs all its template arguments, e.g. add_custom<float>)");
};

template <typename... P, void (*Kernel)(P...)>
struct RtcKernel<Kernel> {
    static constexpr uint32_t sizes[sizeof...(P) + 1] = {static_cast<uint32_t>(sizeof(P))..., 0};
    static constexpr uint32_t aligns[sizeof...(P) + 1] = {
        static_cast<uint32_t>(alignof(std::remove_reference_t<P>))..., 0};

    template <std::size_t... I>
    static int32_t Run(const char* name, uint32_t blockDim, void* const* args, Loc loc, std::index_sequence<I...>) {
        uint32_t index = 0;
        (void)index;
        (void)args;
        (CheckArg(*static_cast<std::remove_reference_t<P>*>(args[I]), ++index, nullptr, loc), ...);
        auto body = [&]() { Kernel(*static_cast<std::remove_reference_t<P>*>(args[I])...); };
        return ascendc_launch_with_mode(name, QualifiedMode(reinterpret_cast<const void*>(Kernel)), blockDim,
                                        &RunBlock<decltype(body)>, &body, loc);
    }

    static int32_t Launch(const char* name, uint32_t blockDim, void* const* args, Loc loc) {
        return Run(name, blockDim, args, loc, std::index_sequence_for<P...>{});
    }

    static constexpr RtcEntry Entry(const char* name, const char* lowered) {
        return RtcEntry{name, lowered, static_cast<uint32_t>(sizeof...(P)), sizes, aligns, &Launch};
    }
};

}  // namespace detail
}  // namespace AscendC
