// The kernel-side tiling header operator kernels include (`kernel_tiling/kernel_tiling.h`): the
// tiling structs of the high-level APIs live in namespace AscendC::tiling (those of the
// high-level APIs this project implements are declared with their API). An operator's own tiling
// struct comes from its op_host definition (`ascendc op run` generates it for GET_TILING_DATA).
#pragma once

#include <cstddef>
#include <cstdint>
// Kernel UT tiling headers copy the struct with an unqualified memcpy after including this one.
#include <cstring>
#include "ascendc/adv/matmul_struct.h"  // TCubeTiling (AscendC::tiling and global)

namespace AscendC {
namespace tiling {}
}  // namespace AscendC
