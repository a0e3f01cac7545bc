// Operator logging for host code (log/log.h, op_common/log/log.h): OP_LOGE / OP_LOGW / OP_LOGI /
// OP_LOGD(who, printf format, args…), `who` being a gert context (its node name is used), an
// operator name (const char* or std::string) or, with no format, the message itself.
// A line goes to stderr as `[ERROR] <op>: <message>` (WARNING, INFO, DEBUG likewise) when its
// level is enabled: $ASCEND_GLOBAL_LOG_LEVEL 0 debug, 1 info, 2 warning (the default here),
// 3 error, 4 none. Error lines are also kept: when the host program then fails (a host function
// returned a failure, or misuse), its message lists them, so the cause reaches `ascendc op run`.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>

#include "fail.h"

namespace ascendc_host {
namespace oplog {

enum Level { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

// The lowest level printed ($ASCEND_GLOBAL_LOG_LEVEL, default warning).
inline int Threshold() {
    static int t = [] {
        const char* e = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
        if (e == nullptr || *e < '0' || *e > '4' || e[1] != '\0') {
            return static_cast<int>(kWarning);
        }
        return *e - '0';
    }();
    return t;
}

// The name a log line carries for `who`.
inline std::string NameOf(const char* s) { return s == nullptr ? std::string("(null)") : std::string(s); }
inline std::string NameOf(const std::string& s) { return s; }
inline std::string NameOf(std::nullptr_t) { return "(null)"; }
template <typename Ctx, typename = decltype(std::declval<const Ctx&>().GetNodeName())>
std::string NameOf(const Ctx* c) {
    return c == nullptr ? std::string("(null context)") : NameOf(c->GetNodeName());
}

inline void Emit(int level, const std::string& name, const std::string& message) {
    static const char* const kTags[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
    std::string line = std::string("[") + kTags[level] + "] " + name + ": " + message;
    if (level == kError) {
        LoggedErrors().push_back(line);
    }
    if (level >= Threshold()) {
        std::fflush(stdout);
        std::fprintf(stderr, "%s\n", line.c_str());
    }
}

inline bool Enabled(int level) { return level == kError || level >= Threshold(); }

__attribute__((format(printf, 3, 4))) inline void Logf(int level, const std::string& name, const char* fmt, ...) {
    if (!Enabled(level)) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    va_list copy;
    va_copy(copy, ap);
    int n = std::vsnprintf(nullptr, 0, fmt, copy);
    va_end(copy);
    std::string text(n > 0 ? static_cast<size_t>(n) : 0, '\0');
    if (n > 0) {
        std::vsnprintf(&text[0], text.size() + 1, fmt, ap);
    }
    va_end(ap);
    Emit(level, name, text);
}

// OP_LOGD("message"): the only argument is the message.
inline void Logf(int level, const std::string& message) {
    if (Enabled(level)) {
        Emit(level, "op_host", message);
    }
}

// Text of an OP_LOGE_FOR_INVALID_* argument (a C string or std::string).
inline std::string Text(const char* s) { return s == nullptr ? std::string("(null)") : std::string(s); }
inline std::string Text(const std::string& s) { return s; }
template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value>::type>
inline std::string Text(T v) {
    return std::to_string(v);
}

// "<what> of <param> is <value>; expected <expected>" and the with-reason form.
inline void Invalid(const std::string& name, const char* what, const std::string& param, const std::string& value,
                    const std::string& expected) {
    Emit(kError, name, std::string(what) + " of " + param + " is " + value + "; expected " + expected);
}
inline void InvalidReason(const std::string& name, const char* what, const std::string& param,
                          const std::string& value, const std::string& reason) {
    Emit(kError, name, std::string(what) + " of " + param + " is " + value + ": " + reason);
}

}  // namespace oplog
}  // namespace ascendc_host

namespace ascendc_host {
namespace oplog {
// OP_LOGx("message") and OP_LOGx(who, format, args…).
inline void Dispatch(int level, const char* message) { Logf(level, std::string(message == nullptr ? "" : message)); }
template <typename Who, typename... Args>
inline void Dispatch(int level, const Who& who, const char* fmt, Args... args) {
    if (!Enabled(level)) {
        return;
    }
    if constexpr (sizeof...(Args) == 0) {
        Logf(level, NameOf(who), "%s", fmt);
    } else {
        // The format is the caller's (checked by -Wformat at the call site's expansion).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        Logf(level, NameOf(who), fmt, args...);
#pragma GCC diagnostic pop
    }
}
}  // namespace oplog
}  // namespace ascendc_host

#define OP_LOGE(...) ::ascendc_host::oplog::Dispatch(::ascendc_host::oplog::kError, __VA_ARGS__)
#define OP_LOGW(...) ::ascendc_host::oplog::Dispatch(::ascendc_host::oplog::kWarning, __VA_ARGS__)
#define OP_LOGI(...) ::ascendc_host::oplog::Dispatch(::ascendc_host::oplog::kInfo, __VA_ARGS__)
#define OP_LOGD(...) ::ascendc_host::oplog::Dispatch(::ascendc_host::oplog::kDebug, __VA_ARGS__)
// The same, as some libraries spell them.
#define OPS_LOG_E(...) OP_LOGE(__VA_ARGS__)
#define OPS_LOG_W(...) OP_LOGW(__VA_ARGS__)
#define OPS_LOG_I(...) OP_LOGI(__VA_ARGS__)
#define OPS_LOG_D(...) OP_LOGD(__VA_ARGS__)
#define OP_LOGE_WITHOUT_REPORT(...) OP_LOGE(__VA_ARGS__)
#define OP_EVENT(...) OP_LOGI(__VA_ARGS__)

// OP_CHECK_IF(condition, log statement, action): when the condition holds, logs and acts
// (typically `return ge::GRAPH_FAILED`).
#define OP_CHECK_IF(cond, log_func, expr) \
    do {                                  \
        if (cond) {                       \
            log_func;                     \
            expr;                         \
        }                                 \
    } while (0)
// Returns ge::GRAPH_FAILED, logging "<name> is nullptr", when `ptr` is null.
#define OP_CHECK_NULL_WITH_CONTEXT(context, ptr)                       \
    do {                                                                \
        if ((ptr) == nullptr) {                                         \
            OP_LOGE(context, "%s is nullptr", #ptr);                    \
            return ge::GRAPH_FAILED;                                    \
        }                                                               \
    } while (0)
#define OPS_CHECK_NULL_WITH_CONTEXT(context, ptr) OP_CHECK_NULL_WITH_CONTEXT(context, ptr)
#define OPS_ERR_IF(cond, log_func, expr) OP_CHECK_IF(cond, log_func, expr)
#define OP_TILING_CHECK(cond, log_func, expr) OP_CHECK_IF(cond, log_func, expr)

// Error lines for invalid arguments: (op name, parameter name, actual, expected) and
// (op name, parameter name, actual, reason).
#define ASCENDC_OP_INVALID_(what, name, param, value, expected)                                                   \
    ::ascendc_host::oplog::Invalid(::ascendc_host::oplog::NameOf(name), what, ::ascendc_host::oplog::Text(param), \
                                   ::ascendc_host::oplog::Text(value), ::ascendc_host::oplog::Text(expected))
#define ASCENDC_OP_INVALID_REASON_(what, name, param, value, reason)                                                    \
    ::ascendc_host::oplog::InvalidReason(::ascendc_host::oplog::NameOf(name), what, ::ascendc_host::oplog::Text(param), \
                                         ::ascendc_host::oplog::Text(value), ::ascendc_host::oplog::Text(reason))
#define OP_LOGE_FOR_INVALID_DTYPE(name, param, value, expected) ASCENDC_OP_INVALID_("the dtype", name, param, value, expected)
#define OP_LOGE_FOR_INVALID_DTYPES_WITH_REASON(name, params, values, reason) \
    ASCENDC_OP_INVALID_REASON_("the dtypes", name, params, values, reason)
#define OP_LOGE_FOR_INVALID_DTYPE_WITH_REASON(name, param, value, reason) \
    ASCENDC_OP_INVALID_REASON_("the dtype", name, param, value, reason)
#define OP_LOGE_FOR_INVALID_FORMAT(name, param, value, expected) ASCENDC_OP_INVALID_("the format", name, param, value, expected)
#define OP_LOGE_FOR_INVALID_FORMAT_WITH_REASON(name, param, value, reason) \
    ASCENDC_OP_INVALID_REASON_("the format", name, param, value, reason)
#define OP_LOGE_FOR_INVALID_SHAPE(name, param, value, expected) ASCENDC_OP_INVALID_("the shape", name, param, value, expected)
#define OP_LOGE_FOR_INVALID_SHAPE_WITH_REASON(name, param, value, reason) \
    ASCENDC_OP_INVALID_REASON_("the shape", name, param, value, reason)
#define OP_LOGE_FOR_INVALID_SHAPES_WITH_REASON(name, params, values, reason) \
    ASCENDC_OP_INVALID_REASON_("the shapes", name, params, values, reason)
#define OP_LOGE_FOR_INVALID_SHAPEDIM(name, param, value, expected) \
    ASCENDC_OP_INVALID_("the dim num", name, param, value, expected)
#define OP_LOGE_FOR_INVALID_SHAPEDIM_WITH_REASON(name, param, value, reason) \
    ASCENDC_OP_INVALID_REASON_("the dim num", name, param, value, reason)
#define OP_LOGE_FOR_INVALID_SHAPESIZE(name, param, value, expected) \
    ASCENDC_OP_INVALID_("the shape size", name, param, value, expected)
#define OP_LOGE_FOR_INVALID_SHAPESIZE_WITH_REASON(name, param, value, reason) \
    ASCENDC_OP_INVALID_REASON_("the shape size", name, param, value, reason)
#define OP_LOGE_FOR_INVALID_SHAPESIZES_WITH_REASON(name, params, values, reason) \
    ASCENDC_OP_INVALID_REASON_("the shape sizes", name, params, values, reason)
#define OP_LOGE_FOR_INVALID_VALUE(name, param, value, expected) ASCENDC_OP_INVALID_("the value", name, param, value, expected)
#define OP_LOGE_FOR_INVALID_VALUE_WITH_REASON(name, param, value, reason) \
    ASCENDC_OP_INVALID_REASON_("the value", name, param, value, reason)
#define OP_LOGE_FOR_INVALID_TENSORNUM(name, param, value, expected) \
    ASCENDC_OP_INVALID_("the tensor count", name, param, value, expected)
#define OP_LOGE_WITH_INVALID_INPUT_DTYPE(name, param, value, expected) \
    ASCENDC_OP_INVALID_("the dtype", name, param, value, expected)
#define OP_LOGE_WITH_INVALID_OUTPUT_DTYPE(name, param, value, expected) \
    ASCENDC_OP_INVALID_("the dtype", name, param, value, expected)
#define OP_LOGE_WITH_INVALID_INPUT_SHAPE(name, param, value, expected) \
    ASCENDC_OP_INVALID_("the shape", name, param, value, expected)
#define OP_LOGE_WITH_INVALID_OUTPUT_SHAPE(name, param, value, expected) \
    ASCENDC_OP_INVALID_("the shape", name, param, value, expected)
#define OP_LOGE_WITH_INVALID_INPUT_SHAPESIZE(name, param, value, expected) \
    ASCENDC_OP_INVALID_("the shape size", name, param, value, expected)
#define OP_LOGE_WITH_INVALID_INPUT_FORMAT(name, param, value, expected) \
    ASCENDC_OP_INVALID_("the format", name, param, value, expected)
#define OP_LOGE_WITH_INVALID_ATTR(name, param, value, expected) \
    ASCENDC_OP_INVALID_("the attribute", name, param, value, expected)
#define OP_LOGE_WITH_INVALID_ATTR_SIZE(name, param, value, expected) \
    ASCENDC_OP_INVALID_("the size of attribute", name, param, value, expected)
