// RepeatReduceSum over 16 repeats of 128 halves: one sum per repeat, written contiguously.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t SRC_LEN = 2048;
constexpr int32_t PER_REPEAT = 128;
constexpr int32_t REPEATS = SRC_LEN / PER_REPEAT;

class KernelRepeatSum {
public:
    __aicore__ inline void Init(GM_ADDR src, GM_ADDR dst)
    {
        srcGm.SetGlobalBuffer((__gm__ half*)src, SRC_LEN);
        dstGm.SetGlobalBuffer((__gm__ half*)dst, REPEATS);
        pipe.InitBuffer(inQue, 1, SRC_LEN * sizeof(half));
        pipe.InitBuffer(outQue, 1, REPEATS * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<half> in = inQue.AllocTensor<half>();
        DataCopy(in, srcGm, SRC_LEN);
        inQue.EnQue(in);

        LocalTensor<half> x = inQue.DeQue<half>();
        LocalTensor<half> sums = outQue.AllocTensor<half>();
        RepeatReduceSum<half>(sums, x, REPEATS, PER_REPEAT, 0, 1, 1, 8);
        outQue.EnQue(sums);
        inQue.FreeTensor(x);

        LocalTensor<half> out = outQue.DeQue<half>();
        DataCopy(dstGm, out, REPEATS);
        outQue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    GlobalTensor<half> srcGm, dstGm;
};

extern "C" __global__ __aicore__ void repeat_reduce_sum(GM_ADDR src, GM_ADDR dst)
{
    KernelRepeatSum op;
    op.Init(src, dst);
    op.Process();
}
