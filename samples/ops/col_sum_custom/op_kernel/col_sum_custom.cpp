// Column sums: each core adds its rows into an accumulator row and stores it in its slot of the
// user workspace; after a software SyncAll (its flags in the user workspace too, so that the
// kernel runs on products without the hardware barrier), core 0 adds the slots in core order
// and writes y.
#include "kernel_operator.h"

// int32 barrier flags per core (32 bytes).
constexpr uint32_t SYNC_INTS = 8;

class KernelColSum {
public:
    __aicore__ inline KernelColSum() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR user, const ColSumCustomTilingData& t)
    {
        idx = AscendC::GetBlockIdx();
        cols = t.cols;
        usedCores = t.usedCores;
        rowCount = t.rowCount[idx];
        xGm.SetGlobalBuffer((__gm__ float*)x + t.rowStart[idx] * cols, rowCount * cols);
        yGm.SetGlobalBuffer((__gm__ float*)y, cols);
        // User workspace: 32 bytes of barrier flags per core, then one partial row per core.
        syncGm.SetGlobalBuffer((__gm__ int32_t*)user, usedCores * SYNC_INTS);
        partGm.SetGlobalBuffer((__gm__ float*)user + usedCores * SYNC_INTS, usedCores * cols);
        pipe.InitBuffer(inQueue, 2, cols * sizeof(float));
        pipe.InitBuffer(outQueue, 1, cols * sizeof(float));
        pipe.InitBuffer(accBuf, cols * sizeof(float));
        pipe.InitBuffer(syncBuf, usedCores * SYNC_INTS * sizeof(int32_t));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        Accumulate(acc, xGm, rowCount);
        Store(partGm[idx * cols], acc);
        AscendC::SyncAll(syncGm, syncBuf.Get<int32_t>(), usedCores);
        if (idx == 0) {
            Accumulate(acc, partGm, usedCores);
            Store(yGm, acc);
        }
    }

private:
    // acc = 0 + row 0 + row 1 + … of `src` (n rows of cols floats), in row order.
    __aicore__ inline void Accumulate(const AscendC::LocalTensor<float>& acc, const AscendC::GlobalTensor<float>& src,
                                      uint32_t n)
    {
        AscendC::Duplicate(acc, 0.0f, cols);
        for (uint32_t r = 0; r < n; ++r) {
            AscendC::LocalTensor<float> row = inQueue.AllocTensor<float>();
            AscendC::DataCopy(row, src[r * cols], cols);
            inQueue.EnQue(row);
            row = inQueue.DeQue<float>();
            AscendC::Add(acc, acc, row, cols);
            inQueue.FreeTensor(row);
        }
    }
    __aicore__ inline void Store(const AscendC::GlobalTensor<float>& dst, const AscendC::LocalTensor<float>& acc)
    {
        AscendC::LocalTensor<float> out = outQueue.AllocTensor<float>();
        AscendC::Muls(out, acc, 1.0f, cols);
        outQueue.EnQue(out);
        out = outQueue.DeQue<float>();
        AscendC::DataCopy(dst, out, cols);
        outQueue.FreeTensor(out);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> accBuf, syncBuf;
    AscendC::GlobalTensor<float> xGm, yGm, partGm;
    AscendC::GlobalTensor<int32_t> syncGm;
    uint32_t idx, cols, usedCores, rowCount;
};

extern "C" __global__ __aicore__ void col_sum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    AscendC::SetSysWorkspace(workspace);
    GM_ADDR user = AscendC::GetUserWorkspace(workspace);
    KernelColSum op;
    op.Init(x, y, user, tilingData);
    op.Process();
}
