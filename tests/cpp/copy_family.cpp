// The DataCopy family beyond plain copies: DataCopyPad with padding (GM -> VECIN -> GM), a
// two-dimensional slice (GM -> VECIN -> GM) and an NZ -> ND copy out (GM -> VECIN -> VECOUT -> GM).
#include "kernel_operator.h"

using namespace AscendC;

// Three rows of 11 halves, contiguous in GM, each padded on the right to 16 with 7.
extern "C" __global__ __aicore__ void pad_rows(GM_ADDR src, GM_ADDR dst)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> que;
    GlobalTensor<half> srcGm, dstGm;
    srcGm.SetGlobalBuffer((__gm__ half*)src, 33);
    dstGm.SetGlobalBuffer((__gm__ half*)dst, 48);
    pipe.InitBuffer(que, 1, 48 * sizeof(half));

    LocalTensor<half> rows = que.AllocTensor<half>();
    DataCopyExtParams in(3, 11 * sizeof(half), 0, 0, 0);
    DataCopyPadExtParams<half> pad(true, 0, 5, 7);
    DataCopyPad(rows, srcGm, in, pad);
    que.EnQue(rows);

    LocalTensor<half> padded = que.DeQue<half>();
    DataCopyExtParams out(3, 16 * sizeof(half), 0, 0, 0);
    DataCopyPad(dstGm, padded, out);
    que.FreeTensor(padded);
}

// From a {40, 4} float tensor (rows of 40), columns 8..15 and 24..31 of rows 1 and 3.
extern "C" __global__ __aicore__ void slice_rows(GM_ADDR src, GM_ADDR dst)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> que;
    GlobalTensor<float> srcGm, dstGm;
    srcGm.SetGlobalBuffer((__gm__ float*)src);
    dstGm.SetGlobalBuffer((__gm__ float*)dst);
    uint32_t srcShape[] = {40, 4};
    uint32_t dstShape[] = {16, 2};
    srcGm.SetShapeInfo(ShapeInfo(2, srcShape, DataFormat::ND));
    dstGm.SetShapeInfo(ShapeInfo(2, dstShape, DataFormat::ND));
    pipe.InitBuffer(que, 1, 32 * sizeof(float));

    SliceInfo srcSlice[] = {SliceInfo(8, 31, 8, 1), SliceInfo(1, 3, 1, 1)};
    SliceInfo dstSlice[] = {SliceInfo(0, 15, 0, 1), SliceInfo(0, 1, 0, 1)};
    LocalTensor<float> picked = que.AllocTensor<float>();
    picked.SetShapeInfo(ShapeInfo(2, dstShape, DataFormat::ND));
    DataCopy(picked, srcGm, dstSlice, srcSlice, 2);
    que.EnQue(picked);

    LocalTensor<float> out = que.DeQue<float>();
    DataCopy(dstGm, out, dstSlice, dstSlice, 2);
    que.FreeTensor(out);
}

// A 16 x 32 half matrix in NZ layout (two groups of 16 columns) written to GM in ND layout.
extern "C" __global__ __aicore__ void nz_to_nd(GM_ADDR src, GM_ADDR dst)
{
    constexpr uint32_t n = 16, d = 32;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQue;
    TQue<TPosition::VECOUT, 1> outQue;
    GlobalTensor<half> srcGm, dstGm;
    srcGm.SetGlobalBuffer((__gm__ half*)src, n * d);
    dstGm.SetGlobalBuffer((__gm__ half*)dst, n * d);
    pipe.InitBuffer(inQue, 1, n * d * sizeof(half));
    pipe.InitBuffer(outQue, 1, n * d * sizeof(half));

    LocalTensor<half> nz = inQue.AllocTensor<half>();
    DataCopy(nz, srcGm, n * d);
    inQue.EnQue(nz);
    LocalTensor<half> staged = inQue.DeQue<half>();
    LocalTensor<half> out = outQue.AllocTensor<half>();
    DataCopy(out, staged, n * d);
    outQue.EnQue(out);
    inQue.FreeTensor(staged);

    LocalTensor<half> ready = outQue.DeQue<half>();
    DataCopy(dstGm, ready, Nz2NdParamsFull(1, n, d, 1, n, d, 1));
    outQue.FreeTensor(ready);
}
