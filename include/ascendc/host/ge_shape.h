// ge::Shape: a tensor shape as the graph layer (and adv_api tiling functions) take it — a
// list of dimensions, -1 for an unknown dimension, rank -2 (UNKNOWN_DIM_NUM) for an unknown rank.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "ge_types.h"

namespace ge {

class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}

    size_t GetDimNum() const {
        return dims_.size() == 1 && dims_[0] == UNKNOWN_DIM_NUM ? static_cast<size_t>(-1) : dims_.size();
    }
    // Dimension `i`; 0 past the last dimension.
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    graphStatus SetDim(size_t i, int64_t v) {
        if (i >= dims_.size()) {
            return GRAPH_FAILED;
        }
        dims_[i] = v;
        return GRAPH_SUCCESS;
    }
    std::vector<int64_t> GetDims() const { return dims_; }
    // Product of the dimensions (0 for a scalar, as the graph layer counts); -1 when a dimension
    // is unknown.
    int64_t GetShapeSize() const {
        if (dims_.empty()) {
            return 0;
        }
        int64_t n = 1;
        for (int64_t d : dims_) {
            if (d < 0) {
                return -1;
            }
            n *= d;
        }
        return n;
    }
    bool IsUnknownShape() const {
        for (int64_t d : dims_) {
            if (d < 0) {
                return true;
            }
        }
        return false;
    }
    bool IsScalar() const { return dims_.empty(); }
    bool operator==(const Shape& o) const { return dims_ == o.dims_; }
    bool operator!=(const Shape& o) const { return dims_ != o.dims_; }

private:
    std::vector<int64_t> dims_;
};

}  // namespace ge
