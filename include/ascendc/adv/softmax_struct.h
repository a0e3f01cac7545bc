// The tiling structs of the SoftMax family as the kernel reads them (the vendor's
// kernel_tiling/kernel_tiling.h): SoftMaxTiling and LogSoftMaxTiling, 16 uint32_t each, at global
// scope and in AscendC::tiling. Host code fills them with the *TilingFunc helpers
// (softmax_tiling.h) or through the optiling classes of the same name.
#pragma once

#include <cstdint>

#define ASCENDC_SOFTMAX_TILING_FIELDS \
    uint32_t srcM = 0;                \
    uint32_t srcK = 0;                \
    uint32_t srcSize = 0;             \
    uint32_t outMaxM = 0;             \
    uint32_t outMaxK = 0;             \
    uint32_t outMaxSize = 0;          \
    uint32_t splitM = 0;              \
    uint32_t splitK = 0;              \
    uint32_t splitSize = 0;           \
    uint32_t reduceM = 0;             \
    uint32_t reduceK = 0;             \
    uint32_t reduceSize = 0;          \
    uint32_t rangeM = 0;              \
    uint32_t tailM = 0;               \
    uint32_t tailSplitSize = 0;       \
    uint32_t tailReduceSize = 0;

// How SoftMax, SimpleSoftMax, SoftmaxFlashV2, SoftmaxGrad split their rows (element counts).
struct SoftMaxTiling {
    ASCENDC_SOFTMAX_TILING_FIELDS
};
// LogSoftMax's tiling: the same fields.
struct LogSoftMaxTiling {
    ASCENDC_SOFTMAX_TILING_FIELDS
};
#undef ASCENDC_SOFTMAX_TILING_FIELDS

static_assert(sizeof(SoftMaxTiling) == 64, "SoftMaxTiling is 16 uint32_t");
static_assert(sizeof(LogSoftMaxTiling) == 64, "LogSoftMaxTiling is 16 uint32_t");

namespace AscendC {
namespace tiling {
using ::LogSoftMaxTiling;
using ::SoftMaxTiling;
}  // namespace tiling
}  // namespace AscendC
