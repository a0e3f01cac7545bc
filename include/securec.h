// The bounds-checked C functions host code uses (memset_s, memcpy_s, memmove_s, strcpy_s,
// strncpy_s, strcat_s, sprintf_s, snprintf_s): EOK (0) on success; on a destination too small or
// a null pointer, an error number and (where the C11 Annex K functions do) a cleared destination.
#pragma once

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif

typedef int errno_t;

namespace ascendc_securec {
constexpr errno_t kInvalid = 22;  // EINVAL
constexpr errno_t kRange = 34;    // ERANGE
}  // namespace ascendc_securec

inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
    if (dest == nullptr) return ascendc_securec::kInvalid;
    if (count > destMax) {
        std::memset(dest, c, destMax);
        return ascendc_securec::kRange;
    }
    std::memset(dest, c, count);
    return EOK;
}

inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (dest == nullptr || src == nullptr) return ascendc_securec::kInvalid;
    if (count > destMax) {
        std::memset(dest, 0, destMax);
        return ascendc_securec::kRange;
    }
    std::memcpy(dest, src, count);
    return EOK;
}

inline errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (dest == nullptr || src == nullptr) return ascendc_securec::kInvalid;
    if (count > destMax) return ascendc_securec::kRange;
    std::memmove(dest, src, count);
    return EOK;
}

inline errno_t strncpy_s(char* dest, size_t destMax, const char* src, size_t count) {
    if (dest == nullptr || src == nullptr || destMax == 0) return ascendc_securec::kInvalid;
    size_t n = strnlen(src, count);
    if (n >= destMax) {
        dest[0] = '\0';
        return ascendc_securec::kRange;
    }
    std::memcpy(dest, src, n);
    dest[n] = '\0';
    return EOK;
}

inline errno_t strcpy_s(char* dest, size_t destMax, const char* src) {
    return strncpy_s(dest, destMax, src, src == nullptr ? 0 : std::strlen(src));
}

inline errno_t strcat_s(char* dest, size_t destMax, const char* src) {
    if (dest == nullptr || src == nullptr) return ascendc_securec::kInvalid;
    size_t have = strnlen(dest, destMax);
    if (have == destMax) return ascendc_securec::kInvalid;
    return strcpy_s(dest + have, destMax - have, src);
}

// Returns the characters written, or -1 when they do not fit in destMax - 1.
inline int vsnprintf_s(char* dest, size_t destMax, size_t count, const char* format, va_list ap) {
    if (dest == nullptr || format == nullptr || destMax == 0) return -1;
    size_t limit = count < destMax - 1 ? count + 1 : destMax;
    int n = std::vsnprintf(dest, limit, format, ap);
    return n < 0 || static_cast<size_t>(n) >= limit ? -1 : n;
}

__attribute__((format(printf, 4, 5))) inline int snprintf_s(char* dest, size_t destMax, size_t count,
                                                             const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf_s(dest, destMax, count, format, ap);
    va_end(ap);
    return n;
}

__attribute__((format(printf, 3, 4))) inline int sprintf_s(char* dest, size_t destMax, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf_s(dest, destMax, destMax, format, ap);
    va_end(ap);
    return n;
}
