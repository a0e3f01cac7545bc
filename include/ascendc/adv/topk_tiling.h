// Host helpers of the sort family: the optiling::TopkTiling class (for
// TILING_DATA_FIELD_DEF_STRUCT), TopKTilingFunc and GetTopKMaxMinTmpSize as the vendor's
// topk_tiling.h declares them, and the high-level Sort's GetConcatTmpSize / GetSortTmpSize /
// GetSortMaxMinTmpSize.
#pragma once

#include <cstdio>
#include <cstring>
#include <string>

#include "../../register/tilingdata_base.h"
#include "../../tiling/platform/platform_ascendc.h"
#include "../host/ge_shape.h"
#include "common.h"
#include "topk_struct.h"

extern "C" {
bool ascendc_adv_topk_tmp_size(uint32_t npuArch, uint64_t ubBytes, int32_t inner, int32_t outter, uint8_t flags,
                               uint8_t topkMode, uint32_t typeSize, uint32_t* maxValue, uint32_t* minValue,
                               char* msg, uint32_t cap);
bool ascendc_adv_topk_tiling(uint32_t npuArch, uint64_t ubBytes, int32_t inner, int32_t outter, int32_t k,
                             uint32_t typeSize, uint8_t flags, uint8_t topkMode, void* out, char* msg, uint32_t cap);
uint32_t ascendc_adv_sort_tmp_size(uint32_t npuArch, uint8_t which, uint32_t elemCount, uint32_t typeSize);
}

// One field of the host class (written without the BEGIN_TILING_DATA_DEF macros, which a kernel
// header included later may have redefined).
#define ASCENDC_TOPK_HOST_FIELD(type, field)                                                                  \
private:                                                                                                      \
    ::optiling::detail::FieldSlot field##_ascendc_slot_ =                                                     \
        ::optiling::detail::FieldSlot::Scalar<type>(this, #type, #field, 1);                                  \
                                                                                                              \
public:                                                                                                       \
    void set_##field(type value) { AscendcPut(field##_ascendc_slot_.offset, &value, sizeof(type)); }          \
    type get_##field() const {                                                                                \
        type value;                                                                                           \
        AscendcGet(field##_ascendc_slot_.offset, &value, sizeof(type));                                       \
        return value;                                                                                         \
    }
#define ASCENDC_TOPK_HOST_I32(f) ASCENDC_TOPK_HOST_FIELD(int32_t, f)
#define ASCENDC_TOPK_HOST_U32(f) ASCENDC_TOPK_HOST_FIELD(uint32_t, f)
#define ASCENDC_TOPK_HOST_U16(f) ASCENDC_TOPK_HOST_FIELD(uint16_t, f)

namespace optiling {
// TopK's tiling as a host tiling class: the fields of ::TopkTiling, in its layout.
class TopkTiling : public ::optiling::TilingDef {
public:
    TopkTiling() : ::optiling::TilingDef("TopkTiling") {}
    ASCENDC_TOPK_TILING_FIELDS(ASCENDC_TOPK_HOST_I32, ASCENDC_TOPK_HOST_U32, ASCENDC_TOPK_HOST_U16)
public:
    // The 112 bytes of the kernel struct.
    void AscendcFrom(const void* bytes) { AscendcPut(0, bytes, sizeof(::TopkTiling)); }
};
}  // namespace optiling

#undef ASCENDC_TOPK_HOST_I32
#undef ASCENDC_TOPK_HOST_U32
#undef ASCENDC_TOPK_HOST_U16
#undef ASCENDC_TOPK_HOST_FIELD

namespace AscendC {
namespace detail {
inline uint64_t TopKUbBytes(const platform_ascendc::PlatformAscendC& p) {
    uint64_t ub = 0;
    p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    return ub;
}
inline uint8_t TopKFlags(bool isInitIndex, bool isReuseSource, bool isLargest) {
    return (isInitIndex ? 1 : 0) | (isReuseSource ? 4 : 0) | (isLargest ? 8 : 0);
}
inline bool TopKTilingTo(const platform_ascendc::PlatformAscendC& p, int32_t inner, int32_t outter, int32_t k,
                         uint32_t dataTypeSize, bool isInitIndex, TopKMode mode, bool isLargest, ::TopkTiling& out) {
    char msg[256];
    if (!ascendc_adv_topk_tiling(static_cast<uint32_t>(p.GetCurNpuArch()), TopKUbBytes(p), inner, outter, k,
                                 dataTypeSize, TopKFlags(isInitIndex, false, isLargest),
                                 mode == TopKMode::TOPK_NORMAL ? 0 : 1, &out, msg, sizeof msg)) {
        ascendc_host::Fail(msg);
    }
    return true;
}
}  // namespace detail

// Bytes of TopK's temporary space (max == min).
inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                                 const int32_t outter, const bool isReuseSource, const bool isInitIndex,
                                 enum TopKMode mode, const bool isLargest, const uint32_t dataTypeSize,
                                 uint32_t& maxValue, uint32_t& minValue) {
    char msg[256];
    if (!ascendc_adv_topk_tmp_size(static_cast<uint32_t>(ascendcPlatform.GetCurNpuArch()),
                                   detail::TopKUbBytes(ascendcPlatform), inner, outter,
                                   detail::TopKFlags(isInitIndex, isReuseSource, isLargest),
                                   mode == TopKMode::TOPK_NORMAL ? 0 : 1, dataTypeSize, &maxValue, &minValue, msg,
                                   sizeof msg)) {
        ascendc_host::Fail(msg);
    }
    return true;
}
// The RADIX_SELECT form (TopKConfig, a TensorDataType): Ascend 950 only.
inline bool GetTopKMaxMinTmpSize(const int32_t, const int32_t, const int32_t, const bool, const bool, enum TopKMode,
                                 const bool, ge::DataType, const TopKConfig&, uint32_t&, uint32_t&) {
    std::fprintf(stderr, "[ERROR] GetTopKMaxMinTmpSize: Unsupported NpuArch of Topk radix select API "
                         "(the TopKConfig form is Ascend 950's)\n");
    return false;
}

// Fills TopK's tiling for a call.
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, optiling::TopkTiling& topKTiling) {
    ::TopkTiling plain;
    detail::TopKTilingTo(ascendcPlatform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest, plain);
    topKTiling.AscendcFrom(&plain);
    return true;
}
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, ::TopkTiling& topKTiling) {
    return detail::TopKTilingTo(ascendcPlatform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest,
                                topKTiling);
}

