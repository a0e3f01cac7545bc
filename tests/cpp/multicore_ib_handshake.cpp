// Block 0 hands block 1 three rows through one IBSet / IBWait slot: it writes row k, then
// IBSet(0, 0); block 1 waits with IBWait(0, 0), reads row k and adds it into its sum. Each IBWait
// consumes the IBSet it waited for (the slot goes back to 0), and the next IBSet waits for that,
// so every IBWait sees its own row. Prints PASS when the sum is 10 + 20 + 30 in every lane and the
// slot reads 0 afterwards.
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr int32_t ROUNDS = 3;

extern "C" __global__ __aicore__ void hand_rows(GM_ADDR rows, GM_ADDR sum, GM_ADDR sync)
{
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> que;
    TBuf<TPosition::VECCALC> ws;
    pipe.InitBuffer(que, 1, 32);
    pipe.InitBuffer(ws, 32);
    GlobalTensor<int32_t> rowsGm, sumGm, syncGm;
    rowsGm.SetGlobalBuffer((__gm__ int32_t*)rows, ROUNDS * 8);
    sumGm.SetGlobalBuffer((__gm__ int32_t*)sum, 8);
    syncGm.SetGlobalBuffer((__gm__ int32_t*)sync, 2 * 8);
    LocalTensor<int32_t> t = que.AllocTensor<int32_t>();
    if (GetBlockIdx() == 0) {
        for (int32_t k = 0; k < ROUNDS; k++) {
            Duplicate(t, (k + 1) * 10, 8);
            PipeBarrier<PIPE_ALL>();
            DataCopy(rowsGm[k * 8], t, 8);
            IBSet(syncGm, ws.Get<int32_t>(), 0, 0);
        }
    } else {
        TBuf<TPosition::VECCALC> accBuf;
        pipe.InitBuffer(accBuf, 32);
        LocalTensor<int32_t> acc = accBuf.Get<int32_t>();
        Duplicate(acc, 0, 8);
        for (int32_t k = 0; k < ROUNDS; k++) {
            IBWait(syncGm, ws.Get<int32_t>(), 0, 0);
            DataCopy(t, rowsGm[k * 8], 8);
            PipeBarrier<PIPE_ALL>();
            Add(acc, acc, t, 8);
        }
        PipeBarrier<PIPE_ALL>();
        DataCopy(sumGm, acc, 8);
    }
    que.FreeTensor(t);
}

int main()
{
    int32_t* rows = (int32_t*)GmAlloc(ROUNDS * 32);
    int32_t* sum = (int32_t*)GmAlloc(32);
    int32_t* sync = (int32_t*)GmAlloc(2 * 32);
    SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(hand_rows, 2, (GM_ADDR)rows, (GM_ADDR)sum, (GM_ADDR)sync);
    int wrong = sync[0] != 0;
    for (int i = 0; i < 8; i++) {
        wrong += sum[i] != 60;
    }
    std::printf("%s\n", wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0 ? 0 : 1;
}
