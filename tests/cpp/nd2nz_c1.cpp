// ND -> NZ DataCopy from GM into a C1 tensor (L1 on Atlas A2), as the vendor's GM -> L1 example
// loads its bias: a bias row of 20 floats ({1, 1, 20, 0, 20, 1, 1, 0}: three 8-float groups, the
// last padded with zeros), and a 2 x 16 float matrix whose two 8-column groups are 2 rows apart
// ({1, 2, 16, 0, 16, 2, 1, 0}). Each is copied back L1 -> GM and checked.
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void nd2nz_c1(GM_ADDR src, GM_ADDR out)
{
    TPipe pipe;
    TQue<TPosition::C1, 1> que;
    pipe.InitBuffer(que, 1, 64 * sizeof(float));
    GlobalTensor<float> srcGm, outGm;
    srcGm.SetGlobalBuffer((__gm__ float*)src, 32);
    outGm.SetGlobalBuffer((__gm__ float*)out, 56);
    LocalTensor<float> c1 = que.AllocTensor<float>();
    DataCopy(c1, srcGm, Nd2NzParams{1, 1, 20, 0, 20, 1, 1, 0});
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, c1, 24);
    PipeBarrier<PIPE_ALL>();
    DataCopy(c1, srcGm, Nd2NzParams{1, 2, 16, 0, 16, 2, 1, 0});
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm[24], c1, 32);
    que.FreeTensor(c1);
}

int main()
{
    float* src = (float*)GmAlloc(32 * sizeof(float));
    float* out = (float*)GmAlloc(56 * sizeof(float));
    for (int i = 0; i < 32; i++) {
        src[i] = static_cast<float>(i + 1);
        out[i] = -1.0f;
    }
    SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(nd2nz_c1, 1, (GM_ADDR)src, (GM_ADDR)out);
    float want[56];
    for (int i = 0; i < 24; i++) {
        want[i] = i < 20 ? static_cast<float>(i + 1) : 0.0f;
    }
    // Group g of row r of the 2 x 16 matrix lands at 8 * (2 * g + r).
    for (int g = 0; g < 2; g++) {
        for (int r = 0; r < 2; r++) {
            for (int c = 0; c < 8; c++) {
                want[24 + 8 * (2 * g + r) + c] = static_cast<float>(r * 16 + g * 8 + c + 1);
            }
        }
    }
    int wrong = 0;
    for (int i = 0; i < 56; i++) {
        if (out[i] != want[i]) {
            if (wrong < 4) {
                std::printf("  [%d] got %g want %g\n", i, out[i], want[i]);
            }
            wrong++;
        }
    }
    std::printf("nd2nz_c1: %s\n", wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0 ? 0 : 1;
}
