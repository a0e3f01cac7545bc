// The SoftMax family on Atlas 200I/500 A2 (run with `ascendc run --product 310B`): SoftMax
// (float and half), SimpleSoftMax, SoftmaxFlashV2 with update, SoftmaxGrad and SoftmaxGradFront
// in one single-source program (kernel and host, as the vendor examples are). The host tilings
// come from the Tiling functions through TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, …) fields
// saved to GM; results are checked against double-precision references.
#include "tikicpulib.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
#include <cmath>
#include <cstdio>
#include <cstring>

namespace optiling {
BEGIN_TILING_DATA_DEF(Softmax310BTiling)
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, soft);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softHalf);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, flash);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, grad);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, front);
END_TILING_DATA_DEF;
}  // namespace optiling

constexpr uint32_t M = 8;
constexpr uint32_t K = 80;

struct KernelTiling {
    uint32_t tmpBytes;
    SoftMaxTiling soft;
    SoftMaxTiling softHalf;
    SoftMaxTiling flash;
    SoftMaxTiling grad;
    SoftMaxTiling front;
};

// out: y (softmax), ys (SimpleSoftMax), yf (FlashV2 update dst), fsum (its expSum, per row),
// yg (SoftmaxGrad), yfront (SoftmaxGradFront, per row), yh (half softmax).
__global__ __vector__ void softmax_310b_kernel(GM_ADDR x, GM_ADDR g, GM_ADDR y, GM_ADDR ys, GM_ADDR yf,
                                               GM_ADDR fsum, GM_ADDR yg, GM_ADDR yfront, GM_ADDR yh,
                                               GM_ADDR tilingGm) {
    KernelTiling t;
    std::memcpy(&t, tilingGm, sizeof(t));
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 65536);
    constexpr uint32_t N = M * K * 4;
    AscendC::LocalTensor<float> src = buf.Get<float>(M * K);
    AscendC::LocalTensor<float> grad = buf.GetWithOffset<float>(M * K, N);
    AscendC::LocalTensor<float> dst = buf.GetWithOffset<float>(M * K, 2 * N);
    AscendC::LocalTensor<float> mx = buf.GetWithOffset<float>(M * 8, 3 * N);
    AscendC::LocalTensor<float> sm = buf.GetWithOffset<float>(M * 8, 3 * N + 256);
    AscendC::LocalTensor<float> mx2 = buf.GetWithOffset<float>(M * 8, 3 * N + 512);
    AscendC::LocalTensor<float> sm2 = buf.GetWithOffset<float>(M * 8, 3 * N + 768);
    AscendC::LocalTensor<float> em = buf.GetWithOffset<float>(M * 8, 3 * N + 1024);
    AscendC::LocalTensor<half> srcH = buf.GetWithOffset<half>(M * K, 3 * N + 1280);
    AscendC::LocalTensor<half> dstH = buf.GetWithOffset<half>(M * K, 3 * N + 1280 + N / 2);
    AscendC::LocalTensor<half> mxH = buf.GetWithOffset<half>(M * 16, 4 * N + 1280);
    AscendC::LocalTensor<half> smH = buf.GetWithOffset<half>(M * 16, 4 * N + 1536);
    AscendC::LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(t.tmpBytes, 4 * N + 2048);
    AscendC::GlobalTensor<float> gx, gg, gy, gys, gyf, gfs, gyg, gfr;
    AscendC::GlobalTensor<half> gyh;
    gx.SetGlobalBuffer((__gm__ float*)x);
    gg.SetGlobalBuffer((__gm__ float*)g);
    gy.SetGlobalBuffer((__gm__ float*)y);
    gys.SetGlobalBuffer((__gm__ float*)ys);
    gyf.SetGlobalBuffer((__gm__ float*)yf);
    gfs.SetGlobalBuffer((__gm__ float*)fsum);
    gyg.SetGlobalBuffer((__gm__ float*)yg);
    gfr.SetGlobalBuffer((__gm__ float*)yfront);
    gyh.SetGlobalBuffer((__gm__ half*)yh);
    AscendC::DataCopy(src, gx, M * K);
    AscendC::DataCopy(grad, gg, M * K);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::SoftMaxShapeInfo shape = {M, K, M, K};

    AscendC::SoftMax<float>(dst, sm, mx, src, tmp, t.soft, shape);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(gy, dst, M * K);
    AscendC::PipeBarrier<PIPE_ALL>();

    // SimpleSoftMax with the max and sum just computed gives the same rows again.
    AscendC::SimpleSoftMax<float>(dst, sm, mx, src, tmp, t.soft, shape);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(gys, dst, M * K);
    AscendC::PipeBarrier<PIPE_ALL>();

    // FlashV2 update with the row's own max and sum: max unchanged, expMax 1, expSum 2 · sum.
    AscendC::SoftmaxFlashV2<float, true>(dst, sm2, mx2, src, em, sm, mx, tmp, t.flash, shape);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(gyf, dst, M * K);
    AscendC::DataCopy(gfs, sm2, M * 8);
    AscendC::PipeBarrier<PIPE_ALL>();

    // Gradients with y = softmax(x) reloaded from GM.
    AscendC::DataCopy(src, gy, M * K);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::SoftmaxGrad<float>(dst, grad, src, tmp, t.grad, false, shape);
    AscendC::SoftmaxGradFront<float>(mx2, grad, src, tmp, t.front, shape);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(gyg, dst, M * K);
    AscendC::DataCopy(gfr, mx2, M * 8);
    AscendC::PipeBarrier<PIPE_ALL>();

    // Half SoftMax: x narrowed on the host side of the kernel.
    AscendC::DataCopy(src, gx, M * K);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Cast(srcH, src, AscendC::RoundMode::CAST_RINT, M * K);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::SoftMax<half>(dstH, smH, mxH, srcH, tmp, t.softHalf, shape);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(gyh, dstH, M * K);
}

