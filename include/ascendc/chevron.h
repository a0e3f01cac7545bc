// The `<<<blockDim, l2ctrl, stream>>>` launch: `ascendc run` and `ascendc cxx` rewrite
// `kernel<<<cfg>>>(args)` into `::AscendC::detail::Chevron(loc, "kernel", "args", kernel, cfg)(args)`,
// which runs like ICPU_RUN_KF: `blockDim` blocks on simulated cores, synchronously
// (aclrtSynchronizeStream has nothing left to wait for; a launch on a stream being captured into
// an aclmdlRI is recorded and runs when the instance is executed); a failed launch prints its
// errors and ends the process with exit status 1. The kernel runs in the mode of its
// execution-space qualifier (kernel_entry.h), else in the one SetKernelMode chose.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../tikicpulib.h"
#include "kernel_entry.h"

namespace AscendC {
namespace detail {

// A launch's callee that no __global__ declaration in the sources names: accepted when it is a
// variable (a pointer to a kernel), refused when it is a function.
template <typename Declared, typename K>
K&& UndeclaredCallee(K&& kernel) {
    static_assert(!std::is_function<Declared>::value,
                  "<<<>>> launch: the callee is a function that no __global__ declaration in the sources "
                  "(or the headers they include with #include \"...\") declares");
    return std::forward<K>(kernel);
}

// True when `void*` (or `const void*`) `A` is passed to a pointer parameter `P`: the vendor's
// launch accepts untyped device pointers for `GM_ADDR` and typed `__gm__` parameters.
template <typename A, typename P, typename = void>
struct UntypedPointer : std::false_type {};
template <typename A, typename P>
struct UntypedPointer<A, P, std::void_t<decltype(static_cast<P>(std::declval<A>()))>>
    : std::integral_constant<bool, std::is_pointer<P>::value &&
                                       std::is_void<std::remove_pointer_t<std::decay_t<A>>>::value> {};

template <typename A, typename P>
using Passes = std::integral_constant<bool, std::is_convertible<A, P>::value || UntypedPointer<A, P>::value>;

template <typename P, typename A>
P AsParam(A&& a) {
    if constexpr (UntypedPointer<A, P>::value) {
        return static_cast<P>(a);
    } else {
        return std::forward<A>(a);
    }
}

// The SetKernelMode value of a (cube, vec) ratio (KernelMode order), 255 without a qualifier.
inline uint8_t QualifiedMode(const void* kernel) {
    const KernelSpace* s = FindKernelSpace(kernel);
    if (s == nullptr) {
        return 255;
    }
    if (s->cube == 1 && s->vec == 0) {
        return static_cast<uint8_t>(KernelMode::AIC_MODE);
    }
    if (s->cube == 0 && s->vec == 1) {
        return static_cast<uint8_t>(KernelMode::AIV_MODE);
    }
    return static_cast<uint8_t>(s->vec == 1 ? KernelMode::MIX_AIC_1_1 : KernelMode::MIX_MODE);
}

// A kernel with its launch configuration, waiting for its arguments.
template <typename... P>
struct ChevronLaunch {
    Loc loc;
    const char* name;
    const char* args;
    void (*kernel)(P...);
    uint32_t blockDim;
    void* stream;

    // A launch captured into an aclmdlRI: the configuration and copies of the arguments.
    struct Deferred {
        ChevronLaunch launch;
        uint8_t mode;
        std::tuple<std::decay_t<P>...> params;
    };

    static int32_t RunDeferred(void* ctx) {
        const Deferred* d = static_cast<const Deferred*>(ctx);
        std::apply(
            [d](const auto&... a) {
                LaunchKernel<P...>(d->launch.loc, d->launch.name, d->launch.args, d->launch.blockDim, d->mode,
                                   d->launch.kernel, a...);
            },
            d->params);
        return 0;
    }

    static void FreeDeferred(void* ctx) { delete static_cast<Deferred*>(ctx); }

    template <typename... A>
    void operator()(A&&... a) const {
        if constexpr (sizeof...(A) != sizeof...(P)) {
            static_assert(sizeof...(A) == sizeof...(P),
                          "<<<>>> launch: the kernel cannot be called with these arguments (their number "
                          "differs from its parameters')");
        } else if constexpr (!(Passes<A, P>::value && ...)) {
            static_assert((Passes<A, P>::value && ...),
                          "<<<>>> launch: the kernel cannot be called with these arguments (one does not "
                          "convert to its parameter's type; void* converts to any pointer parameter)");
        } else {
            Run(AsParam<P>(std::forward<A>(a))...);
        }
    }

    // Launches now, or records the launch when the stream is being captured (acl_mdl.h).
    void Run(P... p) const {
        uint8_t mode = QualifiedMode(reinterpret_cast<const void*>(kernel));
        if (stream != nullptr && ascendc_stream_capturing(stream)) {
            Deferred* d = new Deferred{*this, mode, std::tuple<std::decay_t<P>...>(p...)};
            if (ascendc_capture_launch(stream, name, blockDim, &RunDeferred, &FreeDeferred, d) == 0) {
                return;
            }
        }
        LaunchKernel<P...>(loc, name, args, blockDim, mode, kernel, p...);
    }
};

// The stream of a launch configuration as a handle (null when it is not a pointer).
template <typename S>
void* StreamHandle(S&& stream) {
    if constexpr (std::is_convertible<S, void*>::value) {
        return static_cast<void*>(stream);
    } else {
        (void)stream;
        return nullptr;
    }
}

// `kernel<<<blockDim, l2ctrl, stream>>>`: l2ctrl is accepted and not used; the stream matters
// only while it is being captured into an aclmdlRI. `kernel` is a function returning void or a
// pointer to one; of an overload set (a kernel named `abs` beside the C library's), the one
// function returning void.
template <typename... P, typename L = std::nullptr_t, typename S = std::nullptr_t>
ChevronLaunch<P...> Chevron(Loc loc, const char* name, const char* args, void (*kernel)(P...), uint32_t blockDim,
                            L&& l2ctrl = nullptr, S&& stream = nullptr) {
    (void)l2ctrl;
    return ChevronLaunch<P...>{loc, name, args, kernel, blockDim, StreamHandle(std::forward<S>(stream))};
}

template <typename T>
struct IsKernelPointer : std::false_type {};
template <typename... P>
struct IsKernelPointer<void (*)(P...)> : std::true_type {};
template <typename... P>
struct IsKernelPointer<void (*)(P...) noexcept> : std::true_type {};

// Any other callee.
template <typename K, typename... C, std::enable_if_t<!IsKernelPointer<std::decay_t<K>>::value, int> = 0>
ChevronLaunch<> Chevron(Loc loc, const char* name, const char* args, K&&, C&&...) {
    static_assert(IsKernelPointer<std::decay_t<K>>::value,
                  "<<<>>> launch: the callee is not a kernel (a __global__ function returning void, or a "
                  "pointer to one)");
    return ChevronLaunch<>{loc, name, args, nullptr, 0, nullptr};
}

}  // namespace detail
}  // namespace AscendC
