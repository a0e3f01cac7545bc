// Small kernel-side helpers and legacy spellings: float16_t / float32_t, likely / unlikely,
// ASSERT, event_t, DivCeil / CeilDivision, AscendC::Std, GetSystemCycle, InitSocState,
// ASCEND_IS_AIV / ASCEND_IS_AIC, KERNEL_TASK_TYPE, ParamOffset and the 2023 namespace tik2.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <type_traits>
#include <utility>

#include "sync.h"
#include "tiling.h"
#include "tpipe.h"

extern "C" {
int32_t ascendc_get_system_cycle(int64_t* out, AscLoc loc);
int32_t ascendc_init_soc_state(AscLoc loc);
uint8_t ascendc_core_is(uint8_t which);
int32_t ascendc_kernel_task_type(uint8_t value, AscLoc loc);
int32_t ascendc_assert_failed(const char* expr, const char* message, AscLoc loc);
}

// Scalar type names of the device compiler.
using float16_t = half;
using float32_t = float;

// Branch-prediction hints (plain conditions here).
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

// Event IDs for SetFlag / WaitFlag.
enum event_t : int32_t {
    EVENT_ID0 = 0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    EVENT_ID4,
    EVENT_ID5,
    EVENT_ID6,
    EVENT_ID7,
};

// Kernel types of KERNEL_TASK_TYPE_DEFAULT / KERNEL_TASK_TYPE.
enum KernelMetaType : uint8_t {
    KERNEL_TYPE_AIV_ONLY = 0,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
    KERNEL_TYPE_AICORE,
    KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE,
    KERNEL_TYPE_MIX_VECTOR_CORE,
};

// The pipe of the running block (null before a TPipe exists), declared at global scope.
inline AscendC::TPipe* GetTPipePtr() { return AscendC::detail::currentPipe; }

