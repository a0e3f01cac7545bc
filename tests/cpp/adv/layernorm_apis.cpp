// LayerNorm ([B, S, H] float with the pipe's stack buffer, its tiling a TILING_DATA_FIELD_DEF_STRUCT
// field of the host tiling class; [A, R] half with a sharedTmpBuffer and padded rows), Normalize
// (half x, float gamma, no gamma) and DeepNorm (half, basic blocks), in the style of the vendor
// examples. Inputs are made here (x[i] = ((i·37) mod 101) / 10 − 5 and similar); writes
// output/{ln_y,ln_mean,ln_var,ar_y,ar_mean,ar_rstd,nz_y,nz_rstd,dn_y,dn_mean,dn_var}.bin.
#include <cstdio>
#include <cstring>
#include <vector>

#include "data_utils.h"
#include "kernel_operator.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

constexpr uint32_t B = 2, S = 8, H = 40, BS = B * S, N = BS * H;
constexpr uint32_t A = 6, R = 20, RP = 32;  // [A, R] half rows padded to 32 halves
constexpr uint32_t DB = 1, DS = 16, DH = 64, DN = DB * DS * DH;

namespace optiling {
BEGIN_TILING_DATA_DEF(LnTilingData)
TILING_DATA_FIELD_DEF_STRUCT(LayerNormTiling, ln);
TILING_DATA_FIELD_DEF(float, epsilon);
END_TILING_DATA_DEF;
}  // namespace optiling

struct LnKernelTiling {
    LayerNormTiling ln;
    float epsilon;
};

static float In(uint32_t i, uint32_t k) { return static_cast<float>((i * k) % 101) / 10.0f - 5.0f; }

template <typename T>
static void Fill(uint8_t* gm, uint32_t n, uint32_t k, uint32_t rowLen = 0, uint32_t valid = 0) {
    T* p = reinterpret_cast<T*>(gm);
    for (uint32_t i = 0; i < n; i++) {
        bool pad = rowLen != 0 && i % rowLen >= valid;
        p[i] = static_cast<T>(pad ? 0.0f : In(i, k));
    }
}

__global__ __vector__ void ln_kernel(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean, GM_ADDR var,
                                     GM_ADDR tilingGm) {
    AscendC::TPipe pipe;
    GET_TILING_DATA_WITH_STRUCT(LnKernelTiling, t, tilingGm);
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inX, inG, inB;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outY, outM, outV;
    pipe.InitBuffer(inX, 1, N * 4);
    pipe.InitBuffer(inG, 1, H * 4);
    pipe.InitBuffer(inB, 1, H * 4);
    pipe.InitBuffer(outY, 1, N * 4);
    pipe.InitBuffer(outM, 1, BS * 4);
    pipe.InitBuffer(outV, 1, BS * 4);
    AscendC::GlobalTensor<float> gx, gg, gb, gy, gm, gv;
    gx.SetGlobalBuffer((__gm__ float*)x, N);
    gg.SetGlobalBuffer((__gm__ float*)gamma, H);
    gb.SetGlobalBuffer((__gm__ float*)beta, H);
    gy.SetGlobalBuffer((__gm__ float*)y, N);
    gm.SetGlobalBuffer((__gm__ float*)mean, BS);
    gv.SetGlobalBuffer((__gm__ float*)var, BS);
    auto xl = inX.AllocTensor<float>();
    auto gl = inG.AllocTensor<float>();
    auto bl = inB.AllocTensor<float>();
    AscendC::DataCopy(xl, gx, N);
    AscendC::DataCopy(gl, gg, H);
    AscendC::DataCopy(bl, gb, H);
    inX.EnQue(xl);
    inG.EnQue(gl);
    inB.EnQue(bl);
    xl = inX.DeQue<float>();
    gl = inG.DeQue<float>();
    bl = inB.DeQue<float>();
    auto yl = outY.AllocTensor<float>();
    auto ml = outM.AllocTensor<float>();
    auto vl = outV.AllocTensor<float>();
    AscendC::LayerNorm<float, false>(yl, ml, vl, xl, gl, bl, t.epsilon, t.ln);  // the pipe's stack buffer
    outY.EnQue(yl);
    outM.EnQue(ml);
    outV.EnQue(vl);
    yl = outY.DeQue<float>();
    ml = outM.DeQue<float>();
    vl = outV.DeQue<float>();
    AscendC::DataCopy(gy, yl, N);
    AscendC::DataCopy(gm, ml, BS);
    AscendC::DataCopy(gv, vl, BS);
    outY.FreeTensor(yl);
    outM.FreeTensor(ml);
    outV.FreeTensor(vl);
    inX.FreeTensor(xl);
    inG.FreeTensor(gl);
    inB.FreeTensor(bl);
}

