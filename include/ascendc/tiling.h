// Tiling data: the struct-definition macros host code uses and the kernel-side readers that copy
// the struct out of GM (bounds-checked against the GmAlloc allocation).
#pragma once

#include <cstddef>

#include "types.h"

// register/tilingdata_base.h defines these macros too (a single-source program includes both):
// the header included last defines them.
#undef BEGIN_TILING_DATA_DEF
#undef TILING_DATA_FIELD_DEF
#undef TILING_DATA_FIELD_DEF_ARR
#undef TILING_DATA_FIELD_DEF_STRUCT
#undef END_TILING_DATA_DEF
#undef REGISTER_TILING_DATA_CLASS
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
// The struct GET_TILING_DATA reads: the one REGISTER_TILING_DEFAULT registered in the kernel,
// else ASCENDC_TILING_DATA_TYPE. A GET_TILING_DATA defined before this header (the tiling
// headers kernel unit tests -include define their own) is kept.
#ifndef GET_TILING_DATA
#define GET_TILING_DATA(var, tiling)                                                                          \
    using AscendcTiling_##var =                                                                               \
        typename ::AscendC::detail::DefaultTiling<AscendcTilingDefault_, struct ASCENDC_TILING_DATA_TYPE>::type;  \
    GET_TILING_DATA_WITH_STRUCT(AscendcTiling_##var, var, tiling)
#endif
// The qualifier of tiling-data pointers in kernel signatures (nothing on the simulator).
#define __tiling_data_ptr__
// `ptr` points to a copy of the tiling struct (valid in the enclosing scope).
#define GET_TILING_DATA_PTR_WITH_STRUCT(type, ptr, tiling) \
    GET_TILING_DATA_WITH_STRUCT(type, ptr##_ascendc_copy, tiling); \
    type* ptr = &ptr##_ascendc_copy
// One member of the tiling struct.
#define GET_TILING_DATA_MEMBER(type, member, var, tiling)                                   \
    decltype(type::member) var;                                                             \
    ::AscendC::detail::ReadTilingMember(&var, tiling, offsetof(type, member), sizeof(var))

// Registers the tiling struct GET_TILING_DATA reads in this kernel (type names need their namespace).
#define REGISTER_TILING_DEFAULT(type) using AscendcTilingDefault_ = type
// Declares that the kernel reads its tiling with GET_TILING_DATA_WITH_STRUCT only.
#define REGISTER_NONE_TILING using AscendcTilingDefault_ = ::AscendC::detail::NoneTiling
// Per-key tiling structs need one kernel build per key; refused at compile time.
#define REGISTER_TILING_FOR_TILINGKEY(expression, type)                                                     \
    static_assert(::AscendC::detail::Refused<type>::value,                                                  \
                  "REGISTER_TILING_FOR_TILINGKEY is not supported: read each key's struct with "            \
                  "GET_TILING_DATA_WITH_STRUCT(type, var, tiling) inside if (TILING_KEY_IS(key)) branches")

namespace AscendC {
namespace detail {

// REGISTER_TILING_DEFAULT was not used / REGISTER_NONE_TILING was.
struct NoTilingDefault;
struct NoneTiling;

template <typename Registered, typename Fallback>
struct DefaultTiling {
    using type = Registered;
};
template <typename Fallback>
struct DefaultTiling<NoTilingDefault, Fallback> {
    using type = Fallback;
};
template <typename Fallback>
struct DefaultTiling<NoneTiling, Fallback> {
    static_assert(sizeof(Fallback*) == 0, "GET_TILING_DATA after REGISTER_NONE_TILING: use GET_TILING_DATA_WITH_STRUCT");
};

template <typename T>
struct Refused : std::false_type {};

inline void ReadTilingMember(void* dst, const void* tiling, uint64_t offset, uint64_t size, Loc loc = Loc()) {
    Check(ascendc_gm_read(dst, static_cast<const uint8_t*>(tiling) + offset, size, loc));
}

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

// Outside a REGISTER_TILING_DEFAULT scope GET_TILING_DATA reads ASCENDC_TILING_DATA_TYPE.
using AscendcTilingDefault_ = ::AscendC::detail::NoTilingDefault;

#define TILING_KEY_IS(key) (::AscendC::detail::TilingKey() == (key))
