// RmsNorm (half, [2, 8, 48] padded from H = 40, tiling made on the host with
// GetRmsNormTilingInfo and read from GM) and AscendQuant (float, per tensor, with the pipe's
// stack buffer; and per channel with a scale row), in the style of the vendor examples.
// Reads input/{x,gamma,q,scale}.bin, writes output/{rms,quant,quant_ch}.bin.
#include <cstdio>
#include <vector>

#include "data_utils.h"
#include "kernel_operator.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

constexpr uint32_t B = 2, S = 8, H = 48, H0 = 40, N = B * S * H;
constexpr uint32_t QN = 1024, QK = 128;

__global__ __vector__ void rms_kernel(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR tilingGm, uint32_t tmpBytes) {
    AscendC::TPipe pipe;
    GET_TILING_DATA_WITH_STRUCT(RmsNormTiling, tiling, tilingGm);
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inX, inG;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> out;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inX, 1, N * sizeof(half));
    pipe.InitBuffer(inG, 1, H * sizeof(half));
    pipe.InitBuffer(out, 1, N * sizeof(half));
    pipe.InitBuffer(tmpBuf, tmpBytes);
    AscendC::GlobalTensor<half> gx, gg, gy;
    gx.SetGlobalBuffer((__gm__ half*)x, N);
    gg.SetGlobalBuffer((__gm__ half*)gamma, H);
    gy.SetGlobalBuffer((__gm__ half*)y, N);
    auto xl = inX.AllocTensor<half>();
    auto gl = inG.AllocTensor<half>();
    AscendC::DataCopy(xl, gx, N);
    AscendC::DataCopy(gl, gg, H);
    inX.EnQue(xl);
    inG.EnQue(gl);
    xl = inX.DeQue<half>();
    gl = inG.DeQue<half>();
    auto yl = out.AllocTensor<half>();
    AscendC::LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    AscendC::RmsNorm<half, false>(yl, xl, gl, tmp, static_cast<half>(1e-4f), tiling);
    out.EnQue(yl);
    yl = out.DeQue<half>();
    AscendC::DataCopy(gy, yl, N);
    out.FreeTensor(yl);
    inX.FreeTensor(xl);
    inG.FreeTensor(gl);
}

__global__ __vector__ void quant_kernel(GM_ADDR q, GM_ADDR scale, GM_ADDR z, GM_ADDR zc) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> in, inS;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> out;
    pipe.InitBuffer(in, 1, QN * sizeof(float));
    pipe.InitBuffer(inS, 1, QK * sizeof(float));
    pipe.InitBuffer(out, 1, QN);
    AscendC::GlobalTensor<float> gq, gs;
    AscendC::GlobalTensor<int8_t> gz, gzc;
    gq.SetGlobalBuffer((__gm__ float*)q, QN);
    gs.SetGlobalBuffer((__gm__ float*)scale, QK);
    gz.SetGlobalBuffer((__gm__ int8_t*)z, QN);
    gzc.SetGlobalBuffer((__gm__ int8_t*)zc, QN);
    auto ql = in.AllocTensor<float>();
    auto sl = inS.AllocTensor<float>();
    AscendC::DataCopy(ql, gq, QN);
    AscendC::DataCopy(sl, gs, QK);
    in.EnQue(ql);
    inS.EnQue(sl);
    ql = in.DeQue<float>();
    sl = inS.DeQue<float>();
    auto zl = out.AllocTensor<int8_t>();
    AscendC::AscendQuant<float>(zl, ql, 2.0f, 0.9f, QN);  // stack buffer
    out.EnQue(zl);
    zl = out.DeQue<int8_t>();
    AscendC::DataCopy(gz, zl, QN);
    out.FreeTensor(zl);
    zl = out.AllocTensor<int8_t>();
    AscendC::AscendQuant<float>(zl, ql, sl, 0.5f, QK, QN);  // per channel, stack buffer
    out.EnQue(zl);
    zl = out.DeQue<int8_t>();
    AscendC::DataCopy(gzc, zl, QN);
    out.FreeTensor(zl);
    in.FreeTensor(ql);
    inS.FreeTensor(sl);
}

int main() {
    uint32_t maxTmp = 0, minTmp = 0;
    if (!AscendC::GetRmsNormMaxMinTmpSize(ge::Shape({B, S, H}), sizeof(half), maxTmp, minTmp, false)) {
        printf("GetRmsNormMaxMinTmpSize failed\n");
        return 1;
    }
    uint32_t tmpBytes = minTmp * 3;  // several passes and a tail
    RmsNormTiling host;
    if (!AscendC::GetRmsNormTilingInfo(ge::Shape({B, S, H}), ge::Shape({B, S, H0}), tmpBytes, sizeof(half), host)) {
        printf("GetRmsNormTilingInfo failed\n");
        return 1;
    }
    printf("tmp %u %u rows %u loops %u tail %u\n", maxTmp, minTmp, host.mainBsLength, host.loopRound,
           host.tailBsLength);
    size_t sx = N * sizeof(half), sg = H * sizeof(half);
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(sx);
    uint8_t* g = (uint8_t*)AscendC::GmAlloc(sg);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(sx);
    uint8_t* t = (uint8_t*)AscendC::GmAlloc(sizeof(RmsNormTiling));
    ReadFile("./input/x.bin", sx, x, sx);
    ReadFile("./input/gamma.bin", sg, g, sg);
    memcpy(t, &host, sizeof(RmsNormTiling));
    ICPU_RUN_KF(rms_kernel, 1, x, g, y, t, tmpBytes);
    WriteFile("./output/rms.bin", y, sx);

    uint8_t* q = (uint8_t*)AscendC::GmAlloc(QN * 4);
    uint8_t* s = (uint8_t*)AscendC::GmAlloc(QK * 4);
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(QN);
    uint8_t* zc = (uint8_t*)AscendC::GmAlloc(QN);
    size_t sq = QN * 4, ss = QK * 4;
    ReadFile("./input/q.bin", sq, q, sq);
    ReadFile("./input/scale.bin", ss, s, ss);
    ICPU_RUN_KF(quant_kernel, 1, q, s, z, zc);
    WriteFile("./output/quant.bin", z, QN);
    WriteFile("./output/quant_ch.bin", zc, QN);
    uint32_t qmax = 0, qmin = 0;
    AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({QN}), 4, qmax, qmin);
    printf("quant tmp %u %u\n", qmax, qmin);
    return 0;
}
