// GroupNorm through the C++ headers, in the style of the vendor examples: the page's example
// (float [2, 8, 4, 2], 4 groups, x = 0..127, gamma = beta = 0..7, epsilon 1e-5, sharedTmpBuffer of
// the maximum size, the tiling a TILING_DATA_FIELD_DEF_STRUCT field of the host tiling class as
// on the Tiling page), the Tiling page's half [2, 16, 8, 8] with 4 groups on the stack buffer
// (optiling::GroupNormTiling), and a float [1, 4, 10, 10] with 2 groups (the general path, rows
// padded to 104, the minimum buffer: one group a pass). Inputs x[i] = ((i·37) mod 101) / 10 − 5,
// gamma[c] = 0.5 + 0.25·c, beta[c] = 0.1·c. Writes output/{out,mean,var}_{p,h,g}.bin.
#include <cstdio>
#include <cstring>
#include <vector>

#include "data_utils.h"
#include "kernel_operator.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GnTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
TILING_DATA_FIELD_DEF(uint32_t, c);
TILING_DATA_FIELD_DEF(uint32_t, hwAlign);
TILING_DATA_FIELD_DEF(uint32_t, group);
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
TILING_DATA_FIELD_DEF_STRUCT(GroupNormTiling, groupNormTilingData);
END_TILING_DATA_DEF;
}  // namespace optiling

struct GnKernelTiling {
    uint32_t n;
    uint32_t c;
    uint32_t hwAlign;
    uint32_t group;
    uint32_t tmpBytes;
    GroupNormTiling groupNormTilingData;
};

// Elements of T in k elements rounded up to 32 bytes.
template <typename T>
static uint32_t Up(uint32_t k) {
    return (k * sizeof(T) + 31) / 32 * 32 / sizeof(T);
}

template <typename T, bool shared>
__global__ __vector__ void gn_kernel(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR out, GM_ADDR mean, GM_ADDR var,
                                     GM_ADDR tilingGm, float eps) {
    AscendC::TPipe pipe;
    GET_TILING_DATA_WITH_STRUCT(GnKernelTiling, t, tilingGm);
    const uint32_t n = t.n * t.c * t.hwAlign, mv = Up<T>(t.n * t.group), c = Up<T>(t.c);
    AscendC::TQue<AscendC::TPosition::VECIN, 1> qX, qG, qB;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> qOut, qMean, qVar;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(qX, 1, n * sizeof(T));
    pipe.InitBuffer(qG, 1, c * sizeof(T));
    pipe.InitBuffer(qB, 1, c * sizeof(T));
    pipe.InitBuffer(qOut, 1, n * sizeof(T));
    pipe.InitBuffer(qMean, 1, mv * sizeof(T));
    pipe.InitBuffer(qVar, 1, mv * sizeof(T));
    if (shared) {
        pipe.InitBuffer(tmpBuf, t.tmpBytes);
    }
    AscendC::GlobalTensor<T> gX, gG, gB, gOut, gMean, gVar;
    gX.SetGlobalBuffer((__gm__ T*)x, n);
    gG.SetGlobalBuffer((__gm__ T*)gamma, c);
    gB.SetGlobalBuffer((__gm__ T*)beta, c);
    gOut.SetGlobalBuffer((__gm__ T*)out, n);
    gMean.SetGlobalBuffer((__gm__ T*)mean, mv);
    gVar.SetGlobalBuffer((__gm__ T*)var, mv);
    auto xl = qX.AllocTensor<T>();
    auto gl = qG.AllocTensor<T>();
    auto bl = qB.AllocTensor<T>();
    AscendC::DataCopy(xl, gX, n);
    AscendC::DataCopy(gl, gG, c);
    AscendC::DataCopy(bl, gB, c);
    qX.EnQue(xl);
    qG.EnQue(gl);
    qB.EnQue(bl);
    xl = qX.DeQue<T>();
    gl = qG.DeQue<T>();
    bl = qB.DeQue<T>();
    auto ol = qOut.AllocTensor<T>();
    auto ml = qMean.AllocTensor<T>();
    auto vl = qVar.AllocTensor<T>();
    if (shared) {
        AscendC::LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
        AscendC::GroupNorm<T, false>(ol, ml, vl, xl, gl, bl, tmp, (T)eps, t.groupNormTilingData);
    } else {
        AscendC::GroupNorm<T>(ol, ml, vl, xl, gl, bl, (T)eps, t.groupNormTilingData);
    }
    qOut.EnQue(ol);
    qMean.EnQue(ml);
    qVar.EnQue(vl);
    ol = qOut.DeQue<T>();
    ml = qMean.DeQue<T>();
    vl = qVar.DeQue<T>();
    AscendC::DataCopy(gOut, ol, n);
    AscendC::DataCopy(gMean, ml, mv);
    AscendC::DataCopy(gVar, vl, mv);
    qOut.FreeTensor(ol);
    qMean.FreeTensor(ml);
    qVar.FreeTensor(vl);
    qX.FreeTensor(xl);
    qG.FreeTensor(gl);
    qB.FreeTensor(bl);
}

