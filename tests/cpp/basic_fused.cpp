// Fused vector instructions, CastDequant, Compares and the CMPMASK register through the C++
// headers. Kernel and host in one file; prints "<case>: PASS" per case.
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr int32_t OUT = 128;

// Writes `n` values of a local tensor to out[at..], as doubles.
template <typename T>
void Put(GlobalTensor<double>& out, int32_t at, const LocalTensor<T>& t, int32_t n)
{
    for (int32_t i = 0; i < n; i++) {
        out.SetValue(at + i, static_cast<double>(static_cast<float>(t.GetValue(i))));
    }
}

extern "C" __global__ __aicore__ void fused(GM_ADDR outAddr)
{
    GlobalTensor<double> out;
    out.SetGlobalBuffer((__gm__ double*)outAddr, OUT);
    TPipe pipe;
    TBuf<QuePosition::VECCALC> b0, b1, b2, b3, b4;
    pipe.InitBuffer(b0, 1024);
    pipe.InitBuffer(b1, 1024);
    pipe.InitBuffer(b2, 1024);
    pipe.InitBuffer(b3, 1024);
    pipe.InitBuffer(b4, 1024);

    // AddReluCast half -> int8: the page's first lanes (1 + 0 = 1, 1 + 0.5 -> 2, 3 - 4 -> 0), 2.5 -> 2.
    LocalTensor<half> h0 = b0.Get<half>(), h1 = b1.Get<half>();
    const float a[4] = {1.0f, 1.0f, 3.0f, 2.5f}, c[4] = {0.0f, 0.5f, -4.0f, 0.0f};
    for (int i = 0; i < 4; i++) {
        h0.SetValue(i, half(a[i]));
        h1.SetValue(i, half(c[i]));
    }
    LocalTensor<int8_t> i8 = b2.Get<int8_t>();
    AddReluCast(i8, h0, h1, 4);
    Put(out, 0, i8, 4);
    // SubReluCast level 0 (contiguous mask 2 of 128 lanes): 1 - 0.5 -> 0 (ties to even); lanes 2, 3 keep 7.
    Duplicate(i8.ReinterpretCast<int16_t>(), (int16_t)0x0707, 64);
    SubReluCast(i8, h0, h1, (uint64_t)2, 1, {1, 1, 1, 4, 8, 8});
    Put(out, 4, i8, 4);
    // MulCast half -> uint8 with a bit mask: lanes 0 and 3.
    LocalTensor<uint8_t> u8 = b3.Get<uint8_t>();
    Duplicate(u8.ReinterpretCast<int16_t>(), (int16_t)0x0909, 64);
    uint64_t bits[2] = {0x9, 0};
    MulCast(u8, h0, h0, bits, 1, {1, 1, 1, 4, 8, 8});
    Put(out, 8, u8, 4);

    // AddDeqRelu with SetDeqScale(half(0.1)): the page's first two lanes and a negative sum.
    LocalTensor<int32_t> s0 = b0.Get<int32_t>(), s1 = b1.Get<int32_t>();
    const int32_t x[3] = {70, 36, -5}, y[3] = {19, 33, 1};
    for (int i = 0; i < 3; i++) {
        s0.SetValue(i, x[i]);
        s1.SetValue(i, y[i]);
    }
    LocalTensor<half> hd = b2.Get<half>();
    SetDeqScale(half(0.1f));
    AddDeqRelu(hd, s0, s1, 3);
    Put(out, 12, hd, 3);

    // MulAddRelu, FusedMulAdd, MulAddDst (half -> float), Axpy on float.
    LocalTensor<float> f0 = b0.Get<float>(), f1 = b1.Get<float>(), fd = b2.Get<float>();
    f0.SetValue(0, 1.5f);
    f0.SetValue(1, -2.0f);
    f1.SetValue(0, 0.25f);
    f1.SetValue(1, 1.0f);
    fd.SetValue(0, 2.0f);
    fd.SetValue(1, 2.0f);
    MulAddRelu(fd, f0, f1, 2);  // [3.25, 0]
    Put(out, 16, fd, 2);
    FusedMulAdd(fd, f0, f1, 2);  // [1.5 * 3.25 + 0.25, -2 * 0 + 1] = [5.125, 1]
    Put(out, 18, fd, 2);
    Axpy(fd, f0, 2.0f, 2);  // [5.125 + 3, 1 - 4]
    Put(out, 20, fd, 2);
    LocalTensor<half> m0 = b3.Get<half>(), m1 = b4.Get<half>();
    m0.SetValue(0, half(3.0f));
    m1.SetValue(0, half(0.5f));
    uint64_t one[2] = {1, 0};
    MulAddDst(fd, m0, m1, one, 1, {1, 1, 1, 8, 4, 4});  // 8.125 + 1.5
    Put(out, 22, fd, 2);

    // CastDequant int16 -> int8 with SetDeqScale(0.5, -3, true), halfBlock = false.
    LocalTensor<int16_t> q = b0.Get<int16_t>();
    const int16_t qv[5] = {10, 11, -300, 300, 5};
    for (int i = 0; i < 16; i++) q.SetValue(i, i < 5 ? qv[i] : 0);
    LocalTensor<int8_t> qd = b1.Get<int8_t>();
    SetDeqScale(0.5f, (int16_t)-3, true);
    CastDequant<int8_t, int16_t, false, false>(qd, q, 16);
    Put(out, 24, qd, 5);
    // The vector table: word j = (scale j, offset 1, unsigned); halfBlock = true, level 0.
    float vs[16];
    int16_t vo[16];
    bool vm[16];
    for (int j = 0; j < 16; j++) {
        vs[j] = static_cast<float>(j);
        vo[j] = 1;
        vm[j] = false;
        q.SetValue(j, 3);
    }
    LocalTensor<uint64_t> vdeq = b4.Get<uint64_t>();
    SetDeqScale(vdeq, VdeqInfo(vs, vo, vm));
    LocalTensor<uint8_t> qu = b2.Get<uint8_t>();
    CastDequant<uint8_t, int16_t, true, true, true>(qu, q, 16, 1, {1, 1, 8, 8});
    out.SetValue(29, qu.GetValue(16));
    out.SetValue(30, qu.GetValue(31));

    // Compares float: lane i < 2.5 for i = 0..63.
    LocalTensor<float> cf = b0.Get<float>();
    for (int i = 0; i < 64; i++) cf.SetValue(i, static_cast<float>(i));
    LocalTensor<uint8_t> cm = b1.Get<uint8_t>();
    Compares(cm, cf, 2.5f, CMPMODE::LT, 64);
    Put(out, 32, cm, 2);

    // Compare into CMPMASK and GetCmpMask: i < 64 - i holds for i = 0..31.
    LocalTensor<float> cg = b2.Get<float>();
    for (int i = 0; i < 64; i++) cg.SetValue(i, static_cast<float>(64 - i));
    Compare(cf, cg, CMPMODE::LT, (uint64_t)64, {1, 1, 1, 8, 8, 8});
    LocalTensor<uint8_t> reg = b3.Get<uint8_t>();
    GetCmpMask(reg);
    Put(out, 34, reg, 8);

    // Select mode 0 from CMPMASK: lanes 0..31 from cf (i), the rest from cg (64 - i).
    LocalTensor<float> sd = b4.Get<float>();
    SetVectorMask<float>(64);
    Select<float, SELMODE::VSEL_CMPMASK_SPR>(sd, cf, cg, 1, {1, 1, 1, 8, 8, 8});
    out.SetValue(42, sd.GetValue(31));
    out.SetValue(43, sd.GetValue(32));
    // Mode 1: the scalar 7.5 from CMPMASK, selMask bit 1 only.
    LocalTensor<float> sc = b3.Get<float>();
    SetVectorMask<uint32_t>(32);
    Duplicate<float, false>(sc, 7.5f, MASK_PLACEHOLDER, 1, 1, 8);
    SetCmpMask(sc);
    LocalTensor<uint8_t> sel = b1.Get<uint8_t>();
    for (int i = 0; i < 32; i++) sel.SetValue(i, i == 0 ? 2 : 0);
    SetVectorMask<float>(64);
    Select(sd, sel, cf, 1, {1, 1, 1, 8, 8, 8});
    out.SetValue(44, sd.GetValue(0));
    out.SetValue(45, sd.GetValue(1));
    // Mode 2: CMPMASK holds the selMask address.
    LocalTensor<uint32_t> addr = b3.Get<uint32_t>();
    for (int i = 0; i < 8; i++) addr.SetValue(i, i == 0 ? sel.Raw().addr : 0);
    SetCmpMask(addr);
    Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(sd, cf, cg, 1, {1, 1, 1, 8, 8, 8});
    out.SetValue(46, sd.GetValue(0));
    out.SetValue(47, sd.GetValue(1));
    ResetMask();
}

