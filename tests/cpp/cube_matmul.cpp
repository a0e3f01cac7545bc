// A matmul kernel in the samples' style (TQue A1/B1/A2/B2/CO1, LoadData, Mmad, Fixpipe): each
// block computes a TM x TN tile of C = A (M x K) x B (K x N) with the whole K. Run for half ->
// float and int8 -> int32, 32 x 32 x 32 on one cube core and 256 x 256 x 64 on four, against a
// host reference (float: the documented per-K-fractal fp32 accumulation, bit for bit).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

struct MatShape {
    uint32_t m, n, k, tm, tn;
};

template <typename T, typename C>
class KernelMatmul {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const MatShape& s)
    {
        s_ = s;
        c0_ = 32 / sizeof(T);
        uint32_t tiles = s.n / s.tn;
        bm_ = GetBlockIdx() / tiles;
        bn_ = GetBlockIdx() % tiles;
        aGm_.SetGlobalBuffer((__gm__ T*)a);
        bGm_.SetGlobalBuffer((__gm__ T*)b);
        cGm_.SetGlobalBuffer((__gm__ C*)c);
        pipe_.InitBuffer(qA1_, 1, s.tm * s.k * sizeof(T));
        pipe_.InitBuffer(qB1_, 1, s.k * s.tn * sizeof(T));
        pipe_.InitBuffer(qA2_, 1, s.tm * s.k * sizeof(T));
        pipe_.InitBuffer(qB2_, 1, s.k * s.tn * sizeof(T));
        pipe_.InitBuffer(qCO1_, 1, s.tm * s.tn * sizeof(C));
    }
    __aicore__ inline void Process()
    {
        CopyIn();
        SplitA();
        SplitB();
        Compute();
        CopyOut();
    }

private:
    __aicore__ inline void CopyIn()
    {
        LocalTensor<T> a1 = qA1_.AllocTensor<T>();
        DataCopy(a1, aGm_[bm_ * s_.tm * s_.k], Nd2NzParams(1, s_.tm, s_.k, 0, s_.k, s_.tm, 1, 0));
        qA1_.EnQue(a1);
        LocalTensor<T> b1 = qB1_.AllocTensor<T>();
        DataCopy(b1, bGm_[bn_ * s_.tn], Nd2NzParams(1, s_.k, s_.tn, 0, s_.n, s_.k, 1, 0));
        qB1_.EnQue(b1);
    }
    __aicore__ inline void SplitA()
    {
        LocalTensor<T> a1 = qA1_.DeQue<T>();
        LocalTensor<T> a2 = qA2_.AllocTensor<T>();
        uint32_t m1 = s_.tm / 16, k1 = s_.k / c0_, frac = 512 / sizeof(T);
        for (uint32_t i = 0; i < m1; i++) {
            // NZ -> ZZ: one row of fractals.
            LoadData(a2[i * k1 * frac], a1[i * frac], LoadData2DParams(0, k1, m1, 0, 0, false, 0));
        }
        qA2_.EnQue(a2);
        qA1_.FreeTensor(a1);
    }
    __aicore__ inline void SplitB()
    {
        LocalTensor<T> b1 = qB1_.DeQue<T>();
        LocalTensor<T> b2 = qB2_.AllocTensor<T>();
        uint32_t n1 = s_.tn / 16, k1 = s_.k / c0_, frac = 512 / sizeof(T);
        for (uint32_t kb = 0; kb < k1; kb++) {
            if (sizeof(T) == 2) {
                // NZ -> ZN: each 16 x 16 fractal transposed.
                LoadData(b2[kb * n1 * frac], b1[kb * frac], LoadData2DParams(0, n1, k1, 0, 0, true, 0));
            } else {
                // 32 x 32 int8 squares transposed into two 32 x 16 fractals.
                LoadDataWithTranspose(b2[kb * n1 * frac], b1[kb * 2 * frac],
                                      LoadData2dTransposeParams(0, n1 / 2, k1, 1, 0));
            }
        }
        qB2_.EnQue(b2);
        qB1_.FreeTensor(b1);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<T> a2 = qA2_.DeQue<T>();
        LocalTensor<T> b2 = qB2_.DeQue<T>();
        LocalTensor<C> c1 = qCO1_.AllocTensor<C>();
        MmadParams p;
        p.m = s_.tm;
        p.n = s_.tn;
        p.k = s_.k;
        Mmad(c1, a2, b2, p);
        qCO1_.EnQue(c1);
        qA2_.FreeTensor(a2);
        qB2_.FreeTensor(b2);
    }
    __aicore__ inline void CopyOut()
    {
        LocalTensor<C> c1 = qCO1_.DeQue<C>();
        FixpipeParamsV220 p;
        p.nSize = s_.tn;
        p.mSize = s_.tm;
        p.srcStride = s_.tm;
        p.dstStride = s_.n;
        p.ndNum = 1;
        Fixpipe<C, C, CFG_ROW_MAJOR>(cGm_[bm_ * s_.tm * s_.n + bn_ * s_.tn], c1, p);
        qCO1_.FreeTensor(c1);
    }

    TPipe pipe_;
    TQue<QuePosition::A1, 1> qA1_;
    TQue<QuePosition::B1, 1> qB1_;
    TQue<QuePosition::A2, 1> qA2_;
    TQue<QuePosition::B2, 1> qB2_;
    TQue<QuePosition::CO1, 1> qCO1_;
    GlobalTensor<T> aGm_, bGm_;
    GlobalTensor<C> cGm_;
    MatShape s_;
    uint32_t c0_, bm_, bn_;
};

