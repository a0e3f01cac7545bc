// Shape helpers of the operator libraries' base layer (Ops::Base): unknown shapes and ranks
// (a dimension of -1, a rank of -2 written as the single dimension -2), scalars as [1], and
// ToString of shapes, data types and formats for log lines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ascendc/host/context.h"
#include "ascendc/host/ge_shape.h"
#include "graph/utils/type_utils.h"

namespace Ops {
namespace Base {

constexpr int64_t UNKNOWN_DIM_VALUE = -1;
constexpr int64_t UNKNOWN_RANK_DIM_VALUE = -2;

// `shape`, or [1] when it is a scalar.
inline gert::Shape EnsureNotScalar(const gert::Shape& shape) {
    if (shape.IsScalar()) {
        return gert::Shape({1});
    }
    return shape;
}

inline bool IsUnknownRank(const gert::Shape& shape) {
    return shape.GetDimNum() == 1 && shape.GetDim(0) == UNKNOWN_RANK_DIM_VALUE;
}

// True when the rank or a dimension is unknown.
inline bool IsUnknownShape(const gert::Shape& shape) {
    for (size_t i = 0; i < shape.GetDimNum(); ++i) {
        if (shape.GetDim(i) < 0) {
            return true;
        }
    }
    return false;
}

inline void SetUnknownRank(gert::Shape& shape) {
    shape.SetDimNum(1);
    shape.SetDim(0, UNKNOWN_RANK_DIM_VALUE);
}

// `rank` unknown dimensions.
inline void SetUnknownShape(int64_t rank, gert::Shape& shape) {
    shape.SetDimNum(static_cast<size_t>(rank));
    for (int64_t i = 0; i < rank; ++i) {
        shape.SetDim(static_cast<size_t>(i), UNKNOWN_DIM_VALUE);
    }
}

// "[8, 1000]".
inline std::string ToString(const gert::Shape& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.GetDimNum(); ++i) {
        s += (i ? ", " : "") + std::to_string(shape.GetDim(i));
    }
    return s + "]";
}
inline std::string ToString(const gert::StorageShape& shape) {
    return "origin " + ToString(shape.GetOriginShape()) + ", storage " + ToString(shape.GetStorageShape());
}
inline std::string ToString(const ge::Shape& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.GetDims().size(); ++i) {
        s += (i ? ", " : "") + std::to_string(shape.GetDim(i));
    }
    return s + "]";
}
template <typename T>
inline std::string ToString(const std::vector<T>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) {
        s += (i ? ", " : "") + std::to_string(v[i]);
    }
    return s + "]";
}
// "DT_FLOAT", …
inline std::string ToString(ge::DataType dt) { return ge::TypeUtils::DataTypeToSerialString(dt); }
inline std::string ToString(ge::Format f) { return ge::TypeUtils::FormatToSerialString(f); }

}  // namespace Base
}  // namespace Ops
