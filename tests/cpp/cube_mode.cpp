// The Mmad control bits: HF32 (SetHF32Mode / SetHF32TransMode, enum and bool forms) and the
// result order (SetMMRowMajor, SetMMColumnMajor, SetMMLayoutTransform). A = 1 + 2^-12 (halfway
// between two HF32 values) and B = 1 everywhere, K = 8: plain fp32 gives 8 + 2^-9, HF32 with ties
// to even 8, with ties away from zero 8 + 2^-8; the order bits change nothing.
#include <cmath>
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t M = 16, N = 16, K = 8;

static int g_mode = 0;

__global__ __aicore__ void hf32_matmul(GM_ADDR c)
{
    GlobalTensor<float> cGm;
    cGm.SetGlobalBuffer((__gm__ float*)c);
    LocalTensor<float> a2(TPosition::A2, 0, M * K);
    LocalTensor<float> b2(TPosition::B2, 0, K * N);
    LocalTensor<float> c1(TPosition::CO1, 0, M * N);
    Fill(a2, InitConstValueParams<float>(1, 1, 0, 1.0f + std::ldexp(1.0f, -12)));
    Fill(b2, InitConstValueParams<float>(1, 1, 0, 1.0f));
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    switch (g_mode) {
        case 1:
            SetHF32Mode(HF32Mode::ENABLE);
            break;
        case 2:
            SetHF32Mode(HF32Mode::ENABLE);
            SetHF32TransMode(HF32TransMode::NEAREST_ZERO);
            break;
        case 3:
            SetHF32Mode(true);
            SetHF32TransMode(true);
            SetMMRowMajor();
            break;
        case 4:
            SetMMLayoutTransform(true);
            SetMMColumnMajor();
            break;
    }
    MmadParams p;
    p.m = M;
    p.n = N;
    p.k = K;
    Mmad(c1, a2, b2, p);
    SetHF32Mode(HF32Mode::DISABLE);
    SetHF32TransMode(HF32TransMode::NEAREST_EVEN);
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    Fixpipe(cGm, c1, FixpipeParamsV220(N, M, M, N, false));
}

int main()
{
    SetKernelMode(KernelMode::AIC_MODE);
    const char* names[] = {"fp32", "HF32 ties to even", "HF32 ties away (NEAREST_ZERO)", "bool forms, row major",
                           "column major"};
    const float want[] = {8.0f + std::ldexp(1.0f, -9), 8.0f, 8.0f + std::ldexp(1.0f, -8), 8.0f + std::ldexp(1.0f, -8),
                          8.0f + std::ldexp(1.0f, -9)};
    float* c = (float*)GmAlloc(M * N * 4);
    bool ok = true;
    for (g_mode = 0; g_mode < 5; g_mode++) {
        ICPU_RUN_KF(hf32_matmul, 1, (GM_ADDR)c);
        int wrong = 0;
        for (uint32_t i = 0; i < M * N; i++) wrong += c[i] != want[g_mode];
        std::printf("%s: %s\n", names[g_mode], wrong == 0 ? "PASS" : "FAIL");
        ok = wrong == 0 && ok;
    }
    GmFree(c);
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
