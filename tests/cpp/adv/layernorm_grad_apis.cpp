// LayerNormGrad (float, [2, 8, 64], tiling made on the host with GetLayerNormGradNDTilingInfo and
// read from GM) followed by LayerNormGradBeta on its resForGamma, in the style of the vendor
// examples. Reads input/{dy,x,var,mean,gamma}.bin, writes output/{pdx,rg,pg,pb}.bin.
#include <cstdio>
#include <cstring>

#include "data_utils.h"
#include "kernel_operator.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

constexpr uint32_t B = 2, S = 8, H = 64, N = B * S * H, R = B * S;

struct GradTilingData {
    LayerNormGradTiling grad;
    LayerNormGradBetaTiling beta;
};

__global__ __vector__ void lng_kernel(GM_ADDR dy, GM_ADDR x, GM_ADDR var, GM_ADDR mean, GM_ADDR gamma, GM_ADDR pdx,
                                      GM_ADDR rg, GM_ADDR pg, GM_ADDR pb, GM_ADDR tilingGm, uint32_t tmpBytes) {
    AscendC::TPipe pipe;
    GET_TILING_DATA_WITH_STRUCT(GradTilingData, t, tilingGm);
    AscendC::TQue<AscendC::TPosition::VECIN, 1> qDy, qX, qVar, qMean, qGamma;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> qPdx, qRg, qPg, qPb;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(qDy, 1, N * 4);
    pipe.InitBuffer(qX, 1, N * 4);
    pipe.InitBuffer(qVar, 1, R * 4);
    pipe.InitBuffer(qMean, 1, R * 4);
    pipe.InitBuffer(qGamma, 1, H * 4);
    pipe.InitBuffer(qPdx, 1, N * 4);
    pipe.InitBuffer(qRg, 1, N * 4);
    pipe.InitBuffer(qPg, 1, H * 4);
    pipe.InitBuffer(qPb, 1, H * 4);
    pipe.InitBuffer(tmpBuf, tmpBytes);
    AscendC::GlobalTensor<float> gDy, gX, gVar, gMean, gGamma, gPdx, gRg, gPg, gPb;
    gDy.SetGlobalBuffer((__gm__ float*)dy, N);
    gX.SetGlobalBuffer((__gm__ float*)x, N);
    gVar.SetGlobalBuffer((__gm__ float*)var, R);
    gMean.SetGlobalBuffer((__gm__ float*)mean, R);
    gGamma.SetGlobalBuffer((__gm__ float*)gamma, H);
    gPdx.SetGlobalBuffer((__gm__ float*)pdx, N);
    gRg.SetGlobalBuffer((__gm__ float*)rg, N);
    gPg.SetGlobalBuffer((__gm__ float*)pg, H);
    gPb.SetGlobalBuffer((__gm__ float*)pb, H);
    auto dyl = qDy.AllocTensor<float>();
    auto xl = qX.AllocTensor<float>();
    auto vl = qVar.AllocTensor<float>();
    auto ml = qMean.AllocTensor<float>();
    auto gl = qGamma.AllocTensor<float>();
    AscendC::DataCopy(dyl, gDy, N);
    AscendC::DataCopy(xl, gX, N);
    AscendC::DataCopy(vl, gVar, R);
    AscendC::DataCopy(ml, gMean, R);
    AscendC::DataCopy(gl, gGamma, H);
    qDy.EnQue(dyl);
    qX.EnQue(xl);
    qVar.EnQue(vl);
    qMean.EnQue(ml);
    qGamma.EnQue(gl);
    dyl = qDy.DeQue<float>();
    xl = qX.DeQue<float>();
    vl = qVar.DeQue<float>();
    ml = qMean.DeQue<float>();
    gl = qGamma.DeQue<float>();
    auto pdxl = qPdx.AllocTensor<float>();
    auto rgl = qRg.AllocTensor<float>();
    AscendC::LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    AscendC::LayerNormGrad<float, false>(pdxl, rgl, dyl, xl, vl, ml, gl, tmp, 1e-5f, t.grad);
    auto pgl = qPg.AllocTensor<float>();
    auto pbl = qPb.AllocTensor<float>();
    AscendC::LayerNormGradBeta<float, false>(pgl, pbl, rgl, dyl, tmp, t.beta);
    qPdx.EnQue(pdxl);
    qRg.EnQue(rgl);
    qPg.EnQue(pgl);
    qPb.EnQue(pbl);
    pdxl = qPdx.DeQue<float>();
    rgl = qRg.DeQue<float>();
    pgl = qPg.DeQue<float>();
    pbl = qPb.DeQue<float>();
    AscendC::DataCopy(gPdx, pdxl, N);
    AscendC::DataCopy(gRg, rgl, N);
    AscendC::DataCopy(gPg, pgl, H);
    AscendC::DataCopy(gPb, pbl, H);
    qPdx.FreeTensor(pdxl);
    qRg.FreeTensor(rgl);
    qPg.FreeTensor(pgl);
    qPb.FreeTensor(pbl);
    qDy.FreeTensor(dyl);
    qX.FreeTensor(xl);
    qVar.FreeTensor(vl);
    qMean.FreeTensor(ml);
    qGamma.FreeTensor(gl);
}

