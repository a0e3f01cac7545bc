// row_compact: y[r][c] = x[r][c] - max_c x[r][c] for an [8, 5] float matrix whose rows are not
// 32-byte aligned (20 bytes each).
//
// Phase 1 loads the rows padded to one 32-byte block each (DataCopyPad, padding -3e38) and
// takes the row maxima with ReduceDataBlock<MAX>. Phase 2 reloads the rows, broadcasts each row
// maximum over its block with Brcb, subtracts, and compacts the 5 valid elements of every row
// into a dense [8, 5] result with GatherMask and a pattern tensor. The two phases run in two
// TBufPools that share the same UB bytes: phase 1's pool is Reset before phase 2 uses them.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t ROWS = 8;
constexpr uint32_t COLS = 5;
constexpr uint32_t PADDED = 8;  // one 32-byte block of floats per row
constexpr uint32_t TILE_BYTES = ROWS * PADDED * sizeof(float);

class KernelRowCompact {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float*)x, ROWS * COLS);
        yGm.SetGlobalBuffer((__gm__ float*)y, ROWS * COLS);
        pipe.InitBuffer(maxBuf, ROWS * sizeof(float));
        pipe.InitBufPool(phase1, 4 * TILE_BYTES);
        pipe.InitBufPool(phase2, 4 * TILE_BYTES, phase1);
    }

    __aicore__ inline void Process()
    {
        phase1.InitBuffer(inQue1, 1, TILE_BYTES);
        CopyIn(inQue1);
        RowMax();
        phase1.Reset();

        phase2.InitBuffer(inQue2, 1, TILE_BYTES);
        phase2.InitBuffer(outQue, 1, TILE_BYTES);
        phase2.InitBuffer(rowBuf, TILE_BYTES);
        phase2.InitBuffer(patternBuf, 32);
        CopyIn(inQue2);
        SubtractAndCompact();
        CopyOut();
        phase2.Reset();
    }

private:
    __aicore__ inline void CopyIn(TQue<QuePosition::VECIN, 1>& que)
    {
        LocalTensor<float> x = que.AllocTensor<float>();
        DataCopyExtParams rows{ROWS, COLS * sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{true, 0, PADDED - COLS, -3.0e38f};
        DataCopyPad(x, xGm, rows, pad);
        que.EnQue(x);
    }

    __aicore__ inline void RowMax()
    {
        LocalTensor<float> x = inQue1.DeQue<float>();
        LocalTensor<float> rowMax = maxBuf.Get<float>();
        ReduceDataBlock<ReduceType::MAX, float>(rowMax, x, ROWS * PADDED, 1, 1, 1, 8);
        inQue1.FreeTensor(x);
    }

    __aicore__ inline void SubtractAndCompact()
    {
        LocalTensor<float> x = inQue2.DeQue<float>();
        LocalTensor<float> y = outQue.AllocTensor<float>();
        LocalTensor<float> rowMax = maxBuf.Get<float>();
        LocalTensor<float> broadcast = rowBuf.Get<float>();
        LocalTensor<uint32_t> pattern = patternBuf.Get<uint32_t>();

        Brcb(broadcast, rowMax, 1, {1, 8});
        Sub(y, x, broadcast, ROWS * PADDED);
        // Bits 0..4 of every byte: the first COLS elements of each 8-element row.
        Duplicate(pattern, 0x1F1F1F1Fu, 8);
        uint64_t kept = 0;
        GatherMask(y, y, pattern, false, 0, {1, 1, 8, 0}, kept);
        outQue.EnQue(y);
        inQue2.FreeTensor(x);
    }

    __aicore__ inline void CopyOut()
    {
        LocalTensor<float> y = outQue.DeQue<float>();
        DataCopy(yGm, y, ROWS * COLS);
        outQue.FreeTensor(y);
    }

    TPipe pipe;
    TBufPool<TPosition::VECCALC> phase1, phase2;
    TQue<QuePosition::VECIN, 1> inQue1, inQue2;
    TQue<QuePosition::VECOUT, 1> outQue;
    TBuf<QuePosition::VECCALC> maxBuf, rowBuf, patternBuf;
    GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void row_compact(GM_ADDR x, GM_ADDR y)
{
    KernelRowCompact op;
    op.Init(x, y);
    op.Process();
}
