// Native faults inside a kernel, each reported with its block: `main MODE` with MODE 1 an integer
// division by zero, 2 abort(), 3 a stack overflow (unbounded recursion); 4 abort() in host code
// (the usual abort). `main MODE BLOCKS` runs BLOCKS blocks (on worker threads when more than one).
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

__aicore__ inline int64_t Deep(volatile int64_t* sink, int64_t n)
{
    volatile int64_t frame[512];
    frame[n % 512] = n;
    *sink += frame[n % 512];
    return Deep(sink, n + 1) + frame[(n + 1) % 512];
}

extern "C" __global__ __aicore__ void faulty(GM_ADDR out, int32_t mode)
{
    volatile int32_t zero = 0;
    volatile int64_t sink = 0;
    int32_t r = 0;
    if (mode == 1) {
        r = 7 / zero;
    } else if (mode == 2) {
        abort();
    } else if (mode == 3) {
        r = (int32_t)Deep(&sink, 0);
    }
    *(__gm__ int32_t*)out = r;
}

int main(int argc, char** argv)
{
    int32_t mode = argc > 1 ? std::atoi(argv[1]) : 0;
    int32_t blocks = argc > 2 ? std::atoi(argv[2]) : 1;
    int32_t* out = (int32_t*)AscendC::GmAlloc(32);
    out[0] = 0;
    if (mode == 4) {
        abort();
    }
    ICPU_RUN_KF(faulty, blocks, (GM_ADDR)out, mode);
    std::printf("finished %d\n", (int)out[0]);
    AscendC::GmFree(out);
    return 0;
}
