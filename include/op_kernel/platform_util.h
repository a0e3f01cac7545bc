// Kernel-side platform sizes of the operator libraries' base layer, in bytes: the UB block
// (the unit of DataCopy and of vector block strides) and the vector register (one repeat), the
// same on every simulated product.
#pragma once

#include <cstdint>

#include "util/math_util.h"

namespace Ops {
namespace Base {

constexpr uint32_t GetUbBlockSize() { return 32; }
constexpr uint32_t GetVRegSize() { return 256; }

}  // namespace Base
}  // namespace Ops
