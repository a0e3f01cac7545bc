// Host file for reduce_kernel.cpp in the CPU-debug style with .bin files: reads the 2048-half
// input from the file given as first argument, writes the 16 sums to the second.
#include <cstdio>

#include "data_utils.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void reduce_kernel(__gm__ uint8_t* src, __gm__ uint8_t* dstGm);

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s INPUT.bin OUTPUT.bin\n", argv[0]);
        return 2;
    }
    size_t inputBytes = 2048 * sizeof(half);
    size_t outputBytes = 16 * sizeof(half);
    uint8_t* src = (uint8_t*)AscendC::GmAlloc(inputBytes);
    uint8_t* dst = (uint8_t*)AscendC::GmAlloc(outputBytes);
    size_t fileSize = 0;
    if (!ReadFile(argv[1], fileSize, src, inputBytes) || fileSize != inputBytes) {
        return 2;
    }
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(reduce_kernel, 1, src, dst);
    WriteFile(argv[2], dst, outputBytes);
    AscendC::GmFree(src);
    AscendC::GmFree(dst);
    return 0;
}
