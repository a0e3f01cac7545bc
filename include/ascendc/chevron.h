// The `<<<blockDim, l2ctrl, stream>>>` launch: `ascendc run` and `ascendc cxx` rewrite
// `kernel<<<cfg>>>(args)` into `::AscendC::detail::Chevron(loc, "kernel", "args", kernel, cfg)(args)`,
// which runs like ICPU_RUN_KF: `blockDim` blocks on simulated cores, synchronously (the stream is
// accepted; aclrtSynchronizeStream has nothing left to wait for); a failed launch prints its
// errors and ends the process with exit status 1.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "../tikicpulib.h"

namespace AscendC {
namespace detail {

// A kernel with its launch configuration, waiting for its arguments.
template <typename K>
struct ChevronLaunch {
    Loc loc;
    const char* name;
    const char* args;
    K kernel;
    uint32_t blockDim;

    template <typename... A>
    void operator()(A&&... a) const {
        if constexpr (std::is_invocable<const K&, A&&...>::value) {
            RunKernel(loc, name, args, blockDim, kernel, std::forward<A>(a)...);
        } else {
            static_assert(std::is_invocable<const K&, A&&...>::value,
                          "<<<>>> launch: the kernel cannot be called with these arguments (check their "
                          "number and types against the kernel's declaration)");
        }
    }
};

// `kernel<<<blockDim, l2ctrl, stream>>>`: l2ctrl and stream are accepted and not used.
template <typename K, typename L = std::nullptr_t, typename S = std::nullptr_t>
ChevronLaunch<K> Chevron(Loc loc, const char* name, const char* args, K kernel, uint32_t blockDim,
                         L&& l2ctrl = nullptr, S&& stream = nullptr) {
    static_assert(std::is_pointer<K>::value && std::is_function<std::remove_pointer_t<K>>::value,
                  "<<<>>> launch: the callee is not a kernel function");
    (void)l2ctrl;
    (void)stream;
    return ChevronLaunch<K>{loc, name, args, kernel, blockDim};
}

}  // namespace detail
}  // namespace AscendC
