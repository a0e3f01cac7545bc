// Host side of repeat_reduce_sum.cpp: element i is i / 128 + (i % 8) / 2, so repeat r sums to
// 128 r + 224 (exact in half). Prints each sum and checks it.
#include <cstdio>

#include "tikicpulib.h"

extern "C" __global__ __aicore__ void repeat_reduce_sum(GM_ADDR src, GM_ADDR dst);

int main()
{
    half* src = (half*)AscendC::GmAlloc(2048 * sizeof(half));
    half* dst = (half*)AscendC::GmAlloc(16 * sizeof(half));
    for (int i = 0; i < 2048; i++) {
        src[i] = i / 128 + (i % 8) * 0.5;
    }
    ICPU_RUN_KF(repeat_reduce_sum, 1, (GM_ADDR)src, (GM_ADDR)dst);
    int wrong = 0;
    for (int r = 0; r < 16; r++) {
        std::printf("%g ", float(dst[r]));
        wrong += float(dst[r]) != 128.0f * r + 224.0f;
    }
    std::printf("\n%s\n", wrong == 0 ? "PASS" : "FAIL");
    AscendC::GmFree(src);
    AscendC::GmFree(dst);
    return wrong == 0 ? 0 : 1;
}
