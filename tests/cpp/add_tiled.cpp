// A multi-core Add: each block takes its share of the vectors, splits it into tiles and
// double-buffers them (two buffers per queue). The tiling arrives either as a struct passed by
// value or as a struct read from a GM pointer.
#include "kernel_operator.h"

using namespace AscendC;

struct AddTiling {
    uint32_t totalLength;
    uint32_t tileNum;
};

constexpr int32_t BUFFER_NUM = 2;

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddTiling& tiling)
    {
        blockLength = tiling.totalLength / GetBlockNum();
        tileNum = tiling.tileNum;
        tileLength = blockLength / tileNum / BUFFER_NUM;
        uint64_t start = blockLength * GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float*)x + start, blockLength);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, blockLength);
        zGm.SetGlobalBuffer((__gm__ float*)z + start, blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        int32_t loopCount = tileNum * BUFFER_NUM;
        for (int32_t i = 0; i < loopCount; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
        DataCopy(xLocal, xGm[progress * tileLength], tileLength);
        DataCopy(yLocal, yGm[progress * tileLength], tileLength);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        Add(zLocal, xLocal, yLocal, tileLength);
        outQueueZ.EnQue<float>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        DataCopy(zGm[progress * tileLength], zLocal, tileLength);
        outQueueZ.FreeTensor(zLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    GlobalTensor<float> xGm, yGm, zGm;
    uint32_t blockLength = 0;
    uint32_t tileNum = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void add_tiled(GM_ADDR x, GM_ADDR y, GM_ADDR z, AddTiling tiling)
{
    KernelAdd op;
    op.Init(x, y, z, tiling);
    op.Process();
}

extern "C" __global__ __aicore__ void add_tiled_gm(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(AddTiling, tilingData, tiling);
    KernelAdd op;
    op.Init(x, y, z, tilingData);
    op.Process();
}
