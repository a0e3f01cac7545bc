// Host-side graph types of framework operators: ge::DataType, ge::Format, ge::graphStatus,
// ge::AscendString and a minimal ge::Operator (for CheckSupport hooks that are registered and
// never called here).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ge {

// Status of host functions (TilingFunc, InferShape, InferDataType): GRAPH_SUCCESS or a failure.
using graphStatus = uint32_t;
// The character type of the framework's string interfaces.
using char_t = char;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649;

// Tensor element types, numbered as the framework numbers them (the kernel build's ORIG_DTYPE_*
// macros use the same numbers).
enum DataType {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 6,
    DT_UINT16 = 7,
    DT_UINT32 = 8,
    DT_INT64 = 9,
    DT_UINT64 = 10,
    DT_DOUBLE = 11,
    DT_BOOL = 12,
    DT_STRING = 13,
    DT_DUAL_SUB_INT8 = 14,
    DT_DUAL_SUB_UINT8 = 15,
    DT_COMPLEX64 = 16,
    DT_COMPLEX128 = 17,
    DT_QINT8 = 18,
    DT_QINT16 = 19,
    DT_QINT32 = 20,
    DT_QUINT8 = 21,
    DT_QUINT16 = 22,
    DT_RESOURCE = 23,
    DT_STRING_REF = 24,
    DT_DUAL = 25,
    DT_VARIANT = 26,
    DT_BF16 = 27,
    DT_UNDEFINED = 28,
    DT_INT4 = 29,
    DT_UINT1 = 30,
    DT_INT2 = 31,
    DT_UINT2 = 32,
    DT_COMPLEX32 = 33,
    DT_HIFLOAT8 = 34,
    DT_FLOAT8_E5M2 = 35,
    DT_FLOAT8_E4M3FN = 36,
    DT_FLOAT8_E8M0 = 37,
    DT_FLOAT6_E3M2 = 38,
    DT_FLOAT6_E2M3 = 39,
    DT_FLOAT4_E2M1 = 40,
    DT_FLOAT4_E1M2 = 41,
    DT_MAX
};

// Tensor layouts. Operators here run on ND data; the others are accepted in definitions.
enum Format {
    FORMAT_NCHW = 0,
    FORMAT_NHWC = 1,
    FORMAT_ND = 2,
    FORMAT_NC1HWC0 = 3,
    FORMAT_FRACTAL_Z = 4,
    FORMAT_FRACTAL_NZ = 29,
    FORMAT_NCDHW = 30,
    FORMAT_NDHWC = 27,
    FORMAT_RESERVED = 40,
    FORMAT_MAX = 0xff
};

// Size of one element of `dt` in bytes; -1 for types without a whole-byte size (sub-byte
// types: GetSizeInBytes).
inline int GetSizeByDataType(DataType dt) {
    switch (dt) {
        case DT_INT8: case DT_UINT8: case DT_BOOL: case DT_QINT8: case DT_QUINT8: case DT_DUAL_SUB_INT8:
        case DT_DUAL_SUB_UINT8: case DT_HIFLOAT8: case DT_FLOAT8_E5M2: case DT_FLOAT8_E4M3FN: case DT_FLOAT8_E8M0:
        case DT_FLOAT6_E3M2: case DT_FLOAT6_E2M3:
            return 1;
        case DT_FLOAT16: case DT_BF16: case DT_INT16: case DT_UINT16: case DT_QINT16: case DT_QUINT16: return 2;
        case DT_FLOAT: case DT_INT32: case DT_UINT32: case DT_QINT32: case DT_COMPLEX32: return 4;
        case DT_INT64: case DT_UINT64: case DT_DOUBLE: case DT_COMPLEX64: return 8;
        case DT_COMPLEX128: return 16;
        default: return -1;
    }
}

// Bits of one element of `dt` (4 for int4 / fp4, 2 for int2, 1 for uint1); -1 when unsized.
inline int GetBitsByDataType(DataType dt) {
    switch (dt) {
        case DT_INT4: case DT_FLOAT4_E2M1: case DT_FLOAT4_E1M2: return 4;
        case DT_INT2: case DT_UINT2: return 2;
        case DT_UINT1: return 1;
        default: {
            int bytes = GetSizeByDataType(dt);
            return bytes < 0 ? -1 : bytes * 8;
        }
    }
}

// Bytes of `count` elements of `dt`, sub-byte types rounded up to whole bytes; -1 when unsized.
inline int64_t GetSizeInBytes(int64_t count, DataType dt) {
    int bits = GetBitsByDataType(dt);
    if (bits < 0 || count < 0) {
        return -1;
    }
    return (count * bits + 7) / 8;
}

// Rank of a shape whose rank is unknown, and the value of an unknown dimension.
constexpr int64_t UNKNOWN_DIM = -1;
constexpr int64_t UNKNOWN_DIM_NUM = -2;

// A string owned by value, as the framework passes names and messages.
class AscendString {
public:
    AscendString() = default;
    AscendString(const char* s) : s_(s == nullptr ? "" : s) {}
    const char* GetString() const { return s_.c_str(); }
    size_t GetLength() const { return s_.size(); }
    bool operator==(const AscendString& o) const { return s_ == o.s_; }
    bool operator<(const AscendString& o) const { return s_ < o.s_; }

private:
    std::string s_;
};

// An operator node as CheckSupport / OpSelectFormat hooks receive it; those hooks are registered
// and not called by the simulator.
class Operator {
public:
    Operator() = default;
};

}  // namespace ge
