// Platform facts of the operator libraries' base layer (Ops::Base), from a TilingContext or
// TilingParseContext (its GetPlatformInfo()): UB block and vector register sizes, core counts,
// whether the product is a register-based (Ascend 950) one — never on the simulated products.
#pragma once

#include <cstdint>

#include "ascendc/host/context.h"
#include "tiling/platform/platform_ascendc.h"

namespace Ops {
namespace Base {

// Bytes of one UB block (the unit DataCopy moves): 32.
template <typename Ctx>
inline uint32_t GetUbBlockSize(const Ctx*) {
    return 32;
}

// Bytes of one vector register / repeat: 256.
template <typename Ctx>
inline uint32_t GetVRegSize(const Ctx*) {
    return 256;
}

// Bytes of one cache line: 128.
template <typename Ctx>
inline uint32_t GetCacheLineSize(const Ctx*) {
    return 128;
}

template <typename Ctx>
inline uint32_t GetAivCoreNum(const Ctx* context) {
    return platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
}

template <typename Ctx>
inline uint32_t GetAicCoreNum(const Ctx* context) {
    return platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAic();
}

// UB bytes available to the kernel.
template <typename Ctx>
inline uint64_t GetUbSize(const Ctx* context) {
    uint64_t ub = 0;
    platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    return ub;
}

// True on register-based products (architecture 3510, Ascend 950): false on every product the
// simulator models.
template <typename Ctx>
inline bool IsRegbaseSocVersion(const Ctx* context) {
    return platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCurNpuArch() ==
           platform_ascendc::NpuArch::DAV_3510;
}

}  // namespace Base
}  // namespace Ops
