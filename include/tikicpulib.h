// CPU-debug launch: GmAlloc / GmFree, SetKernelMode and ICPU_RUN_KF, with every block of the
// kernel running on its own simulated AI core.
#pragma once

#include <cstdio>
#include <cstring>
#include <exception>
#include <utility>

#include "kernel_operator.h"
#include "ascendc/kernel_entry.h"

namespace AscendC {

// A zero-filled GM allocation of `size` bytes; kernels receive pointers into it as GM_ADDR.
inline void* GmAlloc(size_t size) { return ascendc_gm_alloc(size); }

inline void GmFree(void* ptr, detail::Loc loc = detail::Loc()) { detail::Check(ascendc_gm_free(ptr, loc)); }

// The cores each block of the following launches uses (AIV_MODE when never called).
inline void SetKernelMode(KernelMode mode) { ascendc_set_kernel_mode(static_cast<uint8_t>(mode)); }

namespace detail {

// Runs the kernel of one block: 0 when it returns, 1 when a failed call or an escaping
// exception stopped it (the exception becomes the block's error).
template <typename F>
int32_t RunCaught(void* ctx) noexcept {
    try {
        (*static_cast<F*>(ctx))();
        return 0;
    } catch (const BlockAbort&) {
    } catch (const std::exception& e) {
        ascendc_block_error(e.what(), Loc("<kernel>", 0, 0));
    } catch (...) {
        ascendc_block_error("unknown exception", Loc("<kernel>", 0, 0));
    }
    return 1;
}

// Runs one block on the current simulated core. A failed C `assert` in the kernel (the
// standard one, which cannot throw) comes back here through `blockEscape` and fails the block.
template <typename F>
int32_t RunBlock(void* ctx) noexcept {
    inKernel = true;
    sub_block_idx = ascendc_get_sub_block_idx();
    block_idx = (ascendc_get_block_idx() - sub_block_idx) / ascendc_get_task_ratio();
    block_num = ascendc_get_block_num();
    std::jmp_buf* const outer = blockEscape;
    std::jmp_buf escape;
    int32_t status = 1;
    if (setjmp(escape) == 0) {
        blockEscape = &escape;
        status = RunCaught<F>(ctx);
    }
    blockEscape = outer;
    inKernel = false;
    return status;
}

// Checks one kernel argument: a pointer that is not GM (GmAlloc / aclrtMalloc) is accepted with
// one warning naming its position; accesses through it are not bounds-checked.
template <typename A>
void CheckArg(const A& arg, uint32_t index, const char* argText, Loc loc) {
    if constexpr (std::is_pointer<std::decay_t<A>>::value) {
        Check(ascendc_gm_check_arg(static_cast<const void*>(arg), index, argText, loc));
    }
}

template <typename T>
struct NoDeduce {
    using type = T;
};

// Launches `blockDim` blocks of `kernel(args...)` in kernel mode `mode` (a KernelMode value; 255:
// the one SetKernelMode chose) and returns when they are done; a failed launch prints the errors
// and ends the process with exit status 1. `argText` is the arguments' source text ("x, y,
// &tiling", or null), used to name an argument in warnings.
template <typename... P>
void LaunchKernel(Loc loc, const char* name, const char* argText, uint32_t blockDim, uint8_t mode,
                  void (*kernel)(P...), typename NoDeduce<P>::type... args) {
    uint32_t index = 0;
    (CheckArg(args, ++index, argText, loc), ...);
    auto body = [&]() { kernel(args...); };
    if (ascendc_launch_with_mode(name, mode, blockDim, &RunBlock<decltype(body)>, &body, loc) != 0) {
        std::fflush(stdout);
        std::exit(1);
    }
}

// Overload ranks: RunKernelAs(Rank<1>{}, …) prefers the Rank<1> form when both fit.
template <int N>
struct Rank : Rank<N - 1> {};
template <>
struct Rank<0> {};

// The launch mode of ICPU_RUN_KF: the one SetKernelMode chose, else the kernel's own (its
// qualifier, or a Matmul kernel's mixed type), else the default (0x80 marks the fallback).
inline uint8_t CpuLaunchMode(const void* kernel) {
    const KernelSpace* s = FindKernelSpace(kernel);
    if (s == nullptr) {
        return 255;
    }
    // KernelMode order: MIX_MODE, AIC_MODE, AIV_MODE, MIX_AIC_1_1.
    const uint8_t own = s->vec == 0 ? 1 : (s->cube == 0 ? 2 : (s->vec == 1 ? 3 : 0));
    return static_cast<uint8_t>(0x80 | own);
}

// ICPU_RUN_KF: a launch in the mode CpuLaunchMode picks. Of an overload set (a kernel named `abs`
// beside the C library's), `kernel` is the one function returning void.
template <typename... P, typename... A>
void RunKernelAs(Rank<1>, Loc loc, const char* name, const char* argText, uint32_t blockDim,
                 void (*kernel)(P...), A&&... args) {
    LaunchKernel<P...>(loc, name, argText, blockDim, CpuLaunchMode(reinterpret_cast<const void*>(kernel)), kernel,
                       std::forward<A>(args)...);
}

// An overload set with templates in it (a kernel named `sqrt` or `exp` beside <cmath>'s, whose
// function templates leave the parameter types undeducible): the kernel taking the arguments'
// own types.
template <typename... A>
void RunKernelAs(Rank<0>, Loc loc, const char* name, const char* argText, uint32_t blockDim,
                 void (*kernel)(typename std::decay<A>::type...), A&&... args) {
    LaunchKernel<typename std::decay<A>::type...>(loc, name, argText, blockDim,
                                                  CpuLaunchMode(reinterpret_cast<const void*>(kernel)), kernel,
                                                  std::forward<A>(args)...);
}


}  // namespace detail
}  // namespace AscendC

#define ICPU_RUN_KF(func, blockDim, ...)                                                                 \
    ::AscendC::detail::RunKernelAs(::AscendC::detail::Rank<1>{}, ::AscendC::detail::Loc(__FILE__, __LINE__, 0), \
                                   #func, #__VA_ARGS__, static_cast<uint32_t>(blockDim), func, ##__VA_ARGS__)
#define ICPU_SET_TILING_KEY(key) (::AscendC::detail::TilingKey() = (key))
