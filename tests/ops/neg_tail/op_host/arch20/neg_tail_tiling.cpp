// NegTail's TilingFunc for 310P (tiling directory arch20 in CMakeLists.txt): 128-element tiles.
#include "../neg_tail_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) { return NegTailTiling(context, 128); }
}  // namespace optiling

IMPL_OP_OPTILING(NegTail).Tiling(optiling::TilingFunc);
