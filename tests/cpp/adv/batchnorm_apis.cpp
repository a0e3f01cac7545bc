// BatchNorm through the C++ headers, in the style of the vendor examples: the page's example
// (float [8, 4, 2], gamm = beta = 0..7, epsilon 0.01, sharedTmpBuffer of the minimum size) and a
// half [4, 3, 16] run in two passes (the second a tail) on the stack buffer, its tiling made with
// the optiling::BatchNormTiling class and SaveToBuffer. Writes output/{out,mean,var}_{f,h}.bin.
#include <cstdio>
#include <cstring>

#include "data_utils.h"
#include "kernel_operator.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

template <typename T, bool shared>
__global__ __vector__ void bn_kernel(GM_ADDR x, GM_ADDR gamm, GM_ADDR beta, GM_ADDR out, GM_ADDR mean, GM_ADDR var,
                                     GM_ADDR tilingGm, uint32_t b, uint32_t sh, uint32_t tmpBytes, float eps) {
    AscendC::TPipe pipe;
    GET_TILING_DATA_WITH_STRUCT(BatchNormTiling, tiling, tilingGm);
    const uint32_t n = b * sh;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> qX, qG, qB;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> qOut, qMean, qVar;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(qX, 1, n * sizeof(T));
    pipe.InitBuffer(qG, 1, 32);
    pipe.InitBuffer(qB, 1, 32);
    pipe.InitBuffer(qOut, 1, n * sizeof(T));
    pipe.InitBuffer(qMean, 1, sh * sizeof(T));
    pipe.InitBuffer(qVar, 1, sh * sizeof(T));
    if (shared) {
        pipe.InitBuffer(tmpBuf, tmpBytes);
    }
    AscendC::GlobalTensor<T> gX, gG, gB, gOut, gMean, gVar;
    gX.SetGlobalBuffer((__gm__ T*)x, n);
    gG.SetGlobalBuffer((__gm__ T*)gamm, 32 / sizeof(T));
    gB.SetGlobalBuffer((__gm__ T*)beta, 32 / sizeof(T));
    gOut.SetGlobalBuffer((__gm__ T*)out, n);
    gMean.SetGlobalBuffer((__gm__ T*)mean, sh);
    gVar.SetGlobalBuffer((__gm__ T*)var, sh);
    auto xl = qX.AllocTensor<T>();
    auto gl = qG.AllocTensor<T>();
    auto bl = qB.AllocTensor<T>();
    AscendC::DataCopy(xl, gX, n);
    AscendC::DataCopy(gl, gG, 32 / sizeof(T));
    AscendC::DataCopy(bl, gB, 32 / sizeof(T));
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
        AscendC::BatchNorm<T, false, false>(ol, ml, vl, xl, gl, bl, tmp, (T)eps, tiling);
    } else {
        AscendC::BatchNorm<T>(ol, ml, vl, xl, gl, bl, (T)eps, tiling);
    }
    qOut.EnQue(ol);
    qMean.EnQue(ml);
    qVar.EnQue(vl);
    ol = qOut.DeQue<T>();
    ml = qMean.DeQue<T>();
    vl = qVar.DeQue<T>();
    AscendC::DataCopy(gOut, ol, n);
    AscendC::DataCopy(gMean, ml, sh);
    AscendC::DataCopy(gVar, vl, sh);
    qOut.FreeTensor(ol);
    qMean.FreeTensor(ml);
    qVar.FreeTensor(vl);
    qX.FreeTensor(xl);
    qG.FreeTensor(gl);
    qB.FreeTensor(bl);
}

template <typename T>
void Run(const char* tag, uint32_t b, uint32_t s, uint32_t h, const T* x, const T* gb, float eps, bool shared,
         uint32_t tmpBytes, const BatchNormTiling& tiling) {
    const uint32_t sh = s * h, n = b * sh;
    uint8_t* gx = (uint8_t*)AscendC::GmAlloc(n * sizeof(T));
    uint8_t* gg = (uint8_t*)AscendC::GmAlloc(32);
    uint8_t* out = (uint8_t*)AscendC::GmAlloc(n * sizeof(T));
    uint8_t* mean = (uint8_t*)AscendC::GmAlloc(sh * sizeof(T));
    uint8_t* var = (uint8_t*)AscendC::GmAlloc(sh * sizeof(T));
    uint8_t* t = (uint8_t*)AscendC::GmAlloc(sizeof(BatchNormTiling));
    memcpy(gx, x, n * sizeof(T));
    memset(gg, 0, 32);
    memcpy(gg, gb, b * sizeof(T));
    memcpy(t, &tiling, sizeof(tiling));
    if (shared) {
        ICPU_RUN_KF((bn_kernel<T, true>), 1, gx, gg, gg, out, mean, var, t, b, sh, tmpBytes, eps);
    } else {
        ICPU_RUN_KF((bn_kernel<T, false>), 1, gx, gg, gg, out, mean, var, t, b, sh, tmpBytes, eps);
    }
    char name[64];
    snprintf(name, sizeof(name), "./output/out_%s.bin", tag);
    WriteFile(name, out, n * sizeof(T));
    snprintf(name, sizeof(name), "./output/mean_%s.bin", tag);
    WriteFile(name, mean, sh * sizeof(T));
    snprintf(name, sizeof(name), "./output/var_%s.bin", tag);
    WriteFile(name, var, sh * sizeof(T));
}

int main() {
    // The page's example, float.
    {
        ge::Shape shape({8, 4, 2});
        uint32_t maxSize = 0, minSize = 0;
        bool ok = AscendC::GetBatchNormMaxMinTmpSize(shape, shape, sizeof(float), false, maxSize, minSize, false);
        BatchNormTiling tiling;
        bool ok2 = AscendC::GetBatchNormNDTilingInfo(shape, shape, minSize, sizeof(float), false, tiling, false);
        printf("float tmp %d %u %u tiling %d sh %u loops %u\n", ok, maxSize, minSize, ok2, tiling.shCurLength,
               tiling.loopRound);
        float x[64], gb[8];
        for (int i = 0; i < 64; i++) x[i] = (float)i;
        for (int i = 0; i < 8; i++) gb[i] = (float)i;
        Run<float>("f", 8, 4, 2, x, gb, 0.01f, true, minSize, tiling);
    }
    // Half, two passes with a tail, on the stack buffer; the host tiling class.
    {
        ge::Shape shape({4, 3, 16});
        optiling::BatchNormTiling cls;
        bool ok = AscendC::GetBatchNormNDTilingInfo(shape, shape, 1944, sizeof(half), false, cls);
        BatchNormTiling tiling;
        cls.SaveToBuffer(&tiling, sizeof(tiling));
        printf("half tiling %d sh %u loops %u tail %u\n", ok, cls.get_shCurLength(), tiling.loopRound,
               tiling.inputTailSize);
        bool basic = AscendC::GetBatchNormNDTilingInfo(shape, shape, 4096, sizeof(half), false, tiling, true);
        printf("basic block %d\n", basic);
        cls.SaveToBuffer(&tiling, sizeof(tiling));
        half x[192], gb[4];
        for (int i = 0; i < 192; i++) x[i] = (half)((float)((i * 37) % 101) / 10.0f - 5.0f);
        for (int i = 0; i < 4; i++) gb[i] = (half)(0.5f + 0.25f * i);
        Run<half>("h", 4, 3, 16, x, gb, 0.001f, false, 0, tiling);
    }
    return 0;
}
