// Multi-core sums: every block adds its partial into one GM scalar with SetAtomicAdd, in fp32
// (one DataCopyPad of 4 bytes) and in fp16 (a 32-byte DataCopy whose other elements add 0).
// Prints the two sums as bit patterns; which rounding they carry depends on the block order.
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

template <typename T>
__aicore__ inline void AddPartial(GM_ADDR x, GM_ADDR out, bool scalar)
{
    constexpr int32_t PER = 32 / sizeof(T);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> que;
    pipe.InitBuffer(que, 1, 32);
    GlobalTensor<T> xGm, outGm;
    xGm.SetGlobalBuffer((__gm__ T*)x + GetBlockIdx() * PER);
    outGm.SetGlobalBuffer((__gm__ T*)out);
    LocalTensor<T> t = que.AllocTensor<T>();
    DataCopy(t, xGm, PER);
    SetAtomicAdd<T>();
    if (scalar) {
        DataCopyPad(outGm, t, DataCopyExtParams(1, sizeof(T), 0, 0, 0));
    } else {
        DataCopy(outGm, t, PER);
    }
    DisableDmaAtomic();
    que.FreeTensor(t);
}

extern "C" __global__ __aicore__ void sum_f32(GM_ADDR x, GM_ADDR out) { AddPartial<float>(x, out, true); }
extern "C" __global__ __aicore__ void sum_f16(GM_ADDR x, GM_ADDR out) { AddPartial<half>(x, out, false); }

int main()
{
    const float p32[8] = {1.0e8f, 1.0f, 1.0f, -1.0e8f, 3.0f, 1.0f, 0.5f, 7.25f};
    float* x32 = (float*)GmAlloc(8 * 8 * sizeof(float));
    float* o32 = (float*)GmAlloc(8 * sizeof(float));
    for (int b = 0; b < 8; b++) {
        x32[b * 8] = p32[b];
    }
    ICPU_RUN_KF(sum_f32, 8, (GM_ADDR)x32, (GM_ADDR)o32);

    const float p16[5] = {2048.0f, 1.0f, 1.0f, 1.0f, 1.0f};
    half* x16 = (half*)GmAlloc(5 * 16 * sizeof(half));
    half* o16 = (half*)GmAlloc(16 * sizeof(half));
    for (int b = 0; b < 5; b++) {
        x16[b * 16] = half(p16[b]);
        x16[b * 16 + 1] = half(40000.0f);
    }
    ICPU_RUN_KF(sum_f16, 5, (GM_ADDR)x16, (GM_ADDR)o16);

    uint32_t bits32;
    std::memcpy(&bits32, &o32[0], 4);
    uint16_t bits16, sat16;
    std::memcpy(&bits16, &o16[0], 2);
    std::memcpy(&sat16, &o16[1], 2);
    std::printf("f32 0x%08x f16 0x%04x sat 0x%04x\n", bits32, bits16, sat16);
    return 0;
}
