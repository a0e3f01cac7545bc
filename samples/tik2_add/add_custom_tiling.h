// Tiling of add_custom: how the vector is split between blocks and tiles.
#pragma once
#include <cstdint>

BEGIN_TILING_DATA_DEF(TilingData)
TILING_DATA_FIELD_DEF(uint32_t, blockDim)
TILING_DATA_FIELD_DEF(uint32_t, totalLength)
TILING_DATA_FIELD_DEF(uint32_t, tileNum)
END_TILING_DATA_DEF;
