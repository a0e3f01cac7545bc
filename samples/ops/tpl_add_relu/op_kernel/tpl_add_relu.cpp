// The kernel entry of TplAddRelu: a template whose arguments the tiling key selects.
#include "tpl_add_relu_tiling_key.h"
#include "tpl_add_relu.h"

template <typename D_T_X, uint32_t BUFFER_NUM, uint32_t TILE_LEN, bool RELU>
__global__ __aicore__ void tpl_add_relu(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TplAddReluTilingData);
    GET_TILING_DATA_WITH_STRUCT(TplAddReluTilingData, tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    NsTplAddRelu::TplAddRelu<D_T_X, BUFFER_NUM, TILE_LEN, RELU> op;
    op.Init(x, y, z, tilingData);
    op.Process();
}
