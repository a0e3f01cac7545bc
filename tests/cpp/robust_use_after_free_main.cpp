// Host side of robust_use_after_free.cpp: `main MODE`; prints PASS when y = 2 x.
#include <cstdio>
#include <cstdlib>

#include "tikicpulib.h"

extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y, int32_t mode);

int main(int argc, char** argv)
{
    int32_t mode = argc > 1 ? std::atoi(argv[1]) : 0;
    constexpr int n = 256;
    float* x = (float*)AscendC::GmAlloc(n * sizeof(float));
    float* y = (float*)AscendC::GmAlloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
        x[i] = i;
        y[i] = -1.0f;
    }
    ICPU_RUN_KF(twice, 1, (GM_ADDR)x, (GM_ADDR)y, mode);
    int wrong = 0;
    for (int i = 0; i < n; i++) {
        wrong += y[i] != 2.0f * i;
    }
    std::printf("%s\n", wrong == 0 ? "PASS" : "FAIL");
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    return wrong == 0 ? 0 : 1;
}
