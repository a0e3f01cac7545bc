// var += x: reads the current values through the output address (the input `var`, updated in
// place), adds x and stores them back.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void add_inplace(GM_ADDR var, GM_ADDR x, GM_ADDR varOut, GM_ADDR workspace,
                                                  GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<float> xGm, outGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, t.totalLength);
    outGm.SetGlobalBuffer((__gm__ float*)varOut, t.totalLength);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * t.totalLength * sizeof(float));
    AscendC::LocalTensor<float> a = buf.Get<float>();
    AscendC::LocalTensor<float> b = a[t.totalLength];
    AscendC::DataCopy(a, outGm, t.totalLength);
    AscendC::DataCopy(b, xGm, t.totalLength);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Add(a, a, b, t.totalLength);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(outGm, a, t.totalLength);
}
