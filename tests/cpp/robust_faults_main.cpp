// Host side of robust_faults.cpp: `main MODE`.
#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void misbehave(GM_ADDR y, int32_t mode);

int main(int argc, char** argv)
{
    int32_t mode = argc > 1 ? std::atoi(argv[1]) : 0;
    if (mode == 5) {
        // More than the host can map: null and an error code, and the program goes on.
        void* huge = AscendC::GmAlloc(1ULL << 50);
        void* dev = nullptr;
        aclError rc = aclrtMalloc(&dev, 1ULL << 50, ACL_MEM_MALLOC_HUGE_FIRST);
        std::printf("GmAlloc null %d, aclrtMalloc %d, devPtr null %d\n", huge == nullptr, (int)rc,
            dev == nullptr);
        return 0;
    }
    float* y = (float*)AscendC::GmAlloc(62 * sizeof(float));
    ICPU_RUN_KF(misbehave, 1, (GM_ADDR)y, mode);
    AscendC::GmFree(y);
    std::printf("the host goes on\n");
    return 0;
}
