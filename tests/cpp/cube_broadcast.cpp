// BroadCastVecToMM on the Atlas inference series AI Core, as the vendor's broadcast sample and the
// matmul bias path use it: a [1, 16] float vector broadcast to one 16 x 16 fractal, and a
// [1, 32] half bias broadcast to the [32, 32] NZ matrix a matmul starts from (one call per row
// of fractals, dstGap = M / 16 - 1), both read back through CO1 -> CO2 -> GM and checked.
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

template <typename T>
__global__ __aicore__ void broadcast_bias(GM_ADDR x, GM_ADDR z, uint32_t m, uint32_t n)
{
    GlobalTensor<T> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ T*)x);
    zGm.SetGlobalBuffer((__gm__ T*)z);
    LocalTensor<T> src(TPosition::VECIN, 0, n);
    LocalTensor<T> brc(TPosition::CO1, 0, m * n);
    DataCopy(src, xGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    for (uint32_t i = 0; i < m / 16; i++) {
        BroadCastVecToMM(brc[i * 256], src, n / 16, 1, 0, m / 16 - 1);
    }
    PipeBarrier<PIPE_V>();
    LocalTensor<T> out(TPosition::CO2, 4096, m * n);
    DataCopyParams p;
    p.blockCount = 1;
    p.blockLen = m * n / 256;
    DataCopyEnhancedParams e;
    e.blockMode = BlockMode::BLOCK_MODE_MATRIX;
    DataCopy(out, brc, p, e);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(zGm, out, m * n);
}

// The NZ matrix out[] (m rows, n columns) has every row equal to x.
template <typename T>
static bool Check(const char* name, const T* x, const T* z, uint32_t m, uint32_t n)
{
    int wrong = 0;
    for (uint32_t r = 0; r < m; r++) {
        for (uint32_t c = 0; c < n; c++) {
            wrong += float(z[(c / 16) * m * 16 + r * 16 + c % 16]) != float(x[c]);
        }
    }
    std::printf("%s: %s\n", name, wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0;
}

int main()
{
    float* xf = (float*)GmAlloc(16 * 4);
    float* zf = (float*)GmAlloc(256 * 4);
    for (int i = 0; i < 16; i++) xf[i] = float(i) * 3.25f - 20.0f;
    ICPU_RUN_KF(broadcast_bias<float>, 1, (GM_ADDR)xf, (GM_ADDR)zf, 16u, 16u);
    bool ok = Check("float [1, 16] -> [16, 16]", xf, zf, 16, 16);
    half* xh = (half*)GmAlloc(32 * 2);
    half* zh = (half*)GmAlloc(32 * 32 * 2);
    for (int i = 0; i < 32; i++) xh[i] = half(float(i) - 15.5f);
    ICPU_RUN_KF(broadcast_bias<half>, 1, (GM_ADDR)xh, (GM_ADDR)zh, 32u, 32u);
    ok = Check("half [1, 32] -> [32, 32] NZ", xh, zh, 32, 32) && ok;
    GmFree(xf);
    GmFree(zf);
    GmFree(xh);
    GmFree(zh);
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
