// y = sum of the tensors of the list x, read through its ListTensorDesc.
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"

extern "C" __global__ __aicore__ void sum_list(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::ListTensorDesc list(x);
    uint32_t n = t.totalLength;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * n * sizeof(float));
    AscendC::LocalTensor<float> acc = buf.Get<float>();
    AscendC::LocalTensor<float> one = acc[n];
    AscendC::Duplicate(acc, 0.0f, n);
    for (uint32_t k = 0; k < list.GetSize(); ++k) {
        AscendC::GlobalTensor<float> g;
        g.SetGlobalBuffer(list.GetDataPtr<float>(k), n);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(one, g, n);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Add(acc, acc, one, n);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, n);
    AscendC::DataCopy(yGm, acc, n);
}