// Bytes of Concat's temporary space (none on A2/A3).
inline uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                                 const uint32_t dataTypeSize) {
    return ascendc_adv_sort_tmp_size(static_cast<uint32_t>(ascendcPlatform.GetCurNpuArch()), 0, elemCount,
                                     dataTypeSize);
}
// Bytes of Sort's temporary space.
inline uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                               const uint32_t dataTypeSize) {
    return ascendc_adv_sort_tmp_size(static_cast<uint32_t>(ascendcPlatform.GetCurNpuArch()), 1, elemCount,
                                     dataTypeSize);
}
// The temporary space of Ascend 950's Sort<T, isReuseSource, config>: on the simulated products
// the device's helper reports "Unsupported NpuArch" and leaves maxValue / minValue as they were
// (indeterminate); here they read 0, so a caller falls back to its own buffers.
inline void GetSortMaxMinTmpSize(const ge::Shape& srcShape, ge::DataType valueType, ge::DataType indexType,
                                 bool isReuseSource, const SortConfig& config, uint32_t& maxValue,
                                 uint32_t& minValue) {
    (void)srcShape, (void)valueType, (void)indexType, (void)isReuseSource, (void)config;
    std::fprintf(stderr, "[WARNING] GetSortMaxMinTmpSize: Unsupported NpuArch for Sort API (Ascend 950 only); "
                         "maxValue and minValue set to 0\n");
    maxValue = 0;
    minValue = 0;
}
}  // namespace AscendC
