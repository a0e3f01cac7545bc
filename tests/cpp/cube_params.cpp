// The vendor spellings of the cube parameter structures: FixpipeParamsV220's brace initialisers
// (5, 11 and 12 values, reluEn before quantPre), QuantMode_t at global scope and LoadData2dParams
// (the earlier name of LoadData2DParams). A 16 x 16 x 16 half matmul C = A x B runs through them
// and every output is checked against a host product (exact: the inputs are small integers).
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"
#include "tikicpulib.h"

using AscendC::GmAlloc;
using AscendC::GmFree;

constexpr uint32_t N = 16;

// The output conversion a kernel run uses (global scope, as kernels spell it).
static QuantMode_t g_mode = QuantMode_t::NoQuant;

template <typename D>
__global__ __aicore__ void matmul16(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<D> cGm;
    aGm.SetGlobalBuffer((__gm__ half*)a);
    bGm.SetGlobalBuffer((__gm__ half*)b);
    cGm.SetGlobalBuffer((__gm__ D*)c);
    AscendC::LocalTensor<half> a1(AscendC::TPosition::A1, 0, N * N);
    AscendC::LocalTensor<half> b1(AscendC::TPosition::B1, 512, N * N);
    AscendC::LocalTensor<half> a2(AscendC::TPosition::A2, 0, N * N);
    AscendC::LocalTensor<half> b2(AscendC::TPosition::B2, 0, N * N);
    AscendC::LocalTensor<float> c1(AscendC::TPosition::CO1, 0, N * N);
    // One 16 x 16 fractal each: ND and NZ coincide.
    AscendC::DataCopy(a1, aGm, N * N);
    AscendC::DataCopy(b1, bGm, N * N);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::LoadData2dParams la;
    la.repeatTimes = 1;
    AscendC::LoadData(a2, a1, la);
    AscendC::LoadData(b2, b1, AscendC::LoadData2dParams{0, 1, 0, 0, 0, true, 0});
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Mmad(c1, a2, b2, {N, N, N, false, 0, false, false, false});
    AscendC::PipeBarrier<PIPE_ALL>();
    if (g_mode == QuantMode_t::NoQuant) {
        // The 5-value form: ndNum 1, no conversion; reluEn on.
        AscendC::Fixpipe<D, float, AscendC::CFG_ROW_MAJOR>(cGm, c1, {N, N, N, N, true});
    } else {
        // The 11-value form: {nSize, mSize, srcStride, dstStride, reluEn, quantPre, deqScalar,
        // ndNum, srcNdStride, dstNdStride, unitFlag}.
        AscendC::FixpipeParamsV220 p{N, N, N, N, false, g_mode, 0, 1, 0, 0, 0};
        AscendC::Fixpipe<D, float, AscendC::CFG_ROW_MAJOR>(cGm, c1, p);
    }
}

static void Inputs(half* a, half* b)
{
    for (uint32_t i = 0; i < N * N; i++) {
        a[i] = half(float(int(i % 7) - 3));
        b[i] = half(float(int(i % 5) - 2));
    }
}

static float Want(const half* a, const half* b, uint32_t i, uint32_t j)
{
    float s = 0;
    for (uint32_t k = 0; k < N; k++) s += float(a[i * N + k]) * float(b[k * N + j]);
    return s;
}

static bool FloatRelu()
{
    half* a = (half*)GmAlloc(N * N * 2);
    half* b = (half*)GmAlloc(N * N * 2);
    float* c = (float*)GmAlloc(N * N * 4);
    Inputs(a, b);
    g_mode = QuantMode_t::NoQuant;
    ICPU_RUN_KF(matmul16<float>, 1, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)c);
    int wrong = 0, negative = 0;
    for (uint32_t i = 0; i < N; i++) {
        for (uint32_t j = 0; j < N; j++) {
            float w = Want(a, b, i, j);
            negative += w < 0;
            wrong += c[i * N + j] != (w < 0 ? 0.0f : w);
        }
    }
    GmFree(a);
    GmFree(b);
    GmFree(c);
    bool ok = wrong == 0 && negative > 0;
    std::printf("five-value FixpipeParamsV220 (ReLU): %s\n", ok ? "PASS" : "FAIL");
    return ok;
}

static bool HalfOut()
{
    half* a = (half*)GmAlloc(N * N * 2);
    half* b = (half*)GmAlloc(N * N * 2);
    half* c = (half*)GmAlloc(N * N * 2);
    Inputs(a, b);
    g_mode = QuantMode_t::F322F16;
    ICPU_RUN_KF(matmul16<half>, 1, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)c);
    int wrong = 0, negative = 0;
    for (uint32_t i = 0; i < N; i++) {
        for (uint32_t j = 0; j < N; j++) {
            float w = Want(a, b, i, j);
            negative += w < 0;
            wrong += float(c[i * N + j]) != w;
        }
    }
    GmFree(a);
    GmFree(b);
    GmFree(c);
    bool ok = wrong == 0 && negative > 0;
    std::printf("eleven-value FixpipeParamsV220 (F322F16, no ReLU): %s\n", ok ? "PASS" : "FAIL");
    return ok;
}

int main()
{
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    static_assert(std::is_same<AscendC::QuantMode_t, QuantMode_t>::value, "one QuantMode_t");
    static_assert(std::is_same<AscendC::LoadData2dParams, AscendC::LoadData2DParams>::value, "alias");
    bool ok = FloatRelu();
    ok = HalfOut() && ok;
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
