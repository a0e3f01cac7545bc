// int4b_t through the C++ headers. Kernel and host in one file; prints "<case>: PASS" per case.
//  * cast: half -> int4b_t as the vendor's Cast example does it (an int8_t UB tensor viewed as
//    int4b_t, mask 128, 4 repeats, {1, 1, 2, 8}, CAST_CEIL), the bytes copied out as int8_t and
//    checked against the expected nibbles (low nibble first, saturated to [-8, 7]); then back to
//    half (int4b_t -> half, exact).
//  * tensor: LocalTensor<int4b_t> sizes, views and element access; GlobalTensor<int4b_t> views.
//  * mmad: int4b_t x int4b_t -> int32_t, M 30 N 40 K 70 (the vendor Mmad example's shape, B given
//    transposed): GM -> L1 (Nd2NzParams in bytes), LoadData to L0A/L0B, Mmad, Fixpipe to GM.
#include <cmath>
#include <cstdio>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 512;

extern "C" __global__ __aicore__ void cast_int4(GM_ADDR x, GM_ADDR y, GM_ADDR back)
{
    GlobalTensor<half> xGm;
    GlobalTensor<int8_t> yGm;
    GlobalTensor<half> backGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, N);
    yGm.SetGlobalBuffer((__gm__ int8_t*)y, N / 2);
    backGm.SetGlobalBuffer((__gm__ half*)back, N);

    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<half> xLocal = ub.Alloc<half, N>();
    LocalTensor<int8_t> yLocal = ub.Alloc<int8_t, N / 2>();
    LocalTensor<half> backLocal = ub.Alloc<half, N>();

    DataCopy(xLocal, xGm, N);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    LocalTensor<int4b_t> yLocalTmp = yLocal.ReinterpretCast<int4b_t>();
    Cast<int4b_t, half>(yLocalTmp, xLocal, RoundMode::CAST_CEIL, 128, 4, {1, 1, 2, 8});
    Cast(backLocal, yLocalTmp, RoundMode::CAST_NONE, N);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, yLocal, N / 2);
    DataCopy(backGm, backLocal, N);
}

extern "C" __global__ __aicore__ void tensor_int4(GM_ADDR g, GM_ADDR out)
{
    GlobalTensor<int32_t> outGm;
    outGm.SetGlobalBuffer((__gm__ int32_t*)out, 16);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<int4b_t> t = ub.Alloc<int4b_t, 128>();
    outGm.SetValue(0, t.GetSize());
    outGm.SetValue(1, t.GetLength());
    outGm.SetValue(2, t[64].GetSize());
    outGm.SetValue(3, static_cast<int32_t>(t[64].GetPhyAddr() - t.GetPhyAddr()));
    t.SetValue(6, int4b_t(6));
    t.SetValue(7, int4b_t(-1));
    t.SetValue(9, int4b_t(9));  // keeps the low four bits: -7
    outGm.SetValue(4, int8_t(t.GetValue(7)));
    outGm.SetValue(5, int8_t(t.GetValue(9)));
    outGm.SetValue(6, t.ReinterpretCast<uint8_t>().GetValue(3));
    outGm.SetValue(7, int8_t(t[6].GetValue(1)));

    GlobalTensor<int4b_t> gm;
    gm.SetGlobalBuffer((__gm__ int4b_t*)g, 64);
    outGm.SetValue(8, int8_t(gm[10].GetValue(1)));
    outGm.SetValue(9, static_cast<int32_t>((__gm__ uint8_t*)gm[10].GetPhyAddr() - (__gm__ uint8_t*)g));
    outGm.SetValue(10, int8_t(gm.GetValue(0)));
    gm.SetValue(3, int4b_t(-8));
    outGm.SetValue(11, int4b_t(3) < int4b_t(-2) ? 1 : 0);
}

constexpr uint32_t M = 30, NN = 40, K = 70;

