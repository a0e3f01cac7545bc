// y = !x on bool bytes: widened to half, 1 - x, narrowed back.
#include "kernel_operator.h"

static_assert(sizeof(DTYPE_X) == 1 && ORIG_DTYPE_X == DT_BOOL, "x is a bool tensor");

extern "C" __global__ __aicore__ void flip_flags(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    uint32_t n = t.totalLength;
    AscendC::GlobalTensor<uint8_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ uint8_t*)x, n);
    yGm.SetGlobalBuffer((__gm__ uint8_t*)y, n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bytes, halves;
    pipe.InitBuffer(bytes, n);
    pipe.InitBuffer(halves, n * sizeof(half));
    AscendC::LocalTensor<uint8_t> b = bytes.Get<uint8_t>();
    AscendC::LocalTensor<half> h = halves.Get<half>();
    AscendC::DataCopy(b, xGm, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Cast(h, b, AscendC::RoundMode::CAST_NONE, n);
    AscendC::Muls(h, h, static_cast<half>(-1), n);
    AscendC::Adds(h, h, static_cast<half>(1), n);
    AscendC::Cast(b, h, AscendC::RoundMode::CAST_ROUND, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm, b, n);
}
