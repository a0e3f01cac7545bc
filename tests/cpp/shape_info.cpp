// ShapeInfo on tensors: SetShapeInfo / GetShapeInfo on a GlobalTensor and on a queue tensor,
// the shape kept by GlobalTensor::operator[], by EnQue / DeQue and by ReinterpretCast. Each
// check writes 1 (held) or 0 into `ok`; `mode` 1 instead sets a shape of 9 dimensions, which the
// simulator refuses at that call.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t CHECKS = 12;

static bool Same(const ShapeInfo& s, uint8_t dim, const uint32_t* shape, uint8_t origDim,
                 const uint32_t* orig, DataFormat format)
{
    bool same = s.shapeDim == dim && s.originalShapeDim == origDim && s.dataFormat == format;
    for (int32_t i = 0; i < dim; i++) {
        same = same && s.shape[i] == shape[i];
    }
    for (int32_t i = 0; i < origDim; i++) {
        same = same && s.originalShape[i] == orig[i];
    }
    return same;
}

extern "C" __global__ __aicore__ void shapes(GM_ADDR x, GM_ADDR ok, int32_t mode)
{
    GlobalTensor<float> xGm;
    GlobalTensor<uint32_t> okGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    okGm.SetGlobalBuffer((__gm__ uint32_t*)ok, CHECKS);
    if (mode == 1) {
        uint32_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 64};
        xGm.SetShapeInfo(ShapeInfo(9, nine));
        return;
    }
    const uint32_t gShape[2] = {8, 8};
    const uint32_t lShape[2] = {2, 32};
    const uint32_t lOrig[3] = {1, 2, 32};
    bool held[CHECKS];
    held[0] = xGm.GetShapeInfo().shapeDim == 0;
    xGm.SetShapeInfo(ShapeInfo(2, gShape));
    held[1] = Same(xGm.GetShapeInfo(), 2, gShape, 2, gShape, DataFormat::ND);
    held[2] = Same(xGm[8].GetShapeInfo(), 2, gShape, 2, gShape, DataFormat::ND);

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> que;
    pipe.InitBuffer(que, 1, 64 * sizeof(float));
    LocalTensor<float> t = que.AllocTensor<float>();
    held[3] = t.GetShapeInfo().shapeDim == 0;
    t.SetShapeInfo(ShapeInfo(2, lShape, 3, lOrig, DataFormat::NZ));
    held[4] = Same(t.GetShapeInfo(), 2, lShape, 3, lOrig, DataFormat::NZ);
    DataCopy(t, xGm, 64);
    que.EnQue(t);
    LocalTensor<float> back = que.DeQue<float>();
    held[5] = Same(back.GetShapeInfo(), 2, lShape, 3, lOrig, DataFormat::NZ);
    held[6] = Same(back.ReinterpretCast<int32_t>().GetShapeInfo(), 2, lShape, 3, lOrig, DataFormat::NZ);
    // Setting a shape again replaces it, and equal shapes read back equal.
    back.SetShapeInfo(ShapeInfo(2, gShape));
    held[7] = Same(back.GetShapeInfo(), 2, gShape, 2, gShape, DataFormat::ND);
    LocalTensor<float> copy = back;
    held[8] = Same(copy.GetShapeInfo(), 2, gShape, 2, gShape, DataFormat::ND);
    // The data is untouched by all of this.
    held[9] = back.GetValue(0) == xGm.GetValue(0);
    held[10] = back.GetValue(63) == xGm.GetValue(63);
    held[11] = back.GetSize() == 64;
    que.FreeTensor(back);
    for (int32_t i = 0; i < CHECKS; i++) {
        okGm.SetValue(i, held[i] ? 1u : 0u);
    }
}
