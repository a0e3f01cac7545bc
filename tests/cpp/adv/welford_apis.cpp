// WelfordUpdate (half x, inplace config, the pipe's stack buffer) and WelfordFinalize (head/tail
// counts, sharedTmpBuffer sized with GetWelfordFinalizeMaxMinTmpSize), in the style of the vendor
// examples. Reads input/{x,mean,var,pm,pv}.bin, writes output/{um,uv,fm,fv}.bin.
#include <cstdio>

#include "data_utils.h"
#include "kernel_operator.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

constexpr uint32_t AB = 128, COMPUTE = 100, P = 64;

__global__ __vector__ void welford_kernel(GM_ADDR x, GM_ADDR mean, GM_ADDR var, GM_ADDR pm, GM_ADDR pv, GM_ADDR um,
                                          GM_ADDR uv, GM_ADDR fm, GM_ADDR fv, uint32_t finTmp) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inX, inM, inV, inPm, inPv;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> oM, oV, oFm, oFv;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inX, 1, AB * sizeof(half));
    pipe.InitBuffer(inM, 1, AB * sizeof(float));
    pipe.InitBuffer(inV, 1, AB * sizeof(float));
    pipe.InitBuffer(inPm, 1, P * sizeof(float));
    pipe.InitBuffer(inPv, 1, P * sizeof(float));
    pipe.InitBuffer(oM, 1, AB * sizeof(float));
    pipe.InitBuffer(oV, 1, AB * sizeof(float));
    pipe.InitBuffer(oFm, 1, 8 * sizeof(float));
    pipe.InitBuffer(oFv, 1, 8 * sizeof(float));
    pipe.InitBuffer(tmpBuf, finTmp);
    AscendC::GlobalTensor<half> gx;
    AscendC::GlobalTensor<float> gm, gv, gpm, gpv, gum, guv, gfm, gfv;
    gx.SetGlobalBuffer((__gm__ half*)x, AB);
    gm.SetGlobalBuffer((__gm__ float*)mean, AB);
    gv.SetGlobalBuffer((__gm__ float*)var, AB);
    gpm.SetGlobalBuffer((__gm__ float*)pm, P);
    gpv.SetGlobalBuffer((__gm__ float*)pv, P);
    gum.SetGlobalBuffer((__gm__ float*)um, AB);
    guv.SetGlobalBuffer((__gm__ float*)uv, AB);
    gfm.SetGlobalBuffer((__gm__ float*)fm, 8);
    gfv.SetGlobalBuffer((__gm__ float*)fv, 8);
    auto xl = inX.AllocTensor<half>();
    auto ml = inM.AllocTensor<float>();
    auto vl = inV.AllocTensor<float>();
    auto pml = inPm.AllocTensor<float>();
    auto pvl = inPv.AllocTensor<float>();
    AscendC::DataCopy(xl, gx, AB);
    AscendC::DataCopy(ml, gm, AB);
    AscendC::DataCopy(vl, gv, AB);
    AscendC::DataCopy(pml, gpm, P);
    AscendC::DataCopy(pvl, gpv, P);
    inX.EnQue(xl);
    inM.EnQue(ml);
    inV.EnQue(vl);
    inPm.EnQue(pml);
    inPv.EnQue(pvl);
    xl = inX.DeQue<half>();
    ml = inM.DeQue<float>();
    vl = inV.DeQue<float>();
    pml = inPm.DeQue<float>();
    pvl = inPv.DeQue<float>();

    auto uml = oM.AllocTensor<float>();
    auto uvl = oV.AllocTensor<float>();
    static constexpr AscendC::WelfordUpdateConfig INPLACE = {true};
    AscendC::WelfordUpdateParam para = {1, AB, COMPUTE, 0.25f};
    AscendC::WelfordUpdate<half, float, false, INPLACE>(uml, uvl, ml, vl, xl, para);

    auto fml = oFm.AllocTensor<float>();
    auto fvl = oFv.AllocTensor<float>();
    AscendC::LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    AscendC::WelfordFinalizePara fp = {3, P, 3, 40, 2, 24, 1.0f / P, 1.0f / 168};
    AscendC::WelfordFinalize<false>(fml, fvl, pml, pvl, tmp, fp);

    oM.EnQue(uml);
    oV.EnQue(uvl);
    oFm.EnQue(fml);
    oFv.EnQue(fvl);
    uml = oM.DeQue<float>();
    uvl = oV.DeQue<float>();
    fml = oFm.DeQue<float>();
    fvl = oFv.DeQue<float>();
    AscendC::DataCopy(gum, uml, AB);
    AscendC::DataCopy(guv, uvl, AB);
    AscendC::DataCopy(gfm, fml, 8);
    AscendC::DataCopy(gfv, fvl, 8);
    oM.FreeTensor(uml);
    oV.FreeTensor(uvl);
    oFm.FreeTensor(fml);
    oFv.FreeTensor(fvl);
    inX.FreeTensor(xl);
    inM.FreeTensor(ml);
    inV.FreeTensor(vl);
    inPm.FreeTensor(pml);
    inPv.FreeTensor(pvl);
}

int main() {
    uint32_t umax = 0, umin = 0, fmax = 0, fmin = 0;
    AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, AB}), sizeof(half), sizeof(float), false, true, umax, umin);
    AscendC::GetWelfordFinalizeMaxMinTmpSize(ge::Shape({P}), sizeof(float), false, fmax, fmin);
    printf("update tmp %u %u finalize tmp %u %u\n", umax, umin, fmax, fmin);
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(AB * 2);
    uint8_t* m = (uint8_t*)AscendC::GmAlloc(AB * 4);
    uint8_t* v = (uint8_t*)AscendC::GmAlloc(AB * 4);
    uint8_t* pm = (uint8_t*)AscendC::GmAlloc(P * 4);
    uint8_t* pv = (uint8_t*)AscendC::GmAlloc(P * 4);
    uint8_t* um = (uint8_t*)AscendC::GmAlloc(AB * 4);
    uint8_t* uv = (uint8_t*)AscendC::GmAlloc(AB * 4);
    uint8_t* fm = (uint8_t*)AscendC::GmAlloc(32);
    uint8_t* fv = (uint8_t*)AscendC::GmAlloc(32);
    size_t sx = AB * 2, sf = AB * 4, sp = P * 4;
    ReadFile("./input/x.bin", sx, x, sx);
    ReadFile("./input/mean.bin", sf, m, sf);
    ReadFile("./input/var.bin", sf, v, sf);
    ReadFile("./input/pm.bin", sp, pm, sp);
    ReadFile("./input/pv.bin", sp, pv, sp);
    ICPU_RUN_KF(welford_kernel, 1, x, m, v, pm, pv, um, uv, fm, fv, fmin);
    WriteFile("./output/um.bin", um, sf);
    WriteFile("./output/uv.bin", uv, sf);
    WriteFile("./output/fm.bin", fm, 32);
    WriteFile("./output/fv.bin", fv, 32);
    return 0;
}
