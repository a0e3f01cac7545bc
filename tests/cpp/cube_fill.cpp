// Fill / InitConstValue with InitConstValueParams, as the vendor's compatibility example uses
// them: L0A and L0B set to 1 feed a Mmad whose every result is K; an L1 region set with the
// brace form {repeatTimes, blockNum, dstGap, initValue} and read back through GM; the two-value
// form on a product with only repeatTimes (Atlas inference series, 512 bytes per iteration).
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t M = 32, N = 32, K = 48;

__global__ __aicore__ void ones_matmul(GM_ADDR c)
{
    GlobalTensor<float> cGm;
    cGm.SetGlobalBuffer((__gm__ float*)c);
    LocalTensor<half> a2(TPosition::A2, 0, M * K);
    LocalTensor<half> b2(TPosition::B2, 0, K * N);
    LocalTensor<float> c1(TPosition::CO1, 0, M * N);
    InitConstValueParams<half> fa(1, static_cast<uint16_t>(M * K * sizeof(half) / 512), 0, half(1));
    Fill(a2, fa);
    InitConstValue(b2, InitConstValueParams<half>(1, static_cast<uint16_t>(K * N * sizeof(half) / 512), 0, half(1)));
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    MmadParams p;
    p.m = M;
    p.n = N;
    p.k = K;
    Mmad(c1, a2, b2, p);
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    FixpipeParamsV220 f;
    f.nSize = N;
    f.mSize = M;
    f.srcStride = M;
    f.dstStride = N;
    Fixpipe<float, float, CFG_ROW_MAJOR>(cGm, c1, f);
}

// Rows of 8 blocks of 32 bytes (16 halves): blocks 2..5 of each of 4 rows set to -0.5.
__global__ __aicore__ void l1_blocks(GM_ADDR out)
{
    GlobalTensor<half> oGm;
    oGm.SetGlobalBuffer((__gm__ half*)out);
    LocalTensor<half> a1(TPosition::A1, 0, 4 * 128);
    Fill(a1, {1, 32, 0, half(3)});
    PipeBarrier<PIPE_MTE2>();
    Fill(a1[2 * 16], {4, 3, 5, half(-0.5)});
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(oGm, a1, 4 * 128);
}

// Two 512-byte iterations of the two-value form.
__global__ __aicore__ void repeats_only(GM_ADDR out)
{
    LocalTensor<int16_t> b1(TPosition::B1, 0, 3 * 256);
    Fill(b1, InitConstValueParams<int16_t>(3, int16_t(0)));
    PipeBarrier<PIPE_MTE2>();
    Fill(b1, InitConstValueParams<int16_t>(2, int16_t(-9)));
    PipeBarrier<PIPE_ALL>();
    GlobalTensor<int16_t> oGm;
    oGm.SetGlobalBuffer((__gm__ int16_t*)out);
    for (uint32_t i = 0; i < 3 * 256; i++) oGm.SetValue(i, b1.GetValue(i));
}

int main(int argc, char** argv)
{
    bool inference = argc > 1;
    bool ok = true;
    if (!inference) {
        SetKernelMode(KernelMode::AIC_MODE);
        float* c = (float*)GmAlloc(M * N * 4);
        ICPU_RUN_KF(ones_matmul, 1, (GM_ADDR)c);
        int wrong = 0;
        for (uint32_t i = 0; i < M * N; i++) wrong += c[i] != float(K);
        GmFree(c);
        std::printf("L0A/L0B ones, Mmad: %s\n", wrong == 0 ? "PASS" : "FAIL");
        ok = wrong == 0;
        half* o = (half*)GmAlloc(4 * 128 * 2);
        ICPU_RUN_KF(l1_blocks, 1, (GM_ADDR)o);
        wrong = 0;
        for (uint32_t i = 0; i < 4 * 128; i++) {
            uint32_t block = (i % 128) / 16;
            float want = block >= 2 && block < 5 ? -0.5f : 3.0f;
            wrong += float(o[i]) != want;
        }
        GmFree(o);
        std::printf("L1 blocks with gaps: %s\n", wrong == 0 ? "PASS" : "FAIL");
        ok = wrong == 0 && ok;
    } else {
        int16_t* o = (int16_t*)GmAlloc(3 * 256 * 2);
        ICPU_RUN_KF(repeats_only, 1, (GM_ADDR)o);
        int wrong = 0;
        for (uint32_t i = 0; i < 3 * 256; i++) wrong += o[i] != (i < 512 ? -9 : 0);
        GmFree(o);
        std::printf("repeatTimes only: %s\n", wrong == 0 ? "PASS" : "FAIL");
        ok = wrong == 0;
    }
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