static bool Eq(const double* got, const double* want, int n)
{
    bool ok = true;
    for (int i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            std::printf("  [%d] got %g want %g\n", i, got[i], want[i]);
            ok = false;
        }
    }
    return ok;
}

int main()
{
    double* out = (double*)AscendC::GmAlloc(OUT * sizeof(double));
    std::memset(out, 0, OUT * sizeof(double));
    ICPU_RUN_KF(fused, 1, (GM_ADDR)out);
    const double relu[12] = {1, 2, 0, 2, 1, 0, 7, 7, 1, 9, 9, 6};
    const double deq[3] = {8.8984375, 6.8984375, 0};
    const double fma[8] = {3.25, 0, 5.125, 1, 8.125, -3, 9.625, -3};
    const double dq[7] = {2, 3, -128, 127, -1, 1, 46};
    const double cmp[10] = {7, 0, 255, 255, 255, 255, 0, 0, 0, 0};
    const double sel[6] = {31, 32, 7.5, 1, 64, 1};
    bool ok[6] = {Eq(out, relu, 12), Eq(out + 12, deq, 3), Eq(out + 16, fma, 8), Eq(out + 24, dq, 7),
                  Eq(out + 32, cmp, 10), Eq(out + 42, sel, 6)};
    const char* names[6] = {"ReluCast", "AddDeqRelu", "MulAdd", "CastDequant", "Compares+CmpMask", "Select CMPMASK"};
    bool all = true;
    for (int i = 0; i < 6; i++) {
        std::printf("%s: %s\n", names[i], ok[i] ? "PASS" : "FAIL");
        all = all && ok[i];
    }
    AscendC::GmFree(out);
    return all ? 0 : 1;
}
