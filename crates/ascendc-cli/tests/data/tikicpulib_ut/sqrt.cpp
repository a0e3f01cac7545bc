// A kernel named like the C library's sqrt: y = sqrt(x) * scale, `count` elements per block.
#include "kernel_operator.h"
#include "sqrt_tiling.h"

class KernelSqrt {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SqrtTiling& t) {
        count_ = t.count;
        scale_ = t.scale;
        xGm_.SetGlobalBuffer((__gm__ float*)x + AscendC::GetBlockIdx() * count_, count_);
        yGm_.SetGlobalBuffer((__gm__ float*)y + AscendC::GetBlockIdx() * count_, count_);
        pipe_.InitBuffer(inQ_, 1, count_ * sizeof(float));
        pipe_.InitBuffer(outQ_, 1, count_ * sizeof(float));
    }
    __aicore__ inline void Process() {
        AscendC::LocalTensor<float> x = inQ_.AllocTensor<float>();
        AscendC::DataCopy(x, xGm_, count_);
        inQ_.EnQue(x);
        x = inQ_.DeQue<float>();
        AscendC::LocalTensor<float> y = outQ_.AllocTensor<float>();
        AscendC::Sqrt(y, x, count_);
        AscendC::Muls(y, y, scale_, count_);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
        y = outQ_.DeQue<float>();
        AscendC::DataCopy(yGm_, y, count_);
        outQ_.FreeTensor(y);
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQ_;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ_;
    AscendC::GlobalTensor<float> xGm_, yGm_;
    uint32_t count_ = 0;
    float scale_ = 1;
};

extern "C" __global__ __aicore__ void sqrt(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    SqrtTiling t = *reinterpret_cast<__gm__ SqrtTiling*>(tiling);
    if (TILING_KEY_IS(1)) {
        KernelSqrt op;
        op.Init(x, y, t);
        op.Process();
    }
}
