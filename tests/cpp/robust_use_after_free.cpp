// A queue tensor used after its FreeTensor. `mode`: 0 correct; 1 an Add on the freed input;
// 2 a DataCopy out of the freed output; 3 a stale handle after the buffer was allocated again.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t N = 256;

extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y, int32_t mode)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(inQueue, 1, N * sizeof(float));
    pipe.InitBuffer(outQueue, 1, N * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, N);
    yGm.SetGlobalBuffer((__gm__ float*)y, N);

    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, N);
    inQueue.EnQue(xLocal);
    LocalTensor<float> in = inQueue.DeQue<float>();
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    Add(out, in, in, N);
    inQueue.FreeTensor(in);
    if (mode == 1) {
        Add(out, in, in, N);
    }
    outQueue.EnQue(out);
    LocalTensor<float> yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, N);
    outQueue.FreeTensor(yLocal);
    if (mode == 2) {
        DataCopy(yGm, yLocal, N);
    }
    if (mode == 3) {
        LocalTensor<float> again = inQueue.AllocTensor<float>();
        Duplicate(again, 0.0f, N);
        Muls(in, in, 2.0f, N);
        inQueue.FreeTensor(again);
    }
}
