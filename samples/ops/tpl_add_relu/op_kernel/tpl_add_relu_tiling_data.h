// The tiling data of TplAddRelu, a plain struct op_host fills (GetTilingData<T>) and the kernel
// reads (GET_TILING_DATA_WITH_STRUCT).
#ifndef TPL_ADD_RELU_TILING_DATA_H
#define TPL_ADD_RELU_TILING_DATA_H

#include <cstdint>

struct TplAddReluTilingData {
    uint32_t tilesPerCore;   // whole tiles of every core but the last
    uint32_t lastCoreTiles;  // whole tiles of the last core
};

#endif  // TPL_ADD_RELU_TILING_DATA_H
