// Tiling of RmsNormCustom: the rows of x [rows, H] are split over the cores (the first formerNum
// cores take one row more) and each core normalises them tileRows at a time. The RmsNorm API's own
// tiling comes for a full tile and for the last, shorter tile of each kind of core.
#ifndef RMS_NORM_CUSTOM_TILING_H
#define RMS_NORM_CUSTOM_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RmsNormCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, hLength);
TILING_DATA_FIELD_DEF(uint32_t, formerNum);
TILING_DATA_FIELD_DEF(uint32_t, formerRows);
TILING_DATA_FIELD_DEF(uint32_t, tailRows);
TILING_DATA_FIELD_DEF(uint32_t, tileRows);
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
TILING_DATA_FIELD_DEF(float, epsilon);
TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, tileTiling);
TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, formerLastTiling);
TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, tailLastTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RmsNormCustom, RmsNormCustomTilingData)
}  // namespace optiling
#endif
