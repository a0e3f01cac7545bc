// Host side of misaligned_copy.cpp: the launch must fail and end the process.
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void misaligned_copy(GM_ADDR src);

int main()
{
    uint8_t* src = (uint8_t*)AscendC::GmAlloc(512);
    ICPU_RUN_KF(misaligned_copy, 2, src);
    std::printf("the launch returned\n");
    return 0;
}
