// The seed 000 pattern: two VECIN queues, one VECOUT queue, DataCopy in, Add, DataCopy out.
#include "kernel_operator.h"

constexpr int32_t LEN = 512;

class KernelAddHalf {
public:
    __aicore__ inline KernelAddHalf() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR out)
    {
        aGm.SetGlobalBuffer((__gm__ half*)a);
        bGm.SetGlobalBuffer((__gm__ half*)b);
        outGm.SetGlobalBuffer((__gm__ half*)out);
        pipe.InitBuffer(queA, 1, LEN * sizeof(half));
        pipe.InitBuffer(queB, 1, LEN * sizeof(half));
        pipe.InitBuffer(queOut, 1, LEN * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<half> a = queA.AllocTensor<half>();
        AscendC::LocalTensor<half> b = queB.AllocTensor<half>();
        AscendC::DataCopy(a, aGm, LEN);
        AscendC::DataCopy(b, bGm, LEN);
        queA.EnQue(a);
        queB.EnQue(b);

        AscendC::LocalTensor<half> x = queA.DeQue<half>();
        AscendC::LocalTensor<half> y = queB.DeQue<half>();
        AscendC::LocalTensor<half> sum = queOut.AllocTensor<half>();
        AscendC::Add(sum, x, y, LEN);
        queOut.EnQue<half>(sum);
        queA.FreeTensor(x);
        queB.FreeTensor(y);

        AscendC::LocalTensor<half> result = queOut.DeQue<half>();
        AscendC::DataCopy(outGm, result, LEN);
        queOut.FreeTensor(result);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> queA, queB;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> queOut;
    AscendC::GlobalTensor<half> aGm, bGm, outGm;
};

extern "C" __global__ __aicore__ void add_half(GM_ADDR a, GM_ADDR b, GM_ADDR out)
{
    KernelAddHalf op;
    op.Init(a, b, out);
    op.Process();
}
