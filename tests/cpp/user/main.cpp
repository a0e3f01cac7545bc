// Host file for data_copy_kernel.cpp in the CPU-debug style: GmAlloc the inputs, fill them with
// 1..512, run the kernel on one block, print the output and check it is 2, 4, …, 1024.
#include <cstdio>

#include "tikicpulib.h"

extern "C" __global__ __aicore__ void data_copy_kernel(__gm__ uint8_t* src0Gm, __gm__ uint8_t* src1Gm,
                                                       __gm__ uint8_t* dstGm);

int main()
{
    constexpr size_t n = 512;
    size_t bytes = n * sizeof(half);
    half* src0 = (half*)AscendC::GmAlloc(bytes);
    half* src1 = (half*)AscendC::GmAlloc(bytes);
    half* dst = (half*)AscendC::GmAlloc(bytes);
    for (size_t i = 0; i < n; i++) {
        src0[i] = i + 1;
        src1[i] = i + 1;
    }
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(data_copy_kernel, 1, (uint8_t*)src0, (uint8_t*)src1, (uint8_t*)dst);
    int wrong = 0;
    for (size_t i = 0; i < n; i++) {
        wrong += float(dst[i]) != 2.0f * (i + 1);
    }
    std::printf("Output (dstGlobal): [%g %g %g ... %g]\n", float(dst[0]), float(dst[1]), float(dst[2]),
                float(dst[n - 1]));
    std::printf("%s\n", wrong == 0 ? "PASS" : "FAIL");
    AscendC::GmFree(src0);
    AscendC::GmFree(src1);
    AscendC::GmFree(dst);
    return wrong == 0 ? 0 : 1;
}