__aicore__ inline uint32_t CeilAlign(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

extern "C" __global__ __aicore__ void mmad_int4(GM_ADDR a, GM_ADDR bt, GM_ADDR c)
{
    constexpr uint32_t FRACTAL = 1024;  // int4b_t elements in 512 bytes
    const uint32_t m16 = CeilAlign(M, 16), n16 = CeilAlign(NN, 16), k64 = CeilAlign(K, 64);
    const uint32_t m1 = m16 / 16, n1 = n16 / 16, k1 = k64 / 64;
    GlobalTensor<int4b_t> aGm, bGm;
    GlobalTensor<int32_t> cGm;
    aGm.SetGlobalBuffer((__gm__ int4b_t*)a);
    bGm.SetGlobalBuffer((__gm__ int4b_t*)bt);
    cGm.SetGlobalBuffer((__gm__ int32_t*)c);
    LocalTensor<int4b_t> a1(TPosition::A1, 0, m16 * k64);
    LocalTensor<int4b_t> b1(TPosition::B1, m16 * k64 / 2, n16 * k64);
    // Two int4b_t to a byte: dValue and srcDValue count bytes.
    DataCopy(a1, aGm, Nd2NzParams(1, M, K / 2, 0, K / 2, m16, 1, 0));
    DataCopy(b1, bGm, Nd2NzParams(1, NN, K / 2, 0, K / 2, n16, 1, 0));
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    LocalTensor<int4b_t> a2(TPosition::A2, 0, m16 * k64);
    LocalTensor<int4b_t> b2(TPosition::B2, 0, k64 * n16);
    LoadData2DParams pa;
    pa.repeatTimes = k1;
    pa.srcStride = m1;
    for (uint32_t i = 0; i < m1; i++) {
        LoadData(a2[i * k1 * FRACTAL], a1[i * FRACTAL], pa);
    }
    LoadData2DParams pb;
    pb.repeatTimes = n1 * k1;
    pb.srcStride = 1;
    LoadData(b2, b1, pb);
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    LocalTensor<int32_t> c1(TPosition::CO1, 0, m16 * n16);
    MmadParams mp;
    mp.m = M;
    mp.n = NN;
    mp.k = K;
    Mmad(c1, a2, b2, mp);
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    FixpipeParamsV220 fp;
    fp.nSize = NN;
    fp.mSize = M;
    fp.srcStride = m16;
    fp.dstStride = NN;
    Fixpipe(cGm, c1, fp);
}

// The value of nibble `i` of `bytes` (low nibble first), sign-extended.
static int Nibble(const int8_t* bytes, uint32_t i)
{
    int v = (static_cast<uint8_t>(bytes[i / 2]) >> (4 * (i % 2))) & 0xF;
    return v >= 8 ? v - 16 : v;
}

static int8_t Int4Of(int i)
{
    return static_cast<int8_t>(((i * 7 + 3) % 16) - 8);
}

int main()
{
    // cast
    half* x = (half*)GmAlloc(N * sizeof(half));
    int8_t* y = (int8_t*)GmAlloc(N / 2);
    half* back = (half*)GmAlloc(N * sizeof(half));
    std::vector<int> want(N);
    for (uint32_t i = 0; i < N; i++) {
        float v = static_cast<float>(static_cast<int>(i * 37 % 77)) / 4.0f - 9.5f;  // -9.5 .. 9.5
        x[i] = half(v);
        float c = std::ceil(float(x[i]));
        want[i] = c < -8 ? -8 : (c > 7 ? 7 : static_cast<int>(c));
    }
    ICPU_RUN_KF(cast_int4, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)back);
    bool cast = true, backOk = true;
    for (uint32_t i = 0; i < N; i++) {
        int8_t packed = static_cast<int8_t>((want[i & ~1u] & 0xF) | ((want[i | 1u] & 0xF) << 4));
        cast = cast && y[i / 2] == packed && Nibble(y, i) == want[i];
        backOk = backOk && float(back[i]) == static_cast<float>(want[i]);
    }
    std::printf("half->int4b_t: %s\n", cast ? "PASS" : "FAIL");
    std::printf("int4b_t->half: %s\n", backOk ? "PASS" : "FAIL");

    // tensor
    uint8_t* g = (uint8_t*)GmAlloc(32);
    for (int i = 0; i < 32; i++) {
        g[i] = static_cast<uint8_t>(0x10 * (i % 16) + (15 - i % 16));
    }
    int32_t* out = (int32_t*)GmAlloc(16 * sizeof(int32_t));
    ICPU_RUN_KF(tensor_int4, 1, (GM_ADDR)g, (GM_ADDR)out);
    // t[6] element 1 is t element 7. gm[10] starts at byte 5: its element 1 is the high nibble of
    // byte 5 (5); element 0 of gm is the low nibble of byte 0 (15, i.e. -1); SetValue(3, -8)
    // writes the high nibble of byte 1.
    const int32_t wantT[12] = {128, 64, 64, 32, -1, -7, 0xF6, -1, 5, 5, -1, 0};
    bool tensor = g[1] == static_cast<uint8_t>(0x80 | 14);
    for (int i = 0; i < 12; i++) {
        tensor = tensor && out[i] == wantT[i];
    }
    std::printf("int4b_t tensors: %s\n", tensor ? "PASS" : "FAIL");

    // mmad
    std::vector<int8_t> av(M * K), bv(NN * K);
    for (uint32_t i = 0; i < M * K; i++) {
        av[i] = Int4Of(static_cast<int>(i));
    }
    for (uint32_t i = 0; i < NN * K; i++) {
        bv[i] = Int4Of(static_cast<int>(i * 5 + 1));
    }
    uint8_t* a = (uint8_t*)GmAlloc(M * K / 2);
    uint8_t* bt = (uint8_t*)GmAlloc(NN * K / 2);
    int32_t* c = (int32_t*)GmAlloc(M * NN * sizeof(int32_t));
    for (uint32_t i = 0; i < M * K; i += 2) {
        a[i / 2] = static_cast<uint8_t>((av[i] & 0xF) | ((av[i + 1] & 0xF) << 4));
    }
    for (uint32_t i = 0; i < NN * K; i += 2) {
        bt[i / 2] = static_cast<uint8_t>((bv[i] & 0xF) | ((bv[i + 1] & 0xF) << 4));
    }
    SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(mmad_int4, 1, (GM_ADDR)a, (GM_ADDR)bt, (GM_ADDR)c);
    bool mmad = true;
    for (uint32_t i = 0; i < M; i++) {
        for (uint32_t j = 0; j < NN; j++) {
            int32_t s = 0;
            for (uint32_t kk = 0; kk < K; kk++) {
                s += av[i * K + kk] * bv[j * K + kk];
            }
            mmad = mmad && c[i * NN + j] == s;
        }
    }
    std::printf("Mmad int4b_t: %s\n", mmad ? "PASS" : "FAIL");

    GmFree(x);
    GmFree(y);
    GmFree(back);
    GmFree(g);
    GmFree(out);
    GmFree(a);
    GmFree(bt);
    GmFree(c);
    return cast && backOk && tensor && mmad ? 0 : 1;
}
