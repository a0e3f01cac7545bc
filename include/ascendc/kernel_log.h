// Kernel-side logging and checks of the vendor headers: KERNEL_LOG(level, fmt, ...) with the
// levels KERNEL_DEBUG / KERNEL_INFO / KERNEL_WARN / KERNEL_ERROR, and ASCENDC_ASSERT(cond,
// behaviour). Both are active in the CPU-debug branch (ASCENDC_CPU_DEBUG) and compile to nothing
// in the device branch, as in the vendor's device build.
#pragma once

#include <cstdio>

#include "compat.h"
#include "print.h"

// Log levels of KERNEL_LOG.
enum KernelLogLevel : int32_t {
    KERNEL_DEBUG = 0,
    KERNEL_INFO = 1,
    KERNEL_WARN = 2,
    KERNEL_ERROR = 3,
};

namespace AscendC {
namespace detail {

inline const char* KernelLogLevelName(int32_t level) {
    switch (level) {
        case KERNEL_DEBUG:
            return "DEBUG";
        case KERNEL_INFO:
            return "INFO";
        case KERNEL_WARN:
            return "WARN";
        default:
            return "ERROR";
    }
}

// One log line on stderr: `[LEVEL] file:line [block N] message`.
template <typename... Args>
void KernelLog(int32_t level, const char* file, int line, const char* fmt, Args... args) {
    char message[1024];
    if constexpr (sizeof...(Args) == 0) {
        std::snprintf(message, sizeof(message), "%s", fmt);
    } else {
        std::snprintf(message, sizeof(message), fmt, PrintArg(args)...);
    }
    std::fprintf(stderr, "[%s] %s:%d [block %lld] %s\n", KernelLogLevelName(level), file, line,
                 static_cast<long long>(GetBlockIdx()), message);
}

}  // namespace detail
}  // namespace AscendC

#ifdef ASCENDC_CPU_DEBUG
#define KERNEL_LOG(level, fmt, ...) ::AscendC::detail::KernelLog(level, __FILE__, __LINE__, fmt, ##__VA_ARGS__)
// A false condition runs `behaviour` (a block such as `{ KERNEL_LOG(KERNEL_ERROR, "…"); }`, or a
// message string) and stops the block with an error naming the condition and this line.
#define ASCENDC_ASSERT(cond, ...)                                                               \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            __VA_ARGS__;                                                                        \
            ::AscendC::detail::AssertFail(#cond, ::AscendC::detail::Loc(__FILE__, __LINE__, 0)); \
        }                                                                                       \
    } while (0)
#else
#define KERNEL_LOG(level, fmt, ...) ((void)0)
#define ASCENDC_ASSERT(cond, ...) ((void)0)
#endif
