// Fill, InitGlobalMemory and InitOutput through the C++ headers on several element types and
// sizes, one of them larger than a staging chunk; the elements after `size` stay untouched.
// Prints PASS per case.
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t BIG = 70000;  // more than one 65280-byte chunk of floats
constexpr uint32_t SMALL = 37;   // not a whole number of 32-byte units

extern "C" __global__ __aicore__ void fill_kernel(GM_ADDR f, GM_ADDR h, GM_ADDR i)
{
    TPipe pipe;
    GlobalTensor<float> fGm;
    GlobalTensor<half> hGm;
    GlobalTensor<int32_t> iGm;
    fGm.SetGlobalBuffer((__gm__ float*)f, BIG + 8);
    hGm.SetGlobalBuffer((__gm__ half*)h, SMALL + 16);
    iGm.SetGlobalBuffer((__gm__ int32_t*)i, 2 * SMALL + 8);
    Fill(fGm, BIG, 1.5f);
    InitGlobalMemory(hGm, SMALL, (half)-2.0f);
    InitOutput(iGm, SMALL, 7);
    GlobalTensor<int32_t> rest;
    rest.SetGlobalBuffer((__gm__ int32_t*)i + SMALL, SMALL + 8);
    InitOutput(rest, SMALL);
    PipeBarrier<PIPE_ALL>();
}

int main()
{
    float* f = (float*)GmAlloc((BIG + 8) * 4);
    half* h = (half*)GmAlloc((SMALL + 16) * 2);
    int32_t* i = (int32_t*)GmAlloc((2 * SMALL + 8) * 4);
    for (uint32_t k = 0; k < BIG + 8; k++) {
        f[k] = -1.0f;
    }
    for (uint32_t k = 0; k < SMALL + 16; k++) {
        h[k] = (half)9.0f;
    }
    for (uint32_t k = 0; k < 2 * SMALL + 8; k++) {
        i[k] = -1;
    }
    ICPU_RUN_KF(fill_kernel, 1, (GM_ADDR)f, (GM_ADDR)h, (GM_ADDR)i);
    bool fill = true;
    for (uint32_t k = 0; k < BIG + 8; k++) {
        fill = fill && f[k] == (k < BIG ? 1.5f : -1.0f);
    }
    bool init = true;
    for (uint32_t k = 0; k < SMALL + 16; k++) {
        init = init && float(h[k]) == (k < SMALL ? -2.0f : 9.0f);
    }
    bool output = true;
    for (uint32_t k = 0; k < 2 * SMALL + 8; k++) {
        output = output && i[k] == (k < SMALL ? 7 : k < 2 * SMALL ? 0 : -1);
    }
    std::printf("Fill: %s\n", fill ? "PASS" : "FAIL");
    std::printf("InitGlobalMemory: %s\n", init ? "PASS" : "FAIL");
    std::printf("InitOutput: %s\n", output ? "PASS" : "FAIL");
    GmFree(f);
    GmFree(h);
    GmFree(i);
    return fill && init && output ? 0 : 1;
}
