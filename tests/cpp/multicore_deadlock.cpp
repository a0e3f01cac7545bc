// Three kernels that never finish on the device: argv[1] = "syncall" (block 2 skips SyncAll),
// "ibwait" (block 1 waits for an IBSet event nobody sets), "crosscore" (the AIVs wait for a
// cross-core flag the AIC never sets). The launch fails with the wait-for graph.
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void skip_sync(GM_ADDR)
{
    if (GetBlockIdx() != 2) {
        SyncAll();
    }
}

extern "C" __global__ __aicore__ void wait_unset(GM_ADDR sync)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ws;
    pipe.InitBuffer(ws, 32);
    GlobalTensor<int32_t> syncGm;
    syncGm.SetGlobalBuffer((__gm__ int32_t*)sync);
    if (GetBlockIdx() == 1) {
        IBWait(syncGm, ws.Get<int32_t>(), 0, 1);
    } else {
        IBSet(syncGm, ws.Get<int32_t>(), 0, 0);
    }
}

extern "C" __global__ __aicore__ void flag_unset(GM_ADDR)
{
    if (GetTaskRatio() == 2) {
        CrossCoreWaitFlag<2, PIPE_V>(5);
    }
}

int main(int argc, char** argv)
{
    const char* which = argc > 1 ? argv[1] : "";
    int32_t* sync = (int32_t*)GmAlloc(4 * 32);
    if (std::strcmp(which, "syncall") == 0) {
        ICPU_RUN_KF(skip_sync, 4, (GM_ADDR)sync);
    } else if (std::strcmp(which, "ibwait") == 0) {
        ICPU_RUN_KF(wait_unset, 2, (GM_ADDR)sync);
    } else {
        SetKernelMode(KernelMode::MIX_MODE);
        ICPU_RUN_KF(flag_unset, 2, (GM_ADDR)sync);
    }
    std::printf("finished\n");
    return 0;
}