// [A, R] LayerNorm (half x/gamma/beta) and Normalize (half x, float beta, no gamma) of the same
// rows with the LayerNorm's mean and a variance made from its rstd.
__global__ __vector__ void ar_kernel(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR betaF, GM_ADDR y, GM_ADDR mean,
                                     GM_ADDR rstd, GM_ADDR ny, GM_ADDR nrstd, GM_ADDR tilingGm, uint32_t lnTmp,
                                     uint32_t nzTmp) {
    AscendC::TPipe pipe;
    GET_TILING_DATA_WITH_STRUCT(AscendC::tiling::LayerNormSeparateTiling, t, tilingGm);
    AscendC::TBuf<AscendC::TPosition::VECCALC> bx, bg, bb, bbf, by, bm, br, bv, bny, bnr, tmp1, tmp2;
    pipe.InitBuffer(bx, A * RP * 2);
    pipe.InitBuffer(bg, RP * 2);
    pipe.InitBuffer(bb, RP * 2);
    pipe.InitBuffer(bbf, RP * 4);
    pipe.InitBuffer(by, A * RP * 2);
    pipe.InitBuffer(bm, 32);
    pipe.InitBuffer(br, 32);
    pipe.InitBuffer(bv, 32);
    pipe.InitBuffer(bny, A * RP * 2);
    pipe.InitBuffer(bnr, 32);
    pipe.InitBuffer(tmp1, lnTmp);
    pipe.InitBuffer(tmp2, nzTmp);
    AscendC::GlobalTensor<half> gx, gg, gb, gy, gny;
    AscendC::GlobalTensor<float> gbf, gm, gr, gnr;
    gx.SetGlobalBuffer((__gm__ half*)x, A * RP);
    gg.SetGlobalBuffer((__gm__ half*)gamma, RP);
    gb.SetGlobalBuffer((__gm__ half*)beta, RP);
    gbf.SetGlobalBuffer((__gm__ float*)betaF, RP);
    gy.SetGlobalBuffer((__gm__ half*)y, A * RP);
    gm.SetGlobalBuffer((__gm__ float*)mean, 8);
    gr.SetGlobalBuffer((__gm__ float*)rstd, 8);
    gny.SetGlobalBuffer((__gm__ half*)ny, A * RP);
    gnr.SetGlobalBuffer((__gm__ float*)nrstd, 8);
    auto xl = bx.Get<half>();
    auto gl = bg.Get<half>();
    auto bl = bb.Get<half>();
    auto bfl = bbf.Get<float>();
    AscendC::DataCopy(xl, gx, A * RP);
    AscendC::DataCopy(gl, gg, RP);
    AscendC::DataCopy(bl, gb, RP);
    AscendC::DataCopy(bfl, gbf, RP);
    AscendC::PipeBarrier<PIPE_ALL>();
    auto yl = by.Get<half>();
    auto ml = bm.Get<float>();
    auto rl = br.Get<float>();
    static constexpr AscendC::LayerNormConfig cfg = AscendC::LayerNormConfig{false, false, false, true};
    AscendC::LayerNormPara para = {A, R, RP};
    AscendC::LocalTensor<uint8_t> t1 = tmp1.Get<uint8_t>();
    AscendC::LayerNorm<half, half, false, cfg>(yl, ml, rl, xl, gl, bl, 1e-3f, t1, para, t);
    // variance = 1 / rstd² − ε
    auto vl = bv.Get<float>();
    AscendC::Mul(vl, rl, rl, A);
    AscendC::Reciprocal(vl, vl, A);
    AscendC::Adds(vl, vl, -1e-3f, A);
    auto nyl = bny.Get<half>();
    auto nrl = bnr.Get<float>();
    AscendC::NormalizePara np = {A, R, RP};
    AscendC::LocalTensor<uint8_t> t2 = tmp2.Get<uint8_t>();
    AscendC::Normalize<float, half, false, AscendC::NLCFG_NOGAMMA>(nyl, nrl, ml, vl, xl, bfl, bfl, t2, 1e-3f, np);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(gy, yl, A * RP);
    AscendC::DataCopy(gm, ml, 8);
    AscendC::DataCopy(gr, rl, 8);
    AscendC::DataCopy(gny, nyl, A * RP);
    AscendC::DataCopy(gnr, nrl, 8);
}

