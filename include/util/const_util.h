// Reading the values of value-dependent inputs (Ops::Base): GetConstInt reads the first element
// of input `index` as an integer, GetValueToShape reads a 1-D integer tensor as a shape. Every
// input's data is available under `ascendc op run`.
#pragma once

#include <cstdint>
#include <vector>

#include "ascendc/host/context.h"

namespace Ops {
namespace Base {

namespace detail {
// Element `i` of an integer tensor as int64_t; false for other element types.
inline bool IntAt(const gert::Tensor* t, size_t i, int64_t& out) {
    switch (t->GetDataType()) {
        case ge::DT_INT8: out = t->GetData<int8_t>()[i]; return true;
        case ge::DT_UINT8: out = t->GetData<uint8_t>()[i]; return true;
        case ge::DT_INT16: out = t->GetData<int16_t>()[i]; return true;
        case ge::DT_UINT16: out = t->GetData<uint16_t>()[i]; return true;
        case ge::DT_INT32: out = t->GetData<int32_t>()[i]; return true;
        case ge::DT_UINT32: out = t->GetData<uint32_t>()[i]; return true;
        case ge::DT_INT64: out = t->GetData<int64_t>()[i]; return true;
        case ge::DT_UINT64: out = static_cast<int64_t>(t->GetData<uint64_t>()[i]); return true;
        default: return false;
    }
}
}  // namespace detail

// The first value of input `index` (an integer tensor with data) into `value`.
template <typename Ctx, typename T>
inline bool GetConstInt(Ctx* context, int64_t index, T& value) {
    const gert::Tensor* t = context->GetOptionalInputTensor(static_cast<size_t>(index));
    int64_t v = 0;
    if (t == nullptr || t->GetAddr() == nullptr || t->GetShapeSize() < 1 || !detail::IntAt(t, 0, v)) {
        return false;
    }
    value = static_cast<T>(v);
    return true;
}

// Every value of input `index` (an integer tensor with data) into `values`.
template <typename Ctx, typename T>
inline bool GetConstIntList(Ctx* context, int64_t index, std::vector<T>& values) {
    const gert::Tensor* t = context->GetOptionalInputTensor(static_cast<size_t>(index));
    if (t == nullptr || t->GetAddr() == nullptr || t->GetShapeSize() < 0) {
        return false;
    }
    values.clear();
    for (int64_t i = 0; i < t->GetShapeSize(); ++i) {
        int64_t v = 0;
        if (!detail::IntAt(t, static_cast<size_t>(i), v)) {
            return false;
        }
        values.push_back(static_cast<T>(v));
    }
    return true;
}

// The values of `tensor` (elements of type T) as the dimensions of `shape`.
template <typename T>
inline void GetValueToShape(const gert::Tensor* tensor, gert::Shape& shape) {
    int64_t n = tensor->GetShapeSize();
    shape.SetDimNum(0);
    for (int64_t i = 0; i < n; ++i) {
        shape.AppendDim(static_cast<int64_t>(tensor->GetData<T>()[i]));
    }
}

}  // namespace Base
}  // namespace Ops
