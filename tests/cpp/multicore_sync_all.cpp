// Two phases separated by SyncAll: phase 1 writes each block's row, phase 2 sums every other
// block's row. argv[1] = "hard" (SyncAll()) or "soft" (SyncAll(gmWorkspace, ubWorkspace)).
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr int32_t BLOCKS = 8;

extern "C" __global__ __aicore__ void two_phase(GM_ADDR work, GM_ADDR out, GM_ADDR sync, GM_ADDR soft)
{
    int32_t b = GetBlockIdx(), n = GetBlockNum();
    TPipe pipe;
    TQue<QuePosition::VECOUT, 2> que;
    TBuf<TPosition::VECCALC> ws;
    pipe.InitBuffer(que, 2, 32);
    pipe.InitBuffer(ws, n * 32);
    GlobalTensor<int32_t> workGm, outGm, syncGm;
    workGm.SetGlobalBuffer((__gm__ int32_t*)work);
    outGm.SetGlobalBuffer((__gm__ int32_t*)out);
    syncGm.SetGlobalBuffer((__gm__ int32_t*)sync, n * 8);
    LocalTensor<int32_t> t = que.AllocTensor<int32_t>();
    Duplicate(t, b + 1, 8);
    DataCopy(workGm[b * 8], t, 8);
    if (*(__gm__ int32_t*)soft) {
        SyncAll(syncGm, ws.Get<int32_t>());
    } else {
        SyncAll();
    }
    LocalTensor<int32_t> acc = que.AllocTensor<int32_t>();
    Duplicate(acc, 0, 8);
    for (int32_t o = 0; o < n; o++) {
        if (o != b) {
            DataCopy(t, workGm[o * 8], 8);
            Add(acc, acc, t, 8);
        }
    }
    DataCopy(outGm[b * 8], acc, 8);
    que.FreeTensor(t);
    que.FreeTensor(acc);
}

int main(int argc, char** argv)
{
    int32_t* work = (int32_t*)GmAlloc(BLOCKS * 32);
    int32_t* out = (int32_t*)GmAlloc(BLOCKS * 32);
    int32_t* sync = (int32_t*)GmAlloc(BLOCKS * 32);
    int32_t* soft = (int32_t*)GmAlloc(4);
    *soft = argc > 1 && std::strcmp(argv[1], "soft") == 0;
    ICPU_RUN_KF(two_phase, BLOCKS, (GM_ADDR)work, (GM_ADDR)out, (GM_ADDR)sync, (GM_ADDR)soft);
    int wrong = 0;
    for (int b = 0; b < BLOCKS; b++) {
        for (int k = 0; k < 8; k++) {
            wrong += out[b * 8 + k] != 36 - (b + 1);
        }
    }
    std::printf("%s\n", wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0 ? 0 : 1;
}
