// The kernel's template parameters and the combinations built, shared by op_host (which encodes
// the tiling key with ASCENDC_TPL_SEL_PARAM) and op_kernel.
//   D_T_X       element type of x, y and z
//   BUFFER_NUM  queue depth: 1 (single buffer) or 2 (double buffer)
//   TILE_LEN    elements per tile
//   RELU        z = max(x + y, 0) instead of x + y
#ifndef TPL_ADD_RELU_TILING_KEY_H
#define TPL_ADD_RELU_TILING_KEY_H

#include "graph/c_types.h"
#include "ascendc/host_api/tiling/template_argument.h"

ASCENDC_TPL_ARGS_DECL(TplAddRelu,
    ASCENDC_TPL_DATATYPE_DECL(D_T_X, C_DT_FLOAT, C_DT_FLOAT16, C_DT_INT32, C_DT_INT16, ASCENDC_TPL_INPUT(0)),
    ASCENDC_TPL_UINT_DECL(BUFFER_NUM, ASCENDC_TPL_2_BW, ASCENDC_TPL_UI_RANGE, 1, 1, 2),
    ASCENDC_TPL_UINT_DECL(TILE_LEN, ASCENDC_TPL_4_BW, ASCENDC_TPL_UI_MIX, 1, 64, 64, 128, 256, 512),
    ASCENDC_TPL_BOOL_DECL(RELU, 0, 1), );

// int16 is declared but never built; int32 has single-buffered tiles of at most 256 only.
ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT, C_DT_FLOAT16),
        ASCENDC_TPL_UINT_SEL(BUFFER_NUM, ASCENDC_TPL_UI_LIST, 1, 2),
        ASCENDC_TPL_UINT_SEL(TILE_LEN, ASCENDC_TPL_UI_LIST, 64, 128, 256, 512),
        ASCENDC_TPL_BOOL_SEL(RELU, 0, 1),
        ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY), ),
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_INT32),
        ASCENDC_TPL_UINT_SEL(BUFFER_NUM, ASCENDC_TPL_UI_RANGE, 1, 1, 1),
        ASCENDC_TPL_UINT_SEL(TILE_LEN, ASCENDC_TPL_UI_MIX, 1, 64, 64, 128, 256),
        ASCENDC_TPL_BOOL_SEL(RELU, 0, 1), ), );

#endif  // TPL_ADD_RELU_TILING_KEY_H