__global__ __vector__ void dn_kernel(GM_ADDR x, GM_ADDR gx, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean,
                                     GM_ADDR var, GM_ADDR tilingGm, uint32_t tmpBytes) {
    AscendC::TPipe pipe;
    GET_TILING_DATA_WITH_STRUCT(AscendC::tiling::DeepNormTiling, t, tilingGm);
    AscendC::TBuf<AscendC::TPosition::VECCALC> bx, bgx, bg, bb, by, bm, bv, tmp;
    pipe.InitBuffer(bx, DN * 2);
    pipe.InitBuffer(bgx, DN * 2);
    pipe.InitBuffer(bg, DH * 2);
    pipe.InitBuffer(bb, DH * 2);
    pipe.InitBuffer(by, DN * 2);
    pipe.InitBuffer(bm, 32);
    pipe.InitBuffer(bv, 32);
    pipe.InitBuffer(tmp, tmpBytes);
    AscendC::GlobalTensor<half> g[7];
    GM_ADDR addrs[7] = {x, gx, gamma, beta, y, mean, var};
    uint32_t lens[7] = {DN, DN, DH, DH, DN, DS, DS};
    for (int i = 0; i < 7; i++) {
        g[i].SetGlobalBuffer((__gm__ half*)addrs[i], lens[i]);
    }
    auto xl = bx.Get<half>();
    auto gxl = bgx.Get<half>();
    auto gl = bg.Get<half>();
    auto bl = bb.Get<half>();
    AscendC::DataCopy(xl, g[0], DN);
    AscendC::DataCopy(gxl, g[1], DN);
    AscendC::DataCopy(gl, g[2], DH);
    AscendC::DataCopy(bl, g[3], DH);
    AscendC::PipeBarrier<PIPE_ALL>();
    auto yl = by.Get<half>();
    auto ml = bm.Get<half>();
    auto vl = bv.Get<half>();
    AscendC::LocalTensor<uint8_t> tl = tmp.Get<uint8_t>();
    AscendC::DeepNorm<half, false, true>(yl, ml, vl, xl, gxl, bl, gl, tl, static_cast<half>(0.5f),
                                         static_cast<half>(1e-3f), t);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(g[4], yl, DN);
    AscendC::DataCopy(g[5], ml, DS);
    AscendC::DataCopy(g[6], vl, DS);
}

