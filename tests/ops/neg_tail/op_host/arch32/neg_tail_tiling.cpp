// NegTail's TilingFunc for A2 (tiling directory arch32 in CMakeLists.txt): 256-element tiles.
#include "../neg_tail_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) { return NegTailTiling(context, 256); }
}  // namespace optiling

IMPL_OP_OPTILING(NegTail).Tiling(optiling::TilingFunc);
