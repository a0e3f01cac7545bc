// y = sqrt(x): the whole input in one tile. The entry is named `sqrt` beside <cmath>'s.
#include <cmath>

#include "kernel_operator.h"

extern "C" __global__ __aicore__ void sqrt(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> in;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> out;
    pipe.InitBuffer(in, 1, t.totalLength * sizeof(float));
    pipe.InitBuffer(out, 1, t.totalLength * sizeof(float));
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, t.totalLength);
    yGm.SetGlobalBuffer((__gm__ float*)y, t.totalLength);
    AscendC::LocalTensor<float> a = in.AllocTensor<float>();
    AscendC::DataCopy(a, xGm, t.totalLength);
    in.EnQue(a);
    a = in.DeQue<float>();
    AscendC::LocalTensor<float> b = out.AllocTensor<float>();
    AscendC::Sqrt(b, a, t.totalLength);
    out.EnQue(b);
    in.FreeTensor(a);
    b = out.DeQue<float>();
    AscendC::DataCopy(yGm, b, t.totalLength);
    out.FreeTensor(b);
}