int main() {
    ge::Shape shape({B, S, H, H});
    uint32_t gmax = 0, gmin = 0, bmax = 0, bmin = 0;
    AscendC::GetLayerNormGradMaxMinTmpSize(shape, sizeof(float), false, gmax, gmin);
    AscendC::GetLayerNormGradBetaMaxMinTmpSize(shape, sizeof(float), false, bmax, bmin);
    printf("grad tmp %u %u beta tmp %u %u\n", gmax, gmin, bmax, bmin);
    const uint32_t tmpBytes = 6 * 8 * H * 4;  // 8 rows per pass: 2 passes
    GradTilingData host;
    AscendC::GetLayerNormGradNDTilingInfo(shape, tmpBytes, sizeof(float), false, host.grad);
    optiling::LayerNormGradBetaTiling betaClass;
    AscendC::GetLayerNormGradBetaNDTilingInfo(shape, bmin * 2, sizeof(float), false, betaClass);
    betaClass.SaveToBuffer(&host.beta, sizeof(host.beta));
    printf("grad rows %u loops %u beta rows %u loops %u\n", host.grad.nohCalSize, host.grad.loopNum,
           host.beta.bsCurLength, host.beta.loopRound);
    size_t sn = N * 4, sr = R * 4, sh = H * 4;
    uint8_t* dy = (uint8_t*)AscendC::GmAlloc(sn);
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(sn);
    uint8_t* var = (uint8_t*)AscendC::GmAlloc(sr);
    uint8_t* mean = (uint8_t*)AscendC::GmAlloc(sr);
    uint8_t* gamma = (uint8_t*)AscendC::GmAlloc(sh);
    uint8_t* pdx = (uint8_t*)AscendC::GmAlloc(sn);
    uint8_t* rg = (uint8_t*)AscendC::GmAlloc(sn);
    uint8_t* pg = (uint8_t*)AscendC::GmAlloc(sh);
    uint8_t* pb = (uint8_t*)AscendC::GmAlloc(sh);
    uint8_t* t = (uint8_t*)AscendC::GmAlloc(sizeof(GradTilingData));
    ReadFile("./input/dy.bin", sn, dy, sn);
    ReadFile("./input/x.bin", sn, x, sn);
    ReadFile("./input/var.bin", sr, var, sr);
    ReadFile("./input/mean.bin", sr, mean, sr);
    ReadFile("./input/gamma.bin", sh, gamma, sh);
    memcpy(t, &host, sizeof(GradTilingData));
    ICPU_RUN_KF(lng_kernel, 1, dy, x, var, mean, gamma, pdx, rg, pg, pb, t, tmpBytes);
    WriteFile("./output/pdx.bin", pdx, sn);
    WriteFile("./output/rg.bin", rg, sn);
    WriteFile("./output/pg.bin", pg, sh);
    WriteFile("./output/pb.bin", pb, sh);
    return 0;
}
