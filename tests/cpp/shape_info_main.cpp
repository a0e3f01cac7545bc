// Host side of shape_info.cpp: `main [MODE]`; prints which checks held.
#include <cstdio>
#include <cstdlib>

#include "tikicpulib.h"

extern "C" __global__ __aicore__ void shapes(GM_ADDR x, GM_ADDR ok, int32_t mode);

int main(int argc, char** argv)
{
    int32_t mode = argc > 1 ? std::atoi(argv[1]) : 0;
    constexpr int checks = 12;
    float* x = (float*)AscendC::GmAlloc(64 * sizeof(float));
    uint32_t* ok = (uint32_t*)AscendC::GmAlloc(checks * sizeof(uint32_t));
    for (int i = 0; i < 64; i++) {
        x[i] = 0.5f * i - 3.0f;
    }
    ICPU_RUN_KF(shapes, 1, (GM_ADDR)x, (GM_ADDR)ok, mode);
    int held = 0;
    for (int i = 0; i < checks; i++) {
        std::printf("check %d: %s\n", i, ok[i] == 1 ? "held" : "FAILED");
        held += ok[i] == 1;
    }
    std::printf("%s\n", held == checks ? "PASS" : "FAIL");
    AscendC::GmFree(x);
    AscendC::GmFree(ok);
    return held == checks ? 0 : 1;
}
