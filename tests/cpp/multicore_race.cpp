// Every block writes its index + 1 to the same 8 ints: plainly (argv[1] = "plain", a race whose
// result depends on the block order) or with SetAtomicAdd<int32_t> (argv[1] = "atomic", 1 + … + n).
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void write_row(GM_ADDR out, GM_ADDR atomic)
{
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> que;
    pipe.InitBuffer(que, 1, 32);
    GlobalTensor<int32_t> outGm;
    outGm.SetGlobalBuffer((__gm__ int32_t*)out);
    LocalTensor<int32_t> t = que.AllocTensor<int32_t>();
    Duplicate(t, (int32_t)GetBlockIdx() + 1, 8);
    bool useAtomic = *(__gm__ int32_t*)atomic != 0;
    if (useAtomic) {
        SetAtomicAdd<int32_t>();
    }
    DataCopy(outGm, t, 8);
    if (useAtomic) {
        DisableDmaAtomic();
    }
    que.FreeTensor(t);
}

int main(int argc, char** argv)
{
    int32_t* out = (int32_t*)GmAlloc(32);
    int32_t* atomic = (int32_t*)GmAlloc(4);
    *atomic = argc > 1 && std::strcmp(argv[1], "atomic") == 0;
    ICPU_RUN_KF(write_row, 4, (GM_ADDR)out, (GM_ADDR)atomic);
    std::printf("out[0] = %d\n", out[0]);
    return 0;
}
