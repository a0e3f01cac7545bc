// Tiling of NegTail: one tile of tileLength elements per block; the last block's tile holds the
// remainder.
#ifndef NEG_TAIL_TILING_H
#define NEG_TAIL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(NegTailTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(NegTail, NegTailTilingData)
}  // namespace optiling

// The TilingFunc of the product's tiling directory, with its tile length in elements.
ge::graphStatus NegTailTiling(gert::TilingContext* context, uint32_t tileLength);
#endif
