// Host side of event_flags.cpp: 4 blocks, y must be 3 x.
#include <cstdio>

#include "tikicpulib.h"

extern "C" __global__ __aicore__ void triple(GM_ADDR x, GM_ADDR y);

int main()
{
    constexpr int n = 4 * 64;
    float* x = (float*)AscendC::GmAlloc(n * sizeof(float));
    float* y = (float*)AscendC::GmAlloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
        x[i] = i - 100;
    }
    ICPU_RUN_KF(triple, 4, (GM_ADDR)x, (GM_ADDR)y);
    int wrong = 0;
    for (int i = 0; i < n; i++) {
        wrong += y[i] != 3.0f * (i - 100);
    }
    std::printf("%s\n", wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0 ? 0 : 1;
}