// Runs one case: x [n, c, hw] padded to hwAlign, gamma and beta [c].
template <typename T, bool shared>
static void Run(const char* tag, optiling::GnTilingData& td, uint32_t hw, const std::vector<float>& x,
                const std::vector<float>& g, const std::vector<float>& b, float eps) {
    const uint32_t n = td.get_n() * td.get_c() * td.get_hwAlign();
    const uint32_t mv = Up<T>(td.get_n() * td.get_group()), c = Up<T>(td.get_c());
    std::vector<uint8_t> tb(td.GetDataSize());
    td.SaveToBuffer(tb.data(), tb.size());
    uint8_t* gx = (uint8_t*)AscendC::GmAlloc(n * sizeof(T));
    uint8_t* gg = (uint8_t*)AscendC::GmAlloc(c * sizeof(T));
    uint8_t* gb = (uint8_t*)AscendC::GmAlloc(c * sizeof(T));
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(n * sizeof(T));
    uint8_t* mean = (uint8_t*)AscendC::GmAlloc(mv * sizeof(T));
    uint8_t* var = (uint8_t*)AscendC::GmAlloc(mv * sizeof(T));
    uint8_t* t = (uint8_t*)AscendC::GmAlloc(tb.size());
    T* px = (T*)gx;
    for (uint32_t i = 0; i < n; i++) {
        px[i] = (T)(i % td.get_hwAlign() < hw ? x[i / td.get_hwAlign() * hw + i % td.get_hwAlign()] : 0.0f);
    }
    memset(gg, 0, c * sizeof(T));
    memset(gb, 0, c * sizeof(T));
    for (uint32_t i = 0; i < td.get_c(); i++) {
        ((T*)gg)[i] = (T)g[i];
        ((T*)gb)[i] = (T)b[i];
    }
    memcpy(t, tb.data(), tb.size());
    ICPU_RUN_KF((gn_kernel<T, shared>), 1, gx, gg, gb, out, mean, var, t, eps);
    char name[64];
    snprintf(name, sizeof(name), "./output/out_%s.bin", tag);
    WriteFile(name, out, n * sizeof(T));
    snprintf(name, sizeof(name), "./output/mean_%s.bin", tag);
    WriteFile(name, mean, td.get_n() * td.get_group() * sizeof(T));
    snprintf(name, sizeof(name), "./output/var_%s.bin", tag);
    WriteFile(name, var, td.get_n() * td.get_group() * sizeof(T));
}

static std::vector<float> Inputs(uint32_t k) {
    std::vector<float> v(k);
    for (uint32_t i = 0; i < k; i++) v[i] = static_cast<float>((i * 37) % 101) / 10.0f - 5.0f;
    return v;
}

int main() {
    // The page's example (float, small shape) with the maximum buffer.
    {
        AscendC::TensorShape shape({2, 8, 4, 2});
        uint32_t maxSize = 0, minSize = 0;
        AscendC::GetGroupNormMaxMinTmpSize(shape, sizeof(float), false, 4, maxSize, minSize);
        optiling::GnTilingData td;
        td.set_n(2);
        td.set_c(8);
        td.set_hwAlign(8);
        td.set_group(4);
        td.set_tmpBytes(maxSize);
        AscendC::GetGroupNormNDTilingInfo(shape, maxSize, sizeof(float), false, 4, td.groupNormTilingData);
        printf("page tmp %u %u small %d loops %u bs %u\n", maxSize, minSize,
               (int)td.groupNormTilingData.get_smallShape(), td.groupNormTilingData.get_loopRound(),
               td.groupNormTilingData.get_bsCurLength());
        std::vector<float> x(128), gb(8);
        for (int i = 0; i < 128; i++) x[i] = (float)i;
        for (int i = 0; i < 8; i++) gb[i] = (float)i;
        Run<float, true>("p", td, 8, x, gb, gb, 1e-5f);
    }
    std::vector<float> g(16), b(16);
    for (int i = 0; i < 16; i++) {
        g[i] = 0.5f + 0.25f * i;
        b[i] = 0.1f * i;
    }
    // The Tiling page's half [2, 16, 8, 8], 4 groups, on the stack buffer.
    {
        AscendC::TensorShape shape({2, 16, 8, 8});
        uint32_t maxSize = 0, minSize = 0;
        AscendC::GetGroupNormMaxMinTmpSize(shape, sizeof(half), false, 4, maxSize, minSize);
        optiling::GnTilingData td;
        td.set_n(2);
        td.set_c(16);
        td.set_hwAlign(64);
        td.set_group(4);
        AscendC::GetGroupNormNDTilingInfo(shape, maxSize, sizeof(half), false, 4, td.groupNormTilingData);
        printf("half tmp %u %u small %d loops %u\n", maxSize, minSize, (int)td.groupNormTilingData.get_smallShape(),
               td.groupNormTilingData.get_loopRound());
        Run<half, false>("h", td, 64, Inputs(2 * 16 * 64), g, b, 1e-3f);
    }
    // Float [1, 4, 10, 10], 2 groups: the general path, the minimum buffer, the kernel struct.
    {
        AscendC::TensorShape shape({1, 4, 10, 10});
        uint32_t maxSize = 0, minSize = 0;
        AscendC::GetGroupNormMaxMinTmpSize(shape, sizeof(float), false, 2, maxSize, minSize);
        AscendC::tiling::GroupNormTiling k;
        AscendC::GetGroupNormNDTilingInfo(shape, minSize, sizeof(float), false, 2, k);
        optiling::GnTilingData td;
        td.set_n(1);
        td.set_c(4);
        td.set_hwAlign(k.hwAlignSize);
        td.set_group(2);
        td.set_tmpBytes(minSize);
        td.groupNormTilingData.AscendcFrom(k);
        printf("general tmp %u %u small %d loops %u hwAlign %u\n", maxSize, minSize, (int)k.smallShape, k.loopRound,
               k.hwAlignSize);
        Run<float, true>("g", td, 100, Inputs(400), g, b, 1e-5f);
    }
    return 0;
}
