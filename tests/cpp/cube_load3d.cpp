// A 3 x 3 convolution through LoadData for convolution (image to column): the feature map
// (NC1HWC0, 6 x 6 x 16 halves) and the weights (NZ, 144 x 16) come GM -> L1 with LoadData
// (GM -> L1 2D fractals); the feature map unfolds into L0A (pad 1, stride 1), the weights into
// L0B (a 144 x 1 map of 16 channels, transposed on the way), Mmad and Fixpipe give the 36 x 16
// output, checked against a direct convolution on the host. Three spellings of the unfold:
// LoadData3DParamsV2 setting its own registers, V2 with IsResetLoad3dConfig {false, false} after
// SetFmatrix / SetLoadDataPaddingValue / SetLoadDataRepeat, and LoadData3DParamsV2Pro.
#include <cstdio>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint16_t H = 6, W = 6, C = 16, KH = 3, KW = 3, CO = 16;
constexpr uint16_t M = H * W, K = KH * KW * C;
constexpr uint32_t X_FRACTALS = (H * W * C * 2 + 511) / 512, W_FRACTALS = K * CO * 2 / 512;

static int g_form = 0;
constexpr IsResetLoad3dConfig FROM_REGISTERS = {false, false};

__global__ __aicore__ void conv(GM_ADDR x, GM_ADDR w, GM_ADDR y)
{
    GlobalTensor<half> xGm, wGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x);
    wGm.SetGlobalBuffer((__gm__ half*)w);
    yGm.SetGlobalBuffer((__gm__ float*)y);
    LocalTensor<half> x1(TPosition::A1, 0, X_FRACTALS * 256);
    LocalTensor<half> w1(TPosition::B1, 8192, W_FRACTALS * 256);
    LocalTensor<half> a2(TPosition::A2, 0, 48 * K);
    LocalTensor<half> b2(TPosition::B2, 0, K * CO);
    LocalTensor<float> c1(TPosition::CO1, 0, 48 * CO);
    LoadData(x1, xGm, LoadData2DParams(0, X_FRACTALS, 1, 0, 0, false, 0));
    LoadData(w1, wGm, LoadData2DParams(0, W_FRACTALS, 1, 0, 0, false, 0));
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    uint8_t pad[PAD_SIZE] = {1, 1, 1, 1};
    uint8_t none[PAD_SIZE] = {0, 0, 0, 0};
    if (g_form == 0) {
        // {padList, l1H, l1W, channelSize, kExtension, mExtension, kStartPt, mStartPt, strideW,
        // strideH, filterW, filterH, dilationFilterW, dilationFilterH, enTranspose, enSmallK, padValue}
        LoadData(a2, x1, {pad, H, W, C, K, M, 0, 0, 1, 1, KW, KH, 1, 1, false, false, half(0)});
    } else if (g_form == 1) {
        SetFmatrix(H, W, pad, FmatrixMode::FMATRIX_LEFT);
        SetLoadDataPaddingValue(half(0));
        SetLoadDataRepeat({0, 1, 0});
        LoadData3DParamsV2<half> p;
        p.channelSize = C;
        p.kExtension = K;
        p.mExtension = M;
        p.filterW = KW;
        p.filterH = KH;
        p.padValue = half(99);  // not used: the register's value is
        LoadData<half, FROM_REGISTERS>(a2, x1, p);
    } else {
        SetFmatrix(H, W, pad, FmatrixMode::FMATRIX_LEFT);
        SetLoadDataPaddingValue(half(0));
        uint64_t ext = (uint64_t(0) << 48) | (uint64_t(0) << 32) | (uint64_t(M) << 16) | uint64_t(K);
        uint64_t filter = (1ULL << 40) | (1ULL << 32) | (uint64_t(KH) << 24) | (uint64_t(KW) << 16) | (1 << 8) | 1;
        LoadData(a2, x1, LoadData3DParamsV2Pro(C, false, false, false, false, false, ext, filter));
    }
    // The weights: NZ (K rows, CO columns) read as a K x 1 map of CO channels, into ZN.
    LoadData3DParamsV2<half> pw(none, K, 1, CO, CO, K, 0, 0, 1, 1, 1, 1, 1, 1, true, false, half(0));
    LoadData(b2, w1, pw);
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    MmadParams mp;
    mp.m = M;
    mp.n = CO;
    mp.k = K;
    Mmad(c1, a2, b2, mp);
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    Fixpipe(yGm, c1, FixpipeParamsV220(CO, M, 48, CO, false));
}

int main(int argc, char** argv)
{
    SetKernelMode(KernelMode::AIC_MODE);
    std::vector<float> xv(H * W * C), wv(K * CO);
    for (uint32_t i = 0; i < xv.size(); i++) xv[i] = float(int(i * 7 % 9) - 4);
    for (uint32_t i = 0; i < wv.size(); i++) wv[i] = float(int(i * 5 % 7) - 3);
    half* x = (half*)GmAlloc(X_FRACTALS * 512);
    half* w = (half*)GmAlloc(W_FRACTALS * 512);
    float* y = (float*)GmAlloc(M * CO * 4);
    // NC1HWC0 with C1 = 1 is HWC; the weights row (kh * KW + kw) * C + ci, column co, in NZ.
    for (uint32_t i = 0; i < xv.size(); i++) x[i] = half(xv[i]);
    for (uint32_t r = 0; r < K; r++) {
        for (uint32_t co = 0; co < CO; co++) w[(co / 16) * K * 16 + r * 16 + co % 16] = half(wv[r * CO + co]);
    }
    bool ok = true;
    const char* names[] = {"LoadData3DParamsV2", "registers (SetFmatrix, padding, repeat)", "LoadData3DParamsV2Pro"};
    for (g_form = 0; g_form < 3; g_form++) {
        ICPU_RUN_KF(conv, 1, (GM_ADDR)x, (GM_ADDR)w, (GM_ADDR)y);
        int wrong = 0;
        for (int oh = 0; oh < H; oh++) {
            for (int ow = 0; ow < W; ow++) {
                for (int co = 0; co < CO; co++) {
                    float s = 0;
                    for (int kh = 0; kh < KH; kh++) {
                        for (int kw = 0; kw < KW; kw++) {
                            int ih = oh + kh - 1, iw = ow + kw - 1;
                            if (ih < 0 || iw < 0 || ih >= H || iw >= W) continue;
                            for (int ci = 0; ci < C; ci++) {
                                s += xv[(ih * W + iw) * C + ci] * wv[((kh * KW + kw) * C + ci) * CO + co];
                            }
                        }
                    }
                    wrong += y[(oh * W + ow) * CO + co] != s;
                }
            }
        }
        std::printf("%s: %s\n", names[g_form], wrong == 0 ? "PASS" : "FAIL");
        ok = wrong == 0 && ok;
    }
    GmFree(x);
    GmFree(w);
    GmFree(y);
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
