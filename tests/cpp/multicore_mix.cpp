// A MIX kernel: each AIC moves a 16-float tile GM -> L1 -> GM workspace and sets cross-core flag
// 3 (mode 2); both AIVs of its AI Core wait for it, double their half of the tile and store it.
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr int32_t BLOCKS = 3;

extern "C" __global__ __aicore__ void handover(GM_ADDR src, GM_ADDR ws, GM_ADDR out)
{
    TPipe pipe;
    GlobalTensor<float> srcGm, wsGm, outGm;
    srcGm.SetGlobalBuffer((__gm__ float*)src);
    wsGm.SetGlobalBuffer((__gm__ float*)ws);
    outGm.SetGlobalBuffer((__gm__ float*)out);
    if (GetTaskRatio() == 1) {
        int32_t group = GetBlockIdx();
        TQue<QuePosition::A1, 1> l1;
        pipe.InitBuffer(l1, 1, 64);
        LocalTensor<float> t = l1.AllocTensor<float>();
        DataCopy(t, srcGm[group * 16], 16);
        DataCopy(wsGm[group * 16], t, 16);
        CrossCoreSetFlag<2, PIPE_MTE3>(3);
        l1.FreeTensor(t);
    } else {
        int32_t v = GetBlockIdx(), group = v / 2;
        TQue<QuePosition::VECIN, 1> que;
        pipe.InitBuffer(que, 1, 32);
        CrossCoreWaitFlag<2, PIPE_MTE2>(3);
        LocalTensor<float> t = que.AllocTensor<float>();
        DataCopy(t, wsGm[group * 16 + (v % 2) * 8], 8);
        Add(t, t, t, 8);
        DataCopy(outGm[v * 8], t, 8);
        que.FreeTensor(t);
    }
}

int main()
{
    float* src = (float*)GmAlloc(BLOCKS * 64);
    float* ws = (float*)GmAlloc(BLOCKS * 64);
    float* out = (float*)GmAlloc(BLOCKS * 64);
    for (int i = 0; i < BLOCKS * 16; i++) {
        src[i] = i;
    }
    SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(handover, BLOCKS, (GM_ADDR)src, (GM_ADDR)ws, (GM_ADDR)out);
    int wrong = 0;
    for (int i = 0; i < BLOCKS * 16; i++) {
        wrong += out[i] != 2.0f * i;
    }
    std::printf("%s\n", wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0 ? 0 : 1;
}
