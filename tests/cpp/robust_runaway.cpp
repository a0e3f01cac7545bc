// A kernel that never ends: each block copies its row into UB, then spins (block 1 before its
// Adds, the others after them). `ascendc run --timeout` ends it and names where each block was.
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr int32_t N = 64;

extern "C" __global__ __aicore__ void spin(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, N * sizeof(float));
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * N, N);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, N);
    PipeBarrier<PIPE_ALL>();
    volatile int64_t spins = 0;
    if (GetBlockIdx() == 1) {
        for (;;) {
            spins = spins + 1;
        }
    }
    Adds(t, t, 1.0f, N);
    for (;;) {
        spins = spins + 1;
    }
}

int main()
{
    float* x = (float*)AscendC::GmAlloc(2 * N * sizeof(float));
    ICPU_RUN_KF(spin, 2, (GM_ADDR)x);
    std::printf("unreachable\n");
    AscendC::GmFree(x);
    return 0;
}
