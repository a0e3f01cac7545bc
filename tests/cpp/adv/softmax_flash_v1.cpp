// SoftmaxFlash (the first version) in one single-source program, in the style of the vendor
// examples: the host sizes the buffer with GetSoftMaxFlashMinTmpSize / GetSoftMaxFlashMaxTmpSize
// and tiles with SoftMaxFlashTilingFunc into a TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, …)
// struct; the kernel runs the first block of columns without update (framework temporary space,
// in place as the page's example) and the next block with update (sharedTmpBuffer, sum/max in
// place). The host checks both steps against a double-precision model of the page's formula.
#include "tikicpulib.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace optiling {
BEGIN_TILING_DATA_DEF(FlashV1TestTiling)
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, first);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, update);
END_TILING_DATA_DEF;
}  // namespace optiling

constexpr uint32_t M = 20;
constexpr uint32_t K = 144;

struct KernelTiling {
    uint32_t tmpBytes;
    SoftMaxTiling first;
    SoftMaxTiling update;
};

__global__ __vector__ void flash_kernel(GM_ADDR x, GM_ADDR y0, GM_ADDR y1, GM_ADDR stats, GM_ADDR em,
                                        GM_ADDR tilingGm) {
    KernelTiling t;
    std::memcpy(&t, tilingGm, sizeof(t));
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> statBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inQueue, 1, M * K * sizeof(half));
    pipe.InitBuffer(statBuf, 3 * M * 16 * sizeof(half));
    pipe.InitBuffer(tmpBuf, t.tmpBytes);
    AscendC::LocalTensor<half> sum = statBuf.Get<half>(M * 16);
    AscendC::LocalTensor<half> mx = statBuf.GetWithOffset<half>(M * 16, M * 16 * 2);
    AscendC::LocalTensor<half> expMax = statBuf.GetWithOffset<half>(M * 16, 2 * M * 16 * 2);
    AscendC::LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    AscendC::GlobalTensor<half> gx, gy0, gy1, gs, gem;
    gx.SetGlobalBuffer((__gm__ half*)x);
    gy0.SetGlobalBuffer((__gm__ half*)y0);
    gy1.SetGlobalBuffer((__gm__ half*)y1);
    gs.SetGlobalBuffer((__gm__ half*)stats);
    gem.SetGlobalBuffer((__gm__ half*)em);
    AscendC::SoftMaxShapeInfo shape = {M, K, M, K};

    // Step 1: no update (= SoftMax), in place, the framework's temporary space.
    AscendC::LocalTensor<half> src = inQueue.AllocTensor<half>();
    AscendC::DataCopy(src, gx, M * K);
    inQueue.EnQue(src);
    src = inQueue.DeQue<half>();
    AscendC::SoftmaxFlash<half, false>(src, sum, mx, src, expMax, sum, mx, t.first, false, shape);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(gy0, src, M * K);
    AscendC::PipeBarrier<PIPE_ALL>();

    // Step 2: the next block of columns with update; sum and max in place.
    AscendC::DataCopy(src, gx[M * K], M * K);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::SoftmaxFlash<half, false, false>(src, sum, mx, src, expMax, sum, mx, tmp, t.update, true, shape);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(gy1, src, M * K);
    AscendC::DataCopy(gs, sum, M * 16);
    AscendC::DataCopy(gs[M * 16], mx, M * 16);
    AscendC::DataCopy(gem, expMax, M * 16);
    inQueue.FreeTensor(src);
}

int main() {
    AscendC::TensorShape shape({M, K});
    const uint32_t minBytes = AscendC::GetSoftMaxFlashMinTmpSize(shape, sizeof(half), true, false);
    const uint32_t maxBytes = AscendC::GetSoftMaxFlashMaxTmpSize(shape, sizeof(half), true, false);
    const uint32_t tmpBytes = minBytes * 12;  // 12 rows fit: passes of 8 rows and a tail of 4
    optiling::FlashV1TestTiling tiling;
    tiling.set_tmpBytes(tmpBytes);
    AscendC::SoftMaxFlashTilingFunc(shape, sizeof(half), 64 * 1024, tiling.first, false);
    AscendC::SoftMaxFlashTilingFunc(shape, sizeof(half), tmpBytes, tiling.update, true);
    uint8_t* tilingGm = (uint8_t*)AscendC::GmAlloc(tiling.GetDataSize());
    tiling.SaveToBuffer(tilingGm, tiling.GetDataSize());
    half* x = (half*)AscendC::GmAlloc(2 * M * K * 2);
    half* y0 = (half*)AscendC::GmAlloc(M * K * 2);
    half* y1 = (half*)AscendC::GmAlloc(M * K * 2);
    half* stats = (half*)AscendC::GmAlloc(2 * M * 16 * 2);
    half* em = (half*)AscendC::GmAlloc(M * 16 * 2);
    std::vector<double> xf(2 * M * K);
    for (uint32_t i = 0; i < 2 * M * K; i++) {
        x[i] = half(std::sin(i * 0.37f) * 3.0f + (i % K) * 0.01f);
        xf[i] = (float)x[i];
    }
    ICPU_RUN_KF(flash_kernel, 1, (uint8_t*)x, (uint8_t*)y0, (uint8_t*)y1, (uint8_t*)stats, (uint8_t*)em, tilingGm);
    int bad = 0;
    double worst = 0;
    for (uint32_t r = 0; r < M; r++) {
        const double* a = &xf[r * K];
        const double* b = &xf[M * K + r * K];
        double m0 = -1e300, s0 = 0, m1 = -1e300, s1 = 0;
        for (uint32_t j = 0; j < K; j++) m0 = std::fmax(m0, a[j]);
        for (uint32_t j = 0; j < K; j++) s0 += std::exp(a[j] - m0);
        // The stored (half) step-1 statistics are the update's inputs.
        const double im = (float)half((float)m0), is = (float)half((float)s0);
        for (uint32_t j = 0; j < K; j++) m1 = std::fmax(m1, b[j]);
        const double nm = std::fmax(m1, im);
        for (uint32_t j = 0; j < K; j++) s1 += std::exp(b[j] - nm);
        const double scaled = std::exp(im - nm) * is;
        const double sum = scaled + s1, expMax = scaled / sum;
        for (uint32_t j = 0; j < K; j++) {
            const double w0 = std::exp(a[j] - m0) / s0, w1 = std::exp(b[j] - nm) / sum;
            const double e0 = std::fabs((float)y0[r * K + j] - w0), e1 = std::fabs((float)y1[r * K + j] - w1);
            worst = std::fmax(worst, std::fmax(e0, e1));
            if (e0 > 2e-3 * std::fmax(w0, 0.01) || e1 > 2e-3 * std::fmax(w1, 0.01)) bad++;
        }
        const double got[3] = {(float)stats[r * 16 + 5], (float)stats[M * 16 + r * 16 + 15], (float)em[r * 16]};
        const double want[3] = {sum, nm, expMax};
        for (int i = 0; i < 3; i++) {
            if (std::fabs(got[i] - want[i]) > 2e-3 * std::fmax(1.0, std::fabs(want[i]))) {
                printf("row %u stat %d: %f vs %f\n", r, i, got[i], want[i]);
                bad++;
            }
        }
    }
    printf("min %u max %u splitM %u rangeM %u tailM %u worst %.3g bad %d\n", minBytes, maxBytes,
           tiling.update.get_splitM(), tiling.update.get_rangeM(), tiling.update.get_tailM(), worst, bad);
    if (bad == 0) {
        printf("softmax flash ok\n");
    }
    return bad == 0 ? 0 : 1;
}
