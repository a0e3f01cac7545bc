// The tiling data of BiasAddBase, a plain struct op_host fills (GetTilingData<T>) and the kernel
// reads (GET_TILING_DATA_WITH_STRUCT).
#ifndef BIAS_ADD_BASE_TILING_DATA_H
#define BIAS_ADD_BASE_TILING_DATA_H

#include <cstdint>

struct BiasAddBaseTilingData {
    uint32_t rowsPerCore;   // rows of every core but the last
    uint32_t lastCoreRows;  // rows of the last core
    uint32_t cols;          // elements per row
    uint32_t tileCols;      // elements per tile; divides cols, whole 32-byte blocks
    float alpha;
    uint32_t relu;          // 1: max(y, 0)
};

#endif  // BIAS_ADD_BASE_TILING_DATA_H
