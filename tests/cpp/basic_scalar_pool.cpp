// Scalar compute and TBufPool through the C++ headers. Kernel and host in one file; prints
// "<case>: PASS" per case.
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr int32_t OUT = 32;

extern "C" __global__ __aicore__ void scalar_pool(GM_ADDR out)
{
    GlobalTensor<int64_t> outGm;
    outGm.SetGlobalBuffer((__gm__ int64_t*)out, OUT);
    outGm.SetValue(0, GetBitCount<1>(0xFFFF));
    outGm.SetValue(1, GetBitCount<0>(0xFFFF));
    outGm.SetValue(2, CountLeadingZero(0xFFFF));
    outGm.SetValue(3, CountBitsCntSameAsSignBit(1));
    outGm.SetValue(4, CountBitsCntSameAsSignBit(0x00F0000000000000LL));
    outGm.SetValue(5, GetSFFValue<0>(0xFF00));
    outGm.SetValue(6, GetSFFValue<1>(0xFF00));
    outGm.SetValue(7, Cast<float, int32_t, RoundMode::CAST_RINT>(2.5f));
    outGm.SetValue(8, Cast<float, int32_t, RoundMode::CAST_ROUND>(2.5f));
    half h = Cast<float, half, RoundMode::CAST_ODD>(3.14159f);
    outGm.SetValue(9, static_cast<int64_t>(float(h) * 1000000));
    outGm.SetValue(10, static_cast<int64_t>(Cast(Cast(3.14159f)) * 1000000));
    // The earlier spellings.
    outGm.SetValue(16, ScalarGetCountOfValue<1>(0xFF) + ScalarCountLeadingZero(0xFF) + ScalarGetSFFValue<1>(0xF0));
    outGm.SetValue(17, ScalarCast<float, int32_t, RoundMode::CAST_FLOOR>(-2.5f));

    // Two pools over the same UB bytes; a nested pool (byte addresses read from the raw tensors).
    TPipe pipe;
    TBufPool<TPosition::VECCALC> pool1, pool2;
    pipe.InitBufPool(pool1, 1024);
    pipe.InitBufPool(pool2, 1024, pool1);
    TQue<QuePosition::VECIN, 1> q1;
    pool1.InitBuffer(q1, 1, 512);
    LocalTensor<float> a = q1.AllocTensor<float>();
    outGm.SetValue(11, a.Raw().addr);
    q1.FreeTensor(a);
    pool1.Reset();
    TBuf<QuePosition::VECCALC> t;
    pool2.InitBuffer(t, 256);
    outGm.SetValue(12, t.Get<float>().Raw().addr);
    TBufPool<TPosition::VECCALC, 2> inner;
    pool2.InitBufPool(inner, 256);
    TBuf<QuePosition::VECCALC> t2;
    inner.InitBuffer(t2, 64);
    outGm.SetValue(13, t2.Get<float>().Raw().addr);

    // CreateVecIndex, then Copy of its first 8 lanes.
    LocalTensor<int32_t> s = t.Get<int32_t>();
    CreateVecIndex(s, (int32_t)100, 64);
    LocalTensor<int32_t> d2 = t2.Get<int32_t>();
    Duplicate(d2, (int32_t)-1, 16);
    Copy(d2, s, 8, 1, {1, 1, 8, 8});
    outGm.SetValue(14, d2.GetValue(7));
    outGm.SetValue(15, d2.GetValue(8));
}

int main()
{
    int64_t* out = (int64_t*)AscendC::GmAlloc(OUT * sizeof(int64_t));
    ICPU_RUN_KF(scalar_pool, 1, (GM_ADDR)out);
    const int64_t want[11] = {16, 48, 48, 62, 7, 0, 8, 2, 3, 3142578, 3140625};
    bool scalar = true;
    for (int i = 0; i < 11; i++) {
        scalar = scalar && out[i] == want[i];
    }
    scalar = scalar && out[16] == 8 + 56 + 4 && out[17] == -3;
    bool pool = out[11] == 0 && out[12] == 0 && out[13] == 256 && out[14] == 107 && out[15] == -1;
    std::printf("scalar: %s\n", scalar ? "PASS" : "FAIL");
    std::printf("TBufPool+Copy: %s\n", pool ? "PASS" : "FAIL");
    AscendC::GmFree(out);
    return scalar && pool ? 0 : 1;
}