namespace AscendC {
using ::GetTPipePtr;

// ceil(a / b) for positive integers; 0 when b is 0.
template <typename T, typename U>
constexpr auto DivCeil(T a, U b) -> decltype((a + b - 1) / b) {
    return b == 0 ? decltype((a + b - 1) / b)(0) : (a + b - 1) / b;
}

// `a` rounded up to a multiple of `b` (positive integers); 0 when b is 0.
constexpr uint32_t AlignUp(uint32_t a, uint32_t b) { return b == 0 ? 0 : (a + b - 1) / b * b; }

// ceil(num1 / num2) for positive num1, num2; 0 when num2 is 0.
constexpr int32_t CeilDivision(int32_t num1, int32_t num2) {
    return num2 == 0 ? 0 : (num1 + num2 - 1) / num2;
}

// ceil(a / b) of two unsigned counts (the scalar Ceil beside the high-level tensor Ceil);
// 0 when b is 0.
inline uint32_t Ceil(uint32_t a, uint32_t b) { return b == 0 ? 0 : (a + b - 1) / b; }
constexpr uint32_t ConstCeil(uint32_t a, uint32_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

// The C++ standard library subset kernels use, under AscendC::Std.
namespace Std {
template <typename T, typename U>
constexpr auto max(const T& src0, const U& src1) {
    static_assert(std::is_same<T, U>::value, "Std::max takes two operands of the same type");
    return src0 < src1 ? src1 : src0;
}
template <typename T, typename U>
constexpr auto min(const T& src0, const U& src1) {
    static_assert(std::is_same<T, U>::value, "Std::min takes two operands of the same type");
    return src1 < src0 ? src1 : src0;
}
template <typename T>
constexpr T abs(const T& v) {
    return v < T(0) ? T(-v) : v;
}
template <typename T>
T sqrt(const T& v) {
    return T(std::sqrt(static_cast<double>(v)));
}
// A compile-time integer (a Layout's static shape or stride entry).
template <int N>
using Int = std::integral_constant<int, N>;
using std::forward;
using std::get;
using std::make_tuple;
using std::tuple;
using std::integer_sequence;
using std::index_sequence;
using std::make_integer_sequence;
using std::make_index_sequence;
using std::add_const;
using std::add_cv;
using std::add_lvalue_reference;
using std::add_pointer;
using std::add_rvalue_reference;
using std::add_volatile;
using std::conditional;
using std::enable_if;
using std::integral_constant;
using std::is_array;
using std::is_base_of;
using std::is_const;
using std::is_convertible;
using std::is_floating_point;
using std::is_integral;
using std::is_pointer;
using std::is_reference;
using std::is_same;
using std::is_void;
using std::remove_const;
using std::remove_cv;
using std::remove_pointer;
using std::remove_reference;
using std::remove_volatile;
// The `_t` and `_v` shorthands of the traits above.
using std::add_const_t;
using std::add_cv_t;
using std::add_lvalue_reference_t;
using std::add_pointer_t;
using std::add_rvalue_reference_t;
using std::add_volatile_t;
using std::conditional_t;
using std::enable_if_t;
using std::remove_const_t;
using std::remove_cv_t;
using std::remove_pointer_t;
using std::remove_reference_t;
using std::remove_volatile_t;
#if __cplusplus >= 201703L
using std::is_array_v;
using std::is_base_of_v;
using std::is_const_v;
using std::is_convertible_v;
using std::is_floating_point_v;
using std::is_integral_v;
using std::is_pointer_v;
using std::is_reference_v;
using std::is_same_v;
using std::is_void_v;
#endif
}  // namespace Std

// The core's system counter: instructions issued so far on this core (no timing model).
inline int64_t GetSystemCycle(detail::Loc loc = detail::Loc()) {
    int64_t v = 0;
    detail::Check(ascendc_get_system_cycle(&v, loc));
    return v;
}

// Resets the core's vector state (mask, mask mode) to the reset values.
inline void InitSocState(detail::Loc loc = detail::Loc()) { detail::Check(ascendc_init_soc_state(loc)); }

// The element `GetBlockIdx() * count` elements of T past `base`: this block's part of a GM buffer.
template <typename T>
inline GM_ADDR ParamOffset(GM_ADDR base, uint64_t count) {
    return base + static_cast<uint64_t>(GetBlockIdx()) * count * sizeof(T);
}

namespace detail {

inline void KernelTaskType(KernelMetaType value, Loc loc) {
    Check(ascendc_kernel_task_type(static_cast<uint8_t>(value), loc));
}

// A failed ASSERT: stops the block with an error naming the condition and the message.
inline void AssertFail(const char* expr, Loc loc) { Check(ascendc_assert_failed(expr, "", loc)); }

template <typename... Args>
void AssertFail(const char* expr, Loc loc, const char* fmt, Args... args) {
    char message[512];
    if constexpr (sizeof...(Args) == 0) {
        std::snprintf(message, sizeof(message), "%s", fmt);
    } else {
        std::snprintf(message, sizeof(message), fmt, args...);
    }
    Check(ascendc_assert_failed(expr, message, loc));
}

}  // namespace detail
}  // namespace AscendC

// The 2023 name of the AscendC namespace: a real namespace (user code may open it) that sees
// every AscendC name.
namespace tik2 {
using namespace AscendC;
}

// ASSERT(cond) / ASSERT(cond, "format", args...): a false condition stops the block with an
// error naming the condition, the message and this line. Only in the CPU-debug branch: the
// device build compiles it to nothing, as the vendor's does.
#ifdef ASCENDC_CPU_DEBUG
#define ASSERT(expr, ...)                                                                      \
    ((expr) ? (void)0                                                                          \
            : ::AscendC::detail::AssertFail(#expr, ::AscendC::detail::Loc(__FILE__, __LINE__, 0), \
                                            ##__VA_ARGS__))
#else
#define ASSERT(expr, ...) ((void)0)
#endif

// True on the core kinds that run vector (AIV) / cube (AIC) code; a coupled AI Core is both.
#define ASCEND_IS_AIV (ascendc_core_is(0) != 0)
#define ASCEND_IS_AIC (ascendc_core_is(1) != 0)
#define ASCEND_IS_NOT_AIV (!ASCEND_IS_AIV)
#define ASCEND_IS_NOT_AIC (!ASCEND_IS_AIC)

// `g_coreType == AIC` / `== AIV`: the kind of core running the block, under the names the vendor's
// compiler provides (a coupled AI Core counts as AIV).
enum AscendcCoreType : int32_t { AIC = 1, AIV = 2 };
#define g_coreType (ascendc_core_is(0) != 0 ? AIV : AIC)

// The kernel's type; a vector-only kernel running on a cube core (or the reverse) stops the block.
#define KERNEL_TASK_TYPE_DEFAULT(type) \
    ::AscendC::detail::KernelTaskType(type, ::AscendC::detail::Loc(__FILE__, __LINE__, 0))
// The kernel's type when the tiling key is `key`.
#define KERNEL_TASK_TYPE(key, type)                                                           \
    do {                                                                                      \
        if (TILING_KEY_IS(key)) {                                                             \
            ::AscendC::detail::KernelTaskType(type, ::AscendC::detail::Loc(__FILE__, __LINE__, 0)); \
        }                                                                                     \
    } while (0)

// The device compiler's scalar min / max of two integers of one type, callable unqualified in
// kernel code (`min(baseM, rowNum)`). Plain overloads, as the device declares them: exact
// matches win over std::min / std::max, and other argument types still reach those templates.
#define ASCENDC_SCALAR_MIN_MAX(T)                               \
    inline T min(T a, T b) { return b < a ? b : a; }            \
    inline T max(T a, T b) { return a < b ? b : a; }
ASCENDC_SCALAR_MIN_MAX(char)
ASCENDC_SCALAR_MIN_MAX(unsigned char)
ASCENDC_SCALAR_MIN_MAX(short)
ASCENDC_SCALAR_MIN_MAX(unsigned short)
ASCENDC_SCALAR_MIN_MAX(int)
ASCENDC_SCALAR_MIN_MAX(unsigned int)
ASCENDC_SCALAR_MIN_MAX(long)
ASCENDC_SCALAR_MIN_MAX(unsigned long)
ASCENDC_SCALAR_MIN_MAX(long long)
ASCENDC_SCALAR_MIN_MAX(unsigned long long)
#undef ASCENDC_SCALAR_MIN_MAX
