// z = x + y, or max(x + y, 0): each core streams its whole tiles of TILE_LEN elements through
// queues BUFFER_NUM deep.
#ifndef TPL_ADD_RELU_H
#define TPL_ADD_RELU_H

#include "kernel_operator.h"
#include "tpl_add_relu_tiling_data.h"

namespace NsTplAddRelu {

template <typename T, uint32_t BUFFER_NUM, uint32_t TILE_LEN, bool RELU>
class TplAddRelu {
public:
    __aicore__ inline TplAddRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const TplAddReluTilingData& t)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        tiles = idx + 1 == AscendC::GetBlockNum() ? t.lastCoreTiles : t.tilesPerCore;
        uint32_t start = idx * t.tilesPerCore * TILE_LEN;
        xGm.SetGlobalBuffer((__gm__ T*)x + start, tiles * TILE_LEN);
        yGm.SetGlobalBuffer((__gm__ T*)y + start, tiles * TILE_LEN);
        zGm.SetGlobalBuffer((__gm__ T*)z + start, tiles * TILE_LEN);
        pipe.InitBuffer(inX, BUFFER_NUM, TILE_LEN * sizeof(T));
        pipe.InitBuffer(inY, BUFFER_NUM, TILE_LEN * sizeof(T));
        pipe.InitBuffer(outZ, BUFFER_NUM, TILE_LEN * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tiles; ++i) {
            AscendC::LocalTensor<T> xl = inX.template AllocTensor<T>();
            AscendC::LocalTensor<T> yl = inY.template AllocTensor<T>();
            AscendC::DataCopy(xl, xGm[i * TILE_LEN], TILE_LEN);
            AscendC::DataCopy(yl, yGm[i * TILE_LEN], TILE_LEN);
            inX.EnQue(xl);
            inY.EnQue(yl);
            xl = inX.template DeQue<T>();
            yl = inY.template DeQue<T>();
            AscendC::LocalTensor<T> zl = outZ.template AllocTensor<T>();
            AscendC::Add(zl, xl, yl, TILE_LEN);
            if constexpr (RELU) {
                AscendC::Maxs(zl, zl, T(0), TILE_LEN);
            }
            outZ.EnQue(zl);
            inX.FreeTensor(xl);
            inY.FreeTensor(yl);
            zl = outZ.template DeQue<T>();
            AscendC::DataCopy(zGm[i * TILE_LEN], zl, TILE_LEN);
            outZ.FreeTensor(zl);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inX, inY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outZ;
    AscendC::GlobalTensor<T> xGm, yGm, zGm;
    uint32_t tiles = 0;
};

}  // namespace NsTplAddRelu

#endif  // TPL_ADD_RELU_H
