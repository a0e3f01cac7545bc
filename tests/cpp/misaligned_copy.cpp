// A DataCopy whose UB destination starts 6 bytes into a buffer: the simulator rejects it.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void misaligned_copy(GM_ADDR src)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> que;
    AscendC::GlobalTensor<half> srcGm;
    srcGm.SetGlobalBuffer((__gm__ half*)src, 256);
    pipe.InitBuffer(que, 1, 256 * sizeof(half));
    AscendC::LocalTensor<half> buf = que.AllocTensor<half>();
    AscendC::DataCopy(buf[3], srcGm, 128);
    que.EnQue(buf);
}
