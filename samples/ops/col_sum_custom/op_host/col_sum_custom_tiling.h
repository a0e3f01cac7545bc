// Tiling of ColSumCustom: per core, the first row and the row count it sums (arrays indexed by
// block), and the column count.
#ifndef COL_SUM_CUSTOM_TILING_H
#define COL_SUM_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t COL_SUM_MAX_CORES = 64;

BEGIN_TILING_DATA_DEF(ColSumCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, cols);
TILING_DATA_FIELD_DEF(uint32_t, usedCores);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 64, rowStart);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 64, rowCount);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ColSumCustom, ColSumCustomTilingData)
}  // namespace optiling
#endif
