// DataCopy from L0C with DataCopyCO12DstParams and the Fixpipe registers, in the vendor's
// data_copy_l0c2gm style: scalar DEQF16 (SetFixpipePreQuantFlag) with ReLU and NZ -> ND
// (SetFixpipeNz2ndFlag); per-column VDEQF16 words staged GM -> L1 -> Fixpipe buffer and named by
// SetFixPipeConfig, into NZ; float -> half into L1; and SetFixPipeConfig's unit-flag reset between
// two Mmads with unitFlag 3. L0C is filled with known int32/float values; every output is checked.
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t M = 32, N = 48;

static int32_t Value(uint32_t r, uint32_t c) { return int32_t((r * 37 + c * 11) % 201) - 90; }

static uint64_t Word(float m)
{
    uint32_t b;
    std::memcpy(&b, &m, 4);
    return b;
}

// Element (r, c) of an M x N NZ matrix with M rows per 16-column group.
static uint32_t Nz(uint32_t r, uint32_t c) { return (c / 16) * M * 16 + r * 16 + c % 16; }

template <typename T>
static void FillL0C(const LocalTensor<T>& c1)
{
    for (uint32_t r = 0; r < M; r++) {
        for (uint32_t c = 0; c < N; c++) c1.SetValue(Nz(r, c), T(Value(r, c)));
    }
}

__global__ __aicore__ void scalar_nd(GM_ADDR out)
{
    GlobalTensor<half> oGm;
    oGm.SetGlobalBuffer((__gm__ half*)out);
    LocalTensor<int32_t> c1(TPosition::CO1, 0, M * N);
    FillL0C(c1);
    SetFixpipePreQuantFlag(Word(2.0f));
    SetFixpipeNz2ndFlag(1, 0, 0);
    DataCopyCO12DstParams p;
    p.nSize = N;
    p.mSize = M;
    p.srcStride = M;
    p.dstStride = N;
    p.quantPre = QuantMode_t::DEQF16;
    p.reluPre = 1;
    p.nz2ndEn = true;
    DataCopy(oGm, c1, p);
}

__global__ __aicore__ void vector_nz(GM_ADDR words, GM_ADDR out)
{
    GlobalTensor<uint64_t> wGm;
    wGm.SetGlobalBuffer((__gm__ uint64_t*)words);
    GlobalTensor<half> oGm;
    oGm.SetGlobalBuffer((__gm__ half*)out);
    LocalTensor<int32_t> c1(TPosition::CO1, 0, M * N);
    FillL0C(c1);
    LocalTensor<uint64_t> wL1(TPosition::C1, 0, N);
    DataCopy(wL1, wGm, N);
    SetFlag<HardEvent::MTE2_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_FIX>(EVENT_ID0);
    LocalTensor<uint64_t> fb(TPosition::C2PIPE2GM, 0, N);
    DataCopy(fb, wL1, DataCopyParams(1, N * 8 / 128, 0, 0));
    SetFixPipeConfig(fb);
    PipeBarrier<PIPE_FIX>();
    // {nSize, mSize, dstStride (32-byte blocks between groups), srcStride, quantPre, reluPre,
    // channelSplit, nz2ndEn}
    DataCopyCO12DstParams p(N, M, M * 32 / 32, M, QuantMode_t::VDEQF16, 0, false, false);
    DataCopy(oGm, c1, p);
}

__global__ __aicore__ void float_to_l1(GM_ADDR out)
{
    GlobalTensor<half> oGm;
    oGm.SetGlobalBuffer((__gm__ half*)out);
    LocalTensor<float> c1(TPosition::CO1, 0, M * N);
    FillL0C(c1);
    LocalTensor<half> a1(TPosition::A1, 0, M * N);
    DataCopy(a1, c1, DataCopyCO12DstParams(N, M, M, M, QuantMode_t::F322F16, 0, false, false));
    SetFlag<HardEvent::FIX_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::FIX_MTE3>(EVENT_ID0);
    DataCopy(oGm, a1, M * N);
}

__global__ __aicore__ void unit_flag_reset(GM_ADDR)
{
    LocalTensor<half> a2(TPosition::A2, 0, 256);
    LocalTensor<half> b2(TPosition::B2, 0, 256);
    LocalTensor<float> c1(TPosition::CO1, 0, 256);
    Fill(a2, InitConstValueParams<half>(1, 1, 0, half(1)));
    Fill(b2, InitConstValueParams<half>(1, 1, 0, half(1)));
    PipeBarrier<PIPE_ALL>();
    MmadParams p(16, 16, 16, 3, false, true);
    Mmad(c1, a2, b2, p);
    // Without this the second Mmad would wait for a Fixpipe forever.
    SetFixPipeConfig<float>(c1, true);
    Mmad(c1, a2, b2, p);
}

int main()
{
    SetKernelMode(KernelMode::AIC_MODE);
    bool ok = true;
    half* o = (half*)GmAlloc(M * N * 2);
    ICPU_RUN_KF(scalar_nd, 1, (GM_ADDR)o);
    int wrong = 0;
    for (uint32_t r = 0; r < M; r++) {
        for (uint32_t c = 0; c < N; c++) {
            int32_t v = Value(r, c);
            wrong += float(o[r * N + c]) != float(v < 0 ? 0 : 2 * v);
        }
    }
    std::printf("scalar DEQF16, ReLU, NZ2ND: %s\n", wrong == 0 ? "PASS" : "FAIL");
    ok = wrong == 0;

    uint64_t* w = (uint64_t*)GmAlloc(N * 8);
    for (uint32_t c = 0; c < N; c++) w[c] = Word(0.5f * float(c % 5 + 1));
    ICPU_RUN_KF(vector_nz, 1, (GM_ADDR)w, (GM_ADDR)o);
    wrong = 0;
    for (uint32_t r = 0; r < M; r++) {
        for (uint32_t c = 0; c < N; c++) {
            wrong += float(o[Nz(r, c)]) != float(Value(r, c)) * 0.5f * float(c % 5 + 1);
        }
    }
    std::printf("vector VDEQF16 from the Fixpipe buffer, NZ: %s\n", wrong == 0 ? "PASS" : "FAIL");
    ok = wrong == 0 && ok;

    ICPU_RUN_KF(float_to_l1, 1, (GM_ADDR)o);
    wrong = 0;
    for (uint32_t r = 0; r < M; r++) {
        for (uint32_t c = 0; c < N; c++) wrong += float(o[Nz(r, c)]) != float(Value(r, c));
    }
    std::printf("float -> half into L1: %s\n", wrong == 0 ? "PASS" : "FAIL");
    ok = wrong == 0 && ok;

    ICPU_RUN_KF(unit_flag_reset, 1, (GM_ADDR)o);
    std::printf("SetFixPipeConfig unit-flag reset: PASS\n");
    GmFree(o);
    GmFree(w);
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
