// y = x * scale: each core scales its rows tile by tile; tiling key 1 moves whole rows with
// DataCopy, tiling key 2 moves rows that are not whole 32-byte blocks with DataCopyPad.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T, bool PADDED>
class KernelScale {
public:
    __aicore__ inline KernelScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ScaleCustomTilingData& t)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint32_t firstRow;
        if (idx < t.formerNum) {
            rows = t.formerRows;
            firstRow = idx * t.formerRows;
        } else {
            rows = t.tailRows;
            firstRow = t.formerNum * t.formerRows + (idx - t.formerNum) * t.tailRows;
        }
        cols = t.cols;
        colsAligned = t.colsAligned;
        rowsPerTile = t.rowsPerTile;
        scale = static_cast<T>(t.scale);
        xGm.SetGlobalBuffer((__gm__ T*)x + firstRow * cols, rows * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + firstRow * cols, rows * cols);
        pipe.InitBuffer(inQueue, BUFFER_NUM, rowsPerTile * colsAligned * sizeof(T));
        pipe.InitBuffer(outQueue, BUFFER_NUM, rowsPerTile * colsAligned * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t row = 0; row < rows; row += rowsPerTile) {
            uint32_t n = rows - row < rowsPerTile ? rows - row : rowsPerTile;
            AscendC::LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
            if constexpr (PADDED) {
                AscendC::DataCopyExtParams copy(n, cols * sizeof(T), 0, 0, 0);
                AscendC::DataCopyPadExtParams<T> pad(false, 0, 0, 0);
                AscendC::DataCopyPad(xLocal, xGm[row * cols], copy, pad);
            } else {
                AscendC::DataCopy(xLocal, xGm[row * cols], n * cols);
            }
            inQueue.EnQue(xLocal);

            xLocal = inQueue.DeQue<T>();
            AscendC::LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
            AscendC::Muls(yLocal, xLocal, scale, n * colsAligned);
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);

            yLocal = outQueue.DeQue<T>();
            if constexpr (PADDED) {
                AscendC::DataCopyExtParams copy(n, cols * sizeof(T), 0, 0, 0);
                AscendC::DataCopyPad(yGm[row * cols], yLocal, copy);
            } else {
                AscendC::DataCopy(yGm[row * cols], yLocal, n * cols);
            }
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint32_t rows, cols, colsAligned, rowsPerTile;
    T scale;
};

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        KernelScale<DTYPE_X, false> op;
        op.Init(x, y, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelScale<DTYPE_X, true> op;
        op.Init(x, y, tilingData);
        op.Process();
    }
}
