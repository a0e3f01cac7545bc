// Launches add_half (seed000_add.cpp) with host stack memory as its output: the launch accepts
// the pointer with a warning, and the kernel's DataCopy to a GlobalTensor over it is refused.
#include <cstdio>

#include "tikicpulib.h"

extern "C" __global__ __aicore__ void add_half(GM_ADDR a, GM_ADDR b, GM_ADDR out);

int main()
{
    uint8_t* a = (uint8_t*)AscendC::GmAlloc(512 * sizeof(half));
    uint8_t* b = (uint8_t*)AscendC::GmAlloc(512 * sizeof(half));
    uint8_t out[512 * sizeof(half)];
    ICPU_RUN_KF(add_half, 1, a, b, out);
    std::printf("the launch returned\n");
    return 0;
}
