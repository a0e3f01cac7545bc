// Tiling data: the struct-definition macros host code uses and the kernel-side readers that copy
// the struct out of GM (bounds-checked against the GmAlloc allocation).
#pragma once

#include "types.h"

#define BEGIN_TILING_DATA_DEF(name) struct name {
#define TILING_DATA_FIELD_DEF(type, field)                  \
    type field;                                             \
    void set_##field(type value) { field = value; }         \
    type get_##field() const { return field; }
#define TILING_DATA_FIELD_DEF_ARR(type, count, field) type field[count];
#define TILING_DATA_FIELD_DEF_STRUCT(type, field) type field;
#define END_TILING_DATA_DEF }
#define REGISTER_TILING_DATA_CLASS(opType, className)

// The struct GET_TILING_DATA reads; define it before including to use another name.
#ifndef ASCENDC_TILING_DATA_TYPE
#define ASCENDC_TILING_DATA_TYPE TilingData
#endif

#define GET_TILING_DATA_WITH_STRUCT(type, var, tiling) \
    type var;                                          \
    ::AscendC::detail::ReadTiling(&var, tiling, sizeof(type))
#define GET_TILING_DATA(var, tiling) GET_TILING_DATA_WITH_STRUCT(ASCENDC_TILING_DATA_TYPE, var, tiling)

namespace AscendC {
namespace detail {

inline void ReadTiling(void* dst, const void* tiling, uint64_t size, Loc loc = Loc()) {
    Check(ascendc_gm_read(dst, tiling, size, loc));
}

// The tiling key ICPU_SET_TILING_KEY sets and TILING_KEY_IS tests.
inline uint64_t& TilingKey() {
    static uint64_t key = 0;
    return key;
}

}  // namespace detail
}  // namespace AscendC

#define TILING_KEY_IS(key) (::AscendC::detail::TilingKey() == (key))
