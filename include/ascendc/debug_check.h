// Exception detection and time stamps: ascendc_assert / assert, Trap, CheckLocalMemoryIA,
// PrintTimeStamp (printed only with -DASCENDC_TIME_STAMP_ON), MetricsProfStart /
// MetricsProfStop. A failed assert prints `[ASSERT] <file>:<line>: Assertion `<expr>' <message>`
// and stops the block: the launch fails with an error naming the block and the line.
// ASCENDC_DUMP=0 turns ascendc_assert and assert off; NDEBUG turns assert off. A <cassert>
// included after this header restores the standard one-argument assert; a failed one still
// fails only its block (the C library's __assert_fail is replaced).
#pragma once

#include <cassert>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>

#include "print.h"
#include "types.h"

extern "C" {
int32_t ascendc_assert_check(uint8_t api, uint8_t holds, const char* expr, const char* message,
                             void (*sink)(const char*), AscLoc loc);
int32_t ascendc_trap(AscLoc loc);
int32_t ascendc_check_local_memory_ia(uint8_t enableBit, uint32_t startAddr, uint32_t endAddr, uint8_t kinds,
                                      uint8_t isEnable, AscLoc loc);
int32_t ascendc_print_time_stamp(uint32_t descId, void (*sink)(const char*), AscLoc loc);
int32_t ascendc_metrics_prof(uint8_t stop, AscLoc loc);
}

namespace AscendC {
namespace detail {

inline void StdoutSink(const char* text) { std::fputs(text, stdout); }

// ascendc_assert (api 0) / assert (api 1). In host code (outside a kernel) a false condition
// behaves as the standard assert.
template <typename... Args>
void AssertCheck(uint8_t api, bool holds, const char* expr, Loc loc, const char* fmt = "", Args... args) {
    if (!inKernel) {
        if (!holds) {
            std::fprintf(stderr, "%s:%u: Assertion `%s' failed.\n", loc.file, loc.line, expr);
            std::abort();
        }
        return;
    }
    char message[1024] = "";
    if (!holds) {
        if constexpr (sizeof...(Args) == 0) {
            std::snprintf(message, sizeof(message), "%s", fmt);
        } else {
            std::snprintf(message, sizeof(message), fmt, PrintArg(args)...);
        }
    }
    Check(ascendc_assert_check(api, holds ? 1 : 0, expr, message, &StdoutSink, loc));
}

// Where a failed standard `assert` in the running block returns to (the launch trampoline's
// frame); null outside a kernel.
inline thread_local std::jmp_buf* blockEscape = nullptr;

// A failed standard `assert` (one a later `#include <cassert>` restored): inside a kernel it
// prints `[ASSERT] …` and fails the block like AscendC's assert; in host code it aborts as the C
// library's does.
[[noreturn]] inline void StandardAssertFailed(const char* expr, const char* file, unsigned int line,
                                              const char* function) noexcept {
    if (inKernel && blockEscape != nullptr) {
        ascendc_assert_check(1, 0, expr, "", &StdoutSink, Loc(file, line, 0));
        std::longjmp(*blockEscape, 1);
    }
    std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, expr);
    std::abort();
}

}  // namespace detail

// Stops the AI core: the block fails (310P, A2, A3).
inline void Trap(detail::Loc loc = detail::Loc()) { detail::Check(ascendc_trap(loc)); }

// One UB access-check register (startAddr / endAddr in 32-byte units; the range is
// (startAddr, endAddr]).
struct CheckLocalMemoryIAParam {
    uint8_t enableBit = 0;
    uint32_t startAddr = 0;
    uint32_t endAddr = 0;
    bool isScalarRead = false;
    bool isScalarWrite = false;
    bool isVectorRead = false;
    bool isVectorWrite = false;
    bool isMteRead = false;
    bool isMteWrite = false;
    bool isEnable = false;
    uint32_t reserved = 0;
};

// Enables (isEnable) or resets register enableBit: a selected UB access into the range then
// fails the instruction's API call with an AI Core exception.
inline void CheckLocalMemoryIA(const CheckLocalMemoryIAParam& checkParams, detail::Loc loc = detail::Loc()) {
    const CheckLocalMemoryIAParam& p = checkParams;
    uint8_t kinds = (p.isScalarRead ? 1 : 0) | (p.isScalarWrite ? 2 : 0) | (p.isVectorRead ? 4 : 0) |
                    (p.isVectorWrite ? 8 : 0) | (p.isMteRead ? 16 : 0) | (p.isMteWrite ? 32 : 0);
    detail::Check(
        ascendc_check_local_memory_ia(p.enableBit, p.startAddr, p.endAddr, kinds, p.isEnable ? 1 : 0, loc));
}

// Prints `descId is …, rsv is 0, timeStamp is …, pcPtr is …, entry is ….` when the kernel is
// built with -DASCENDC_TIME_STAMP_ON (A2, A3, 310B); otherwise does nothing.
inline void PrintTimeStamp(uint32_t descId, detail::Loc loc = detail::Loc()) {
#ifdef ASCENDC_TIME_STAMP_ON
    detail::Check(ascendc_print_time_stamp(descId, &detail::StdoutSink, loc));
#else
    (void)descId;
    (void)loc;
#endif
}

// The start and end of the code range the profiler measures (A2/A3).
inline void MetricsProfStart(detail::Loc loc = detail::Loc()) { detail::Check(ascendc_metrics_prof(0, loc)); }
inline void MetricsProfStop(detail::Loc loc = detail::Loc()) { detail::Check(ascendc_metrics_prof(1, loc)); }

}  // namespace AscendC

#if defined(__GLIBC__)
// The C library's assert reports through __assert_fail; this definition (weak: one per program
// whatever the number of sources including it) takes its place, so a kernel that restores the
// standard assert fails its block instead of aborting the process.
extern "C" __attribute__((weak, noreturn)) void __assert_fail(const char* expr, const char* file,
                                                              unsigned int line, const char* function) noexcept {
    ::AscendC::detail::StandardAssertFailed(expr, file, line, function);
}
#endif

#undef assert
#if (defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0) || defined(NDEBUG)
#define assert(...) ((void)0)
#else
// assert(expr) / assert(expr, "format", args...)
#define assert(expr, ...)                                                                               \
    ::AscendC::detail::AssertCheck(1, static_cast<bool>(expr), #expr,                                   \
                                   ::AscendC::detail::Loc(__FILE__, __LINE__, 0), ##__VA_ARGS__)
#endif
#if defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0
#define ascendc_assert(...) ((void)0)
#else
// ascendc_assert(expr) / ascendc_assert(expr, "format", args...)
#define ascendc_assert(expr, ...)                                                                       \
    ::AscendC::detail::AssertCheck(0, static_cast<bool>(expr), #expr,                                   \
                                   ::AscendC::detail::Loc(__FILE__, __LINE__, 0), ##__VA_ARGS__)
#endif
