// y = softmax(x) over the last axis: each core takes its rows tileRows at a time through the
// SoftMax high-level API (the tail tile with its own SoftMaxShapeInfo: the API re-tiles it).
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelSoftmax {
public:
    __aicore__ inline KernelSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftmaxCustomTilingData& t)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        rowLength = t.rowLength;
        tileRows = t.tileRows;
        softmaxTiling = t.softmaxTiling;
        uint32_t firstRow;
        if (idx < t.formerNum) {
            rows = t.formerRows;
            firstRow = idx * t.formerRows;
        } else {
            rows = t.tailRows;
            firstRow = t.formerNum * t.formerRows + (idx - t.formerNum) * t.tailRows;
        }
        xGm.SetGlobalBuffer((__gm__ T*)x + firstRow * rowLength, rows * rowLength);
        yGm.SetGlobalBuffer((__gm__ T*)y + firstRow * rowLength, rows * rowLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileRows * rowLength * sizeof(T));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileRows * rowLength * sizeof(T));
        pipe.InitBuffer(tmpBuf, t.tmpBytes);
    }
    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < rows; done += tileRows) {
            uint32_t n = rows - done < tileRows ? rows - done : tileRows;
            CopyIn(done, n);
            Compute(n);
            CopyOut(done, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t n)
    {
        AscendC::LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
        AscendC::DataCopy(xLocal, xGm[row * rowLength], n * rowLength);
        inQueue.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t n)
    {
        AscendC::LocalTensor<T> xLocal = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
        AscendC::LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
        AscendC::SoftMaxShapeInfo shape = {n, rowLength, n, rowLength};
        AscendC::SoftMax<T>(yLocal, xLocal, tmp, softmaxTiling, shape);
        outQueue.EnQue<T>(yLocal);
        inQueue.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t row, uint32_t n)
    {
        AscendC::LocalTensor<T> yLocal = outQueue.DeQue<T>();
        AscendC::DataCopy(yGm[row * rowLength], yLocal, n * rowLength);
        outQueue.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    SoftMaxTiling softmaxTiling;
    uint32_t rowLength;
    uint32_t rows;
    uint32_t tileRows;
};

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    if (TILING_KEY_IS(1)) {
        KernelSoftmax<DTYPE_X> op;
        op.Init(x, y, tilingData);
        op.Process();
    }
}
