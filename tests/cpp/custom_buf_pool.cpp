// A custom TBufPool (EXTERN_IMPL_BUFPOOL) through the C++ headers: its InitBuffer places a queue,
// a TBuf and a queue one after another from GetCurAddr, with GetBufHandle / InitStartBufHandle /
// InitBufHandle, SetCurAddr and SetCurBufSize; the kernel adds two rows through them. After
// Reset the pool has no memory and gets it again from TPipe::InitBufPool. Prints PASS per case.
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 512;

class RowPool {
public:
    RowPool() { Init(); }

    template <class T>
    bool InitBuffer(T& que, uint8_t num, uint32_t len)
    {
        len = (len + 31) / 32 * 32;
        auto ptr = GetBufHandle(GetCurBufSize());
        auto addr = GetCurAddr();
        que.InitStartBufHandle(ptr, num, len);
        for (uint32_t i = 0; i < num; i++) {
            que.InitBufHandle(this, i, ptr, addr + i * len, len);
        }
        SetCurAddr(addr + num * len);
        SetCurBufSize(GetCurBufSize() + num);
        return true;
    }

    template <TPosition bufPos>
    bool InitBuffer(TBuf<bufPos>& buf, uint32_t len)
    {
        len = (len + 31) / 32 * 32;
        auto ptr = GetBufHandle(GetCurBufSize());
        auto addr = GetCurAddr();
        buf.InitStartBufHandle(ptr, 1, len);
        buf.InitBufHandle(this, 0, ptr, addr, len);
        SetCurAddr(addr + len);
        SetCurBufSize(GetCurBufSize() + 1);
        return true;
    }
    EXTERN_IMPL_BUFPOOL(RowPool, TPosition::VECCALC, 8);
};

extern "C" __global__ __aicore__ void pool_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR info)
{
    TPipe pipe;
    GlobalTensor<float> xGm, yGm, zGm;
    GlobalTensor<uint32_t> infoGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, N);
    yGm.SetGlobalBuffer((__gm__ float*)y, N);
    zGm.SetGlobalBuffer((__gm__ float*)z, N);
    infoGm.SetGlobalBuffer((__gm__ uint32_t*)info, 8);
    TBuf<TPosition::VECCALC> before;
    pipe.InitBuffer(before, 64);
    RowPool pool;
    TQue<TPosition::VECIN, 1> src0;
    TBuf<TPosition::VECIN> src1;
    TQue<TPosition::VECOUT, 1> dst;
    pipe.InitBufPool(pool, 3 * N * 4);
    pool.InitBuffer(src0, 1, N * 4);
    pool.InitBuffer(src1, N * 4);
    pool.InitBuffer(dst, 1, N * 4);
    infoGm.SetValue(0, pool.GetCurAddr());
    infoGm.SetValue(1, pool.GetCurBufSize());

    LocalTensor<float> a = src0.AllocTensor<float>();
    LocalTensor<float> b = src1.Get<float>();
    DataCopy(a, xGm, N);
    DataCopy(b, yGm, N);
    src0.EnQue(a);
    a = src0.DeQue<float>();
    LocalTensor<float> c = dst.AllocTensor<float>();
    PipeBarrier<PIPE_ALL>();
    Add(c, a, b, N);
    dst.EnQue(c);
    c = dst.DeQue<float>();
    DataCopy(zGm, c, N);
    infoGm.SetValue(2, a.Raw().addr);
    infoGm.SetValue(3, b.Raw().addr);
    infoGm.SetValue(4, c.Raw().addr);
    src0.FreeTensor(a);
    dst.FreeTensor(c);

    pool.Reset();
    infoGm.SetValue(5, pool.GetCurAddr() + pool.GetCurBufSize());
    pipe.InitBufPool(pool, 1024);
    infoGm.SetValue(6, pool.GetCurAddr());
}

int main()
{
    float* x = (float*)GmAlloc(N * 4);
    float* y = (float*)GmAlloc(N * 4);
    float* z = (float*)GmAlloc(N * 4);
    uint32_t* info = (uint32_t*)GmAlloc(8 * 4);
    for (uint32_t i = 0; i < N; i++) {
        x[i] = 0.25f * i;
        y[i] = 3.0f - i;
    }
    ICPU_RUN_KF(pool_add, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, (GM_ADDR)info);
    bool sum = true;
    for (uint32_t i = 0; i < N; i++) {
        sum = sum && z[i] == 0.25f * i + (3.0f - i);
    }
    // The pool starts after the 64-byte TBuf; 2048-byte blocks follow each other; after Reset
    // the pool is empty and a second InitBufPool carves after the first pool's bytes.
    bool place = info[0] == 64 + 3 * 2048 && info[1] == 3 && info[2] == 64 && info[3] == 64 + 2048 &&
                 info[4] == 64 + 4096;
    bool reset = info[5] == 0 && info[6] == 64 + 3 * 2048;
    std::printf("custom pool add: %s\n", sum ? "PASS" : "FAIL");
    std::printf("custom pool placement: %s\n", place ? "PASS" : "FAIL");
    std::printf("custom pool reset: %s\n", reset ? "PASS" : "FAIL");
    GmFree(x);
    GmFree(y);
    GmFree(z);
    GmFree(info);
    return sum && place && reset ? 0 : 1;
}
