// Host helper of TransData: GetTransDataMaxMinTmpSize.
#pragma once

#include <cstdint>
#include <vector>

#include "../../tiling/platform/platform_ascendc.h"
#include "../abi.h"
#include "../host/ge_shape.h"

namespace AscendC {
#ifndef ASCC_PARAM_TRANSDATACONFIG
#define ASCC_PARAM_TRANSDATACONFIG
// The conversion TransData makes (also declared by trans_data.h; the guard is the vendor's).
struct TransDataConfig {
    DataFormat srcFormat;
    DataFormat dstFormat;
};
#endif  // ASCC_PARAM_TRANSDATACONFIG
}  // namespace AscendC

extern "C" {
bool ascendc_adv_trans_data_tmp_size(uint32_t npuArch, const int64_t* srcDims, uint32_t srcRank,
                                     const int64_t* dstDims, uint32_t dstRank, int32_t dataType, uint8_t srcFormat,
                                     uint8_t dstFormat, uint32_t* maxValue, uint32_t* minValue);
}

namespace AscendC {
// Bytes of TransData's temporary space (maxValue == minValue) for the shapes of its Layouts;
// false (the reason on stderr) for a product other than A2/A3, a type other than
// DT_FLOAT16/DT_BF16/DT_INT16/DT_UINT16, another conversion, or shapes that do not match.
inline bool GetTransDataMaxMinTmpSize(const platform_ascendc::PlatformAscendC& platform, const ge::Shape& srcShape,
                                      const ge::Shape& dstShape, const ge::DataType dataType,
                                      const TransDataConfig& config, uint32_t& maxValue, uint32_t& minValue) {
    const std::vector<int64_t> s = srcShape.GetDims();
    const std::vector<int64_t> d = dstShape.GetDims();
    return ascendc_adv_trans_data_tmp_size(static_cast<uint32_t>(platform.GetCurNpuArch()), s.data(),
                                           static_cast<uint32_t>(s.size()), d.data(),
                                           static_cast<uint32_t>(d.size()), static_cast<int32_t>(dataType),
                                           static_cast<uint8_t>(config.srcFormat),
                                           static_cast<uint8_t>(config.dstFormat), &maxValue, &minValue);
}
}  // namespace AscendC
