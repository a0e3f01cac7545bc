// Execution-space qualifiers of __global__ kernels, recorded for <<<>>> launches. `ascendc run` and
// `ascendc cxx` start the body of each kernel defined `__mix__(cube, vec)`, `__cube__` (1, 0) or
// `__vector__` (0, 1) with `(void)KernelEntry<type, &kernel, cube, vec>::registered;`, which
// records the kernel's address and core ratio before main runs; a launch looks its callee up by
// address, so the ratio holds however the kernel is named there (a function pointer, a constexpr
// variable, a macro argument). This header is light (no kernel API) so that it can be included
// before a source's own first line.
#pragma once

#include <cstdint>

namespace AscendC {
namespace detail {

// A recorded kernel: its address and its cube and vector cores per block.
struct KernelSpace {
    const void* entry;
    int32_t cube;
    int32_t vec;
    const KernelSpace* next;
};

// The recorded kernels, most recent first.
inline const KernelSpace*& KernelSpaces() {
    static const KernelSpace* head = nullptr;
    return head;
}

inline bool RecordKernelSpace(const void* entry, int32_t cube, int32_t vec) {
    KernelSpaces() = new KernelSpace{entry, cube, vec, KernelSpaces()};
    return true;
}

// The record of `entry`, or null for a kernel without a qualifier (or not compiled by ascendc).
inline const KernelSpace* FindKernelSpace(const void* entry) {
    for (const KernelSpace* s = KernelSpaces(); s != nullptr; s = s->next) {
        if (s->entry == entry) {
            return s;
        }
    }
    return nullptr;
}

template <typename F, F entry, int32_t cube, int32_t vec>
struct KernelEntry {
    static_assert((cube == 1 && vec == 0) || (cube == 0 && vec == 1) || (cube == 1 && vec == 1) ||
                      (cube == 1 && vec == 2),
                  "__mix__(cube, vec): the supported ratios of cube to vector cores are (1, 0), (0, 1), "
                  "(1, 1) and (1, 2)");
    static const bool registered;
};

template <typename F, F entry, int32_t cube, int32_t vec>
const bool KernelEntry<F, entry, cube, vec>::registered =
    RecordKernelSpace(reinterpret_cast<const void*>(entry), cube, vec);

// A kernel without a qualifier: recorded as a 1:2 mixed kernel when `mix` is 1 (the value of
// ASCENDC_KERNEL_DEFAULT_MIX where the kernel is defined: lib/matmul_intf.h without
// ASCENDC_CUBE_ONLY sets it, as the Matmul's AIC/AIV message passing makes the device compiler
// build a mixed kernel), left to the launch otherwise.
template <typename F, F entry, int32_t mix>
struct UnqualifiedKernelEntry {
    static const bool registered;
};

template <typename F, F entry, int32_t mix>
const bool UnqualifiedKernelEntry<F, entry, mix>::registered =
    mix == 1 ? RecordKernelSpace(reinterpret_cast<const void*>(entry), 1, 2) : false;

// A kernel declared in the branches of an `#if` with different qualifiers: each branch
// declares `ascendc_kq_<name>(KernelQual<cube, vec>)` (-1, -1: no qualifier), and the body records
// the one the preprocessor kept.
template <int32_t cube, int32_t vec>
struct KernelQual {};

template <int32_t cube, int32_t vec>
KernelQual<cube, vec> QualOf(void (*)(KernelQual<cube, vec>));

template <typename F, F entry, typename Q, int32_t mix>
struct BranchKernelEntry;

template <typename F, F entry, int32_t cube, int32_t vec, int32_t mix>
struct BranchKernelEntry<F, entry, KernelQual<cube, vec>, mix> {
    static const bool registered;
};

template <typename F, F entry, int32_t cube, int32_t vec, int32_t mix>
const bool BranchKernelEntry<F, entry, KernelQual<cube, vec>, mix>::registered =
    cube >= 0 ? RecordKernelSpace(reinterpret_cast<const void*>(entry), cube, vec)
              : (mix == 1 ? RecordKernelSpace(reinterpret_cast<const void*>(entry), 1, 2) : false);

}  // namespace detail
}  // namespace AscendC

#ifndef ASCENDC_KERNEL_DEFAULT_MIX
#define ASCENDC_KERNEL_DEFAULT_MIX 0
#endif