static MatShape g_shape;

extern "C" __global__ __aicore__ void matmul_half(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    KernelMatmul<half, float> op;
    op.Init(a, b, c, g_shape);
    op.Process();
}

extern "C" __global__ __aicore__ void matmul_int8(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    KernelMatmul<int8_t, int32_t> op;
    op.Init(a, b, c, g_shape);
    op.Process();
}

static bool RunHalf(const MatShape& s)
{
    g_shape = s;
    half* a = (half*)GmAlloc(s.m * s.k * 2);
    half* b = (half*)GmAlloc(s.k * s.n * 2);
    float* c = (float*)GmAlloc(s.m * s.n * 4);
    for (uint32_t i = 0; i < s.m * s.k; i++) a[i] = half(float((i * 37u) % 257u) / 32.0f - 4.0f);
    for (uint32_t i = 0; i < s.k * s.n; i++) b[i] = half(float((i * 53u) % 251u) / 16.0f - 7.0f);
    ICPU_RUN_KF(matmul_half, (s.m / s.tm) * (s.n / s.tn), (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)c);
    int wrong = 0;
    for (uint32_t i = 0; i < s.m; i++) {
        for (uint32_t j = 0; j < s.n; j++) {
            float acc = 0.0f;
            for (uint32_t f = 0; f < s.k; f += 16) {
                double sum = acc;
                for (uint32_t kk = f; kk < f + 16 && kk < s.k; kk++) {
                    sum += double(float(a[i * s.k + kk])) * double(float(b[kk * s.n + j]));
                }
                acc = float(sum);
            }
            uint32_t got, want;
            std::memcpy(&got, &c[i * s.n + j], 4);
            std::memcpy(&want, &acc, 4);
            wrong += got != want;
        }
    }
    GmFree(a);
    GmFree(b);
    GmFree(c);
    std::printf("half %ux%ux%u: %d wrong\n", s.m, s.n, s.k, wrong);
    return wrong == 0;
}

static bool RunInt8(const MatShape& s)
{
    g_shape = s;
    int8_t* a = (int8_t*)GmAlloc(s.m * s.k);
    int8_t* b = (int8_t*)GmAlloc(s.k * s.n);
    int32_t* c = (int32_t*)GmAlloc(s.m * s.n * 4);
    for (uint32_t i = 0; i < s.m * s.k; i++) a[i] = int8_t((i * 97u + 11u) % 256u);
    for (uint32_t i = 0; i < s.k * s.n; i++) b[i] = int8_t((i * 61u + 5u) % 256u);
    ICPU_RUN_KF(matmul_int8, (s.m / s.tm) * (s.n / s.tn), (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)c);
    int wrong = 0;
    for (uint32_t i = 0; i < s.m; i++) {
        for (uint32_t j = 0; j < s.n; j++) {
            int32_t want = 0;
            for (uint32_t kk = 0; kk < s.k; kk++) want += int32_t(a[i * s.k + kk]) * int32_t(b[kk * s.n + j]);
            wrong += c[i * s.n + j] != want;
        }
    }
    GmFree(a);
    GmFree(b);
    GmFree(c);
    std::printf("int8 %ux%ux%u: %d wrong\n", s.m, s.n, s.k, wrong);
    return wrong == 0;
}

int main()
{
    SetKernelMode(KernelMode::AIC_MODE);
    bool ok = RunHalf({32, 32, 32, 32, 32});
    ok = RunHalf({256, 256, 64, 128, 128}) && ok;
    ok = RunInt8({32, 32, 32, 32, 32}) && ok;
    ok = RunInt8({256, 256, 64, 128, 128}) && ok;
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
