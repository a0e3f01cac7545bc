// Element-wise vector instructions on 64 floats: Sub, Mul, Div, Max, Abs, Adds + Muls, Compare +
// Select, Cast float -> half -> float, Exp, and a level-0 Add under a bitwise mask.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t N = 64;
constexpr int32_t OUTPUTS = 10;

extern "C" __global__ __aicore__ void vec_ops(GM_ADDR x, GM_ADDR y, GM_ADDR out)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qx, qy;
    TQue<QuePosition::VECOUT, 1> qout;
    TBuf<QuePosition::VECCALC> scratch;
    GlobalTensor<float> xGm, yGm, outGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, N);
    yGm.SetGlobalBuffer((__gm__ float*)y, N);
    outGm.SetGlobalBuffer((__gm__ float*)out, N * OUTPUTS);
    pipe.InitBuffer(qx, 1, N * sizeof(float));
    pipe.InitBuffer(qy, 1, N * sizeof(float));
    pipe.InitBuffer(qout, 1, N * OUTPUTS * sizeof(float));
    pipe.InitBuffer(scratch, 256);

    LocalTensor<float> xIn = qx.AllocTensor<float>();
    LocalTensor<float> yIn = qy.AllocTensor<float>();
    DataCopy(xIn, xGm, N);
    DataCopy(yIn, yGm, N);
    qx.EnQue(xIn);
    qy.EnQue(yIn);
    LocalTensor<float> a = qx.DeQue<float>();
    LocalTensor<float> b = qy.DeQue<float>();
    LocalTensor<float> o = qout.AllocTensor<float>();

    Sub(o[0 * N], a, b, N);
    Mul(o[1 * N], a, b, N);
    Div(o[2 * N], a, b, N);
    Max(o[3 * N], a, b, N);
    Abs(o[4 * N], a, N);
    Adds(o[5 * N], a, 2.5f, N);
    Muls(o[5 * N], o[5 * N], 2.0f, N);

    LocalTensor<uint8_t> less = scratch.Get<uint8_t>(32);
    Compare(less, a, b, CMPMODE::LT, N);
    Select(o[6 * N], less, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, N);

    LocalTensor<half> h = scratch.GetWithOffset<half>(N, 128);
    Cast(h, a, RoundMode::CAST_NONE, N);
    Cast(o[7 * N], h, RoundMode::CAST_NONE, N);

    Exp(o[8 * N], a, N);

    uint64_t evenLanes[2] = {0x5555555555555555ULL, 0};
    Duplicate(o[9 * N], 0.0f, N);
    Add(o[9 * N], a, b, evenLanes, 1, {1, 1, 1, 8, 8, 8});

    qout.EnQue(o);
    qx.FreeTensor(a);
    qy.FreeTensor(b);
    LocalTensor<float> result = qout.DeQue<float>();
    DataCopy(outGm, result, N * OUTPUTS);
    qout.FreeTensor(result);
}
