// A MIX 1:2 kernel: the cube core (AIC) of each AI Core computes C_g = A_g x B (32 x 32 x 32,
// half -> float) into a GM workspace and raises cross-core flag 3 (mode 2); its two vector cores
// (AIV) wait for the flag and apply LeakyReLU (alpha 0.125) to their 16 rows of the tile.
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr int32_t GROUPS = 3;  // blockDim, in AI Cores (AIC units)
constexpr int32_t T = 32;

__aicore__ inline void CubeSide(GM_ADDR a, GM_ADDR b, GM_ADDR ws)
{
    TPipe pipe;
    TQue<QuePosition::A1, 1> qA1;
    TQue<QuePosition::B1, 1> qB1;
    TQue<QuePosition::A2, 1> qA2;
    TQue<QuePosition::B2, 1> qB2;
    TQue<QuePosition::CO1, 1> qCO1;
    pipe.InitBuffer(qA1, 1, T * T * 2);
    pipe.InitBuffer(qB1, 1, T * T * 2);
    pipe.InitBuffer(qA2, 1, T * T * 2);
    pipe.InitBuffer(qB2, 1, T * T * 2);
    pipe.InitBuffer(qCO1, 1, T * T * 4);
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> wsGm;
    int32_t g = GetBlockIdx();
    aGm.SetGlobalBuffer((__gm__ half*)a + g * T * T);
    bGm.SetGlobalBuffer((__gm__ half*)b);
    wsGm.SetGlobalBuffer((__gm__ float*)ws + g * T * T);

    LocalTensor<half> a1 = qA1.AllocTensor<half>();
    DataCopy(a1, aGm, Nd2NzParams(1, T, T, 0, T, T, 1, 0));
    qA1.EnQue(a1);
    LocalTensor<half> b1 = qB1.AllocTensor<half>();
    DataCopy(b1, bGm, Nd2NzParams(1, T, T, 0, T, T, 1, 0));
    qB1.EnQue(b1);

    a1 = qA1.DeQue<half>();
    b1 = qB1.DeQue<half>();
    LocalTensor<half> a2 = qA2.AllocTensor<half>();
    LocalTensor<half> b2 = qB2.AllocTensor<half>();
    for (int32_t i = 0; i < 2; i++) {
        LoadData(a2[i * 512], a1[i * 256], LoadData2DParams(0, 2, 2, 0, 0, false, 0));
        LoadData(b2[i * 512], b1[i * 256], LoadData2DParams(0, 2, 2, 0, 0, true, 0));
    }
    qA2.EnQue(a2);
    qB2.EnQue(b2);
    qA1.FreeTensor(a1);
    qB1.FreeTensor(b1);

    a2 = qA2.DeQue<half>();
    b2 = qB2.DeQue<half>();
    LocalTensor<float> c = qCO1.AllocTensor<float>();
    Mmad(c, a2, b2, MmadParams(T, T, T, false));
    qCO1.EnQue(c);
    qA2.FreeTensor(a2);
    qB2.FreeTensor(b2);

    c = qCO1.DeQue<float>();
    FixpipeParamsV220 fp(T, T, T, T, false);
    Fixpipe<float, float, CFG_ROW_MAJOR>(wsGm, c, fp);
    qCO1.FreeTensor(c);
    CrossCoreSetFlag<2, PIPE_FIX>(3);
}

__aicore__ inline void VectorSide(GM_ADDR ws, GM_ADDR out)
{
    constexpr int32_t HALF = T * T / 2;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qIn;
    TQue<QuePosition::VECOUT, 1> qOut;
    pipe.InitBuffer(qIn, 1, HALF * 4);
    pipe.InitBuffer(qOut, 1, HALF * 4);
    GlobalTensor<float> wsGm, outGm;
    int32_t v = GetBlockIdx();  // 2 * group + sub-block
    wsGm.SetGlobalBuffer((__gm__ float*)ws + v * HALF);
    outGm.SetGlobalBuffer((__gm__ float*)out + v * HALF);
    CrossCoreWaitFlag<2, PIPE_MTE2>(3);
    LocalTensor<float> x = qIn.AllocTensor<float>();
    DataCopy(x, wsGm, HALF);
    qIn.EnQue(x);
    x = qIn.DeQue<float>();
    LocalTensor<float> y = qOut.AllocTensor<float>();
    LeakyRelu(y, x, 0.125f, HALF);
    qOut.EnQue(y);
    qIn.FreeTensor(x);
    y = qOut.DeQue<float>();
    DataCopy(outGm, y, HALF);
    qOut.FreeTensor(y);
}

extern "C" __global__ __aicore__ void matmul_leaky_relu(GM_ADDR a, GM_ADDR b, GM_ADDR ws, GM_ADDR out)
{
    if ASCEND_IS_AIC {
        CubeSide(a, b, ws);
    }
    if ASCEND_IS_AIV {
        VectorSide(ws, out);
    }
}

int main()
{
    half* a = (half*)GmAlloc(GROUPS * T * T * 2);
    half* b = (half*)GmAlloc(T * T * 2);
    float* ws = (float*)GmAlloc(GROUPS * T * T * 4);
    float* out = (float*)GmAlloc(GROUPS * T * T * 4);
    for (int32_t i = 0; i < GROUPS * T * T; i++) a[i] = half(float((i * 73 + 1) % 61 - 30) / 8.0f);
    for (int32_t i = 0; i < T * T; i++) b[i] = half(float((i * 73 + 2) % 61 - 30) / 8.0f);
    SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(matmul_leaky_relu, GROUPS, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)ws, (GM_ADDR)out);
    int wrong = 0;
    for (int32_t g = 0; g < GROUPS; g++) {
        for (int32_t i = 0; i < T; i++) {
            for (int32_t j = 0; j < T; j++) {
                float acc = 0.0f;
                for (int32_t f = 0; f < T; f += 16) {
                    double s = acc;
                    for (int32_t k = f; k < f + 16; k++) {
                        s += double(float(a[g * T * T + i * T + k])) * double(float(b[k * T + j]));
                    }
                    acc = float(s);
                }
                float want = acc >= 0.0f ? acc : acc * 0.125f;
                float got = out[g * T * T + i * T + j];
                wrong += std::memcmp(&got, &want, 4) != 0;
            }
        }
    }
    std::printf("%s\n", wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0 ? 0 : 1;
}
