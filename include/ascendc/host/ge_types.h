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
    DT_COMPLEX64 = 16,
    DT_COMPLEX128 = 17,
    DT_BF16 = 27,
    DT_UNDEFINED = 28,
    DT_INT4 = 29,
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

// Size of one element of `dt` in bytes; -1 for types without a fixed size.
inline int GetSizeByDataType(DataType dt) {
    switch (dt) {
        case DT_INT8: case DT_UINT8: case DT_BOOL: return 1;
        case DT_FLOAT16: case DT_BF16: case DT_INT16: case DT_UINT16: return 2;
        case DT_FLOAT: case DT_INT32: case DT_UINT32: return 4;
        case DT_INT64: case DT_UINT64: case DT_DOUBLE: case DT_COMPLEX64: return 8;
        case DT_COMPLEX128: return 16;
        default: return -1;
    }
}

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