static float HalfToFloat(uint16_t h) {
    uint32_t s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? std::ldexp((float)m, -24) : std::ldexp((float)(m | 1024), (int)e - 25);
    return s ? -v : v;
}

int main() {
    AscendC::TensorShape shape({M, K});
    uint32_t tmpBytes = AscendC::GetSoftMaxGradMinTmpSize(shape, sizeof(float), false, false) * 3;
    optiling::Softmax310BTiling tiling;
    tiling.set_tmpBytes(tmpBytes);
    AscendC::SoftMaxTilingFunc(shape, sizeof(float), tmpBytes, tiling.soft);
    AscendC::SoftMaxTilingFunc(shape, sizeof(uint16_t), tmpBytes, tiling.softHalf);
    AscendC::SoftMaxFlashV2TilingFunc(shape, 4, 4, tmpBytes, tiling.flash, true, false);
    AscendC::SoftMaxGradTilingFunc(shape, sizeof(float), tmpBytes, tiling.grad, false);
    AscendC::SoftMaxGradTilingFunc(shape, sizeof(float), tmpBytes, tiling.front, true);
    uint8_t* tilingGm = (uint8_t*)AscendC::GmAlloc(tiling.GetDataSize());
    tiling.SaveToBuffer(tilingGm, tiling.GetDataSize());
    float* x = (float*)AscendC::GmAlloc(M * K * 4);
    float* g = (float*)AscendC::GmAlloc(M * K * 4);
    float* y = (float*)AscendC::GmAlloc(M * K * 4);
    float* ys = (float*)AscendC::GmAlloc(M * K * 4);
    float* yf = (float*)AscendC::GmAlloc(M * K * 4);
    float* fsum = (float*)AscendC::GmAlloc(M * 8 * 4);
    float* yg = (float*)AscendC::GmAlloc(M * K * 4);
    float* yfront = (float*)AscendC::GmAlloc(M * 8 * 4);
    uint16_t* yh = (uint16_t*)AscendC::GmAlloc(M * K * 2);
    for (uint32_t i = 0; i < M * K; i++) {
        x[i] = std::sin(i * 0.7f) * 6.0f;
        g[i] = std::cos(i * 0.3f);
    }
    ICPU_RUN_KF(softmax_310b_kernel, 1, (uint8_t*)x, (uint8_t*)g, (uint8_t*)y, (uint8_t*)ys, (uint8_t*)yf,
                (uint8_t*)fsum, (uint8_t*)yg, (uint8_t*)yfront, (uint8_t*)yh, tilingGm);
    int bad = 0;
    double errHalf = 0;
    for (uint32_t r = 0; r < M; r++) {
        double m = -1e300, s = 0, dot = 0;
        for (uint32_t j = 0; j < K; j++) m = std::fmax(m, x[r * K + j]);
        for (uint32_t j = 0; j < K; j++) s += std::exp(x[r * K + j] - m);
        for (uint32_t j = 0; j < K; j++) dot += (double)y[r * K + j] * g[r * K + j];
        if (std::fabs(fsum[r * 8 + 5] - 2 * s) > 1e-5 * s) bad++;
        if (std::fabs(yfront[r * 8 + 3] - dot) > 1e-6) bad++;
        for (uint32_t j = 0; j < K; j++) {
            double p = std::exp(x[r * K + j] - m) / s;
            if (std::fabs(y[r * K + j] - p) > 1e-6) bad++;
            if (ys[r * K + j] != y[r * K + j]) bad++;
            if (std::fabs(yf[r * K + j] - std::exp(x[r * K + j] - m)) > 1e-6) bad++;
            double gr = y[r * K + j] * (g[r * K + j] - dot);
            if (std::fabs(yg[r * K + j] - gr) > 1e-6) bad++;
            errHalf = std::fmax(errHalf, std::fabs(HalfToFloat(yh[r * K + j]) - p));
        }
    }
    if (errHalf > 4e-3) bad++;
    printf("splitM %u bad %d half error %.3g\n", tiling.soft.get_splitM(), bad, errHalf);
    if (bad == 0) {
        printf("softmax 310B ok\n");
    }
    return bad == 0 ? 0 : 1;
}