int main() {
    // [B, S, H] float LayerNorm with the minimum buffer: several passes and a tail.
    AscendC::TensorShape shape({B, S, H, H});
    uint32_t maxTmp = 0, minTmp = 0;
    AscendC::GetLayerNormMaxMinTmpSize(shape, sizeof(float), false, maxTmp, minTmp);
    optiling::LnTilingData td;
    AscendC::GetLayerNormNDTilingInfo(shape, minTmp + 1000, sizeof(float), false, td.ln);
    td.set_epsilon(1e-5f);
    printf("ln tmp %u %u oneTmpSize %u loops %u tail %u\n", maxTmp, minTmp, td.ln.get_oneTmpSize(),
           td.ln.get_loopRound(), td.ln.get_inputTailSize());
    std::vector<uint8_t> tb(td.GetDataSize());
    td.SaveToBuffer(tb.data(), tb.size());
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(N * 4);
    uint8_t* g = (uint8_t*)AscendC::GmAlloc(H * 4);
    uint8_t* b = (uint8_t*)AscendC::GmAlloc(H * 4);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(N * 4);
    uint8_t* m = (uint8_t*)AscendC::GmAlloc(BS * 4);
    uint8_t* v = (uint8_t*)AscendC::GmAlloc(BS * 4);
    uint8_t* t = (uint8_t*)AscendC::GmAlloc(tb.size());
    Fill<float>(x, N, 37);
    Fill<float>(g, H, 13);
    Fill<float>(b, H, 7);
    memcpy(t, tb.data(), tb.size());
    ICPU_RUN_KF(ln_kernel, 1, x, g, b, y, m, v, t);
    WriteFile("./output/ln_y.bin", y, N * 4);
    WriteFile("./output/ln_mean.bin", m, BS * 4);
    WriteFile("./output/ln_var.bin", v, BS * 4);

    // [A, R] half LayerNorm and Normalize.
    AscendC::TensorShape ar({A, R});
    uint32_t lnMax = 0, lnMin = 0, nzMax = 0, nzMin = 0;
    AscendC::GetLayerNormMaxMinTmpSize(ar, sizeof(half), false, true, false, lnMax, lnMin);
    AscendC::GetNormalizeMaxMinTmpSize(ar, sizeof(float), sizeof(half), false, true, false, nzMax, nzMin);
    AscendC::tiling::LayerNormSeparateTiling st;
    AscendC::GetLayerNormNDTilingInfo(ar, lnMin, sizeof(half), false, true, st);
    printf("ar tmp %u %u normalize %u %u oneTmpSize %u\n", lnMax, lnMin, nzMax, nzMin, st.oneTmpSize);
    uint8_t* ax = (uint8_t*)AscendC::GmAlloc(A * RP * 2);
    uint8_t* ag = (uint8_t*)AscendC::GmAlloc(RP * 2);
    uint8_t* ab = (uint8_t*)AscendC::GmAlloc(RP * 2);
    uint8_t* abf = (uint8_t*)AscendC::GmAlloc(RP * 4);
    uint8_t* ay = (uint8_t*)AscendC::GmAlloc(A * RP * 2);
    uint8_t* am = (uint8_t*)AscendC::GmAlloc(32);
    uint8_t* arr = (uint8_t*)AscendC::GmAlloc(32);
    uint8_t* ny = (uint8_t*)AscendC::GmAlloc(A * RP * 2);
    uint8_t* nr = (uint8_t*)AscendC::GmAlloc(32);
    uint8_t* at = (uint8_t*)AscendC::GmAlloc(sizeof(st));
    Fill<half>(ax, A * RP, 37, RP, R);
    Fill<half>(ag, RP, 13);
    Fill<half>(ab, RP, 7);
    Fill<float>(abf, RP, 7);
    memcpy(at, &st, sizeof(st));
    ICPU_RUN_KF(ar_kernel, 1, ax, ag, ab, abf, ay, am, arr, ny, nr, at, lnMin, nzMin);
    WriteFile("./output/ar_y.bin", ay, A * RP * 2);
    WriteFile("./output/ar_mean.bin", am, A * 4);
    WriteFile("./output/ar_rstd.bin", arr, A * 4);
    WriteFile("./output/nz_y.bin", ny, A * RP * 2);
    WriteFile("./output/nz_rstd.bin", nr, A * 4);

    // DeepNorm half, basic blocks, the largest buffer (16 rows in one pass).
    AscendC::TensorShape ds({DB, DS, DH});
    uint32_t dMax = 0, dMin = 0;
    if (!AscendC::GetDeepNormMaxMinTmpSize(ds, sizeof(half), false, true, dMax, dMin)) {
        printf("GetDeepNormMaxMinTmpSize failed\n");
        return 1;
    }
    AscendC::tiling::DeepNormTiling dt;
    if (!AscendC::GetDeepNormTilingInfo(ds, ds, dMax, sizeof(half), false, true, dt)) {
        printf("GetDeepNormTilingInfo failed\n");
        return 1;
    }
    printf("dn tmp %u %u rows %u\n", dMax, dMin, dt.bsCurLength);
    uint8_t* dx = (uint8_t*)AscendC::GmAlloc(DN * 2);
    uint8_t* dgx = (uint8_t*)AscendC::GmAlloc(DN * 2);
    uint8_t* dg = (uint8_t*)AscendC::GmAlloc(DH * 2);
    uint8_t* db = (uint8_t*)AscendC::GmAlloc(DH * 2);
    uint8_t* dy = (uint8_t*)AscendC::GmAlloc(DN * 2);
    uint8_t* dm = (uint8_t*)AscendC::GmAlloc(32);
    uint8_t* dv = (uint8_t*)AscendC::GmAlloc(32);
    uint8_t* dtg = (uint8_t*)AscendC::GmAlloc(sizeof(dt));
    Fill<half>(dx, DN, 37);
    Fill<half>(dgx, DN, 53);
    Fill<half>(dg, DH, 13);
    Fill<half>(db, DH, 7);
    memcpy(dtg, &dt, sizeof(dt));
    ICPU_RUN_KF(dn_kernel, 1, dx, dgx, dg, db, dy, dm, dv, dtg, dMax);
    WriteFile("./output/dn_y.bin", dy, DN * 2);
    WriteFile("./output/dn_mean.bin", dm, DS * 2);
    WriteFile("./output/dn_var.bin", dv, DS * 2);
    return 0;
}
