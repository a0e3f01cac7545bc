// GM initialisation from the high-level API: Fill(gm, size, value) (A2, A3, 310P AI Core; uint16,
// int16, half, uint32, int32, float), its earlier name InitGlobalMemory, and the deprecated
// InitOutput (A2/A3; nothing elsewhere). The value is staged in the UB the kernel's TPipe has not
// given out and copied to GM on PIPE_MTE3.
#pragma once

#include "tpipe.h"

extern "C" {
int32_t ascendc_init_global_memory(uint8_t form, const void* pipe, uint8_t elem, const AscGlobal* gm, uint64_t size,
                                   const void* value, AscLoc loc);
}

namespace AscendC {

namespace detail {
template <typename T>
void InitGlobal(uint8_t form, const GlobalTensor<T>& gm, uint64_t size, T value, Loc loc) {
    const void* pipe = currentPipe != nullptr ? currentPipe->Handle() : nullptr;
    RawGlobal g = gm.Raw();
    Check(ascendc_init_global_memory(form, pipe, dtype<T>, &g, size, &value, loc));
}
}  // namespace detail

// Sets the first `size` elements of gmWorkspaceAddr to value.
template <typename T>
void Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value, detail::Loc loc = detail::Loc()) {
    detail::InitGlobal<T>(0, gmWorkspaceAddr, size, value, loc);
}

// The earlier name of Fill.
template <typename T>
void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value,
                      detail::Loc loc = detail::Loc()) {
    detail::InitGlobal<T>(1, gmWorkspaceAddr, size, value, loc);
}

// Deprecated for Fill.
template <typename T>
void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0, detail::Loc loc = detail::Loc()) {
    detail::InitGlobal<T>(2, gmWorkspaceAddr, size, value, loc);
}

}  // namespace AscendC
