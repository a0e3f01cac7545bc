// The index and reduce families through the C++ headers: Arange, Sum, Mean (half with float
// accumulation), the patterned ReduceMax / ReduceSum / ReduceMean (AR and RA), and the basic
// API's ReduceMax in the same translation unit. Self-checking: prints "bad 0" when every value
// is as expected.
#include "tikicpulib.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
#include <cstdio>

constexpr uint32_t FIRST = 4, LAST = 100, PAD = 104;

__global__ __vector__ void reduce_kernel(GM_ADDR out, GM_ADDR tiling) {
    uint32_t tmpBytes = *reinterpret_cast<__gm__ uint32_t*>(tiling);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 32768);
    AscendC::LocalTensor<float> src = b.Get<float>(FIRST * PAD);
    AscendC::LocalTensor<float> dst = b.GetWithOffset<float>(256, 4096);
    AscendC::LocalTensor<uint8_t> tmp = b.GetWithOffset<uint8_t>(8192, 8192);
    AscendC::LocalTensor<half> hsrc = b.GetWithOffset<half>(256, 16384);
    AscendC::LocalTensor<half> hdst = b.GetWithOffset<half>(16, 17408);
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)out);
    // src[r][c] = r * 100 + c: Arange per row, Duplicate(0) on the padding first.
    AscendC::Duplicate<float>(src, 0.0f, FIRST * PAD);
    AscendC::PipeBarrier<PIPE_V>();
    for (uint32_t r = 0; r < FIRST; r++) {
        AscendC::Arange<float>(src[r * PAD], float(r * 100), 1.0f, LAST);
    }
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::SumParams sp{FIRST, PAD, LAST};
    AscendC::Sum(dst, src, tmp, sp);                                                  // dst[0..4]
    AscendC::PipeBarrier<PIPE_V>();
    uint32_t shape[] = {FIRST, LAST};
    AscendC::ReduceMax<float, AscendC::Pattern::Reduce::AR>(dst[8], src, tmp, shape, true);     // 8..12
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::ReduceSum<float, AscendC::Pattern::Reduce::RA, false>(dst[16], src, tmp, shape, true); // 16..116
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::ReduceMean<float, AscendC::Pattern::Reduce::AR>(dst[120], src, tmp, shape, true);  // 120..124
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::ReduceMax<float>(dst[128], src, tmp.ReinterpretCast<float>(), int32_t(LAST));      // basic API
    AscendC::PipeBarrier<PIPE_V>();
    // Mean<half, float> of the row 0..99 (as half): 49.5.
    AscendC::Arange<half>(hsrc, half(0.0f), half(1.0f), 100);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::MeanParams mp{1, 112, 100};
    AscendC::Mean<half, float>(hdst, hsrc, tmp, mp);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Cast(dst[136], hdst, AscendC::RoundMode::CAST_NONE, 1);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(g, dst, 256);
    (void)tmpBytes;
}

int main() {
    uint32_t mx = 0, mn = 0, need = 0;
    AscendC::GetSumMaxMinTmpSize(LAST, 4, false, mx, mn);
    need = mn > need ? mn : need;
    AscendC::GetReduceMaxMaxMinTmpSize(AscendC::TensorShape({FIRST, LAST}), ge::DT_FLOAT, AscendC::ReducePattern::AR,
                                       true, false, mx, mn);
    need = mn > need ? mn : need;
    AscendC::GetReduceSumMaxMinTmpSize(AscendC::TensorShape({FIRST, LAST}), ge::DT_FLOAT, AscendC::ReducePattern::RA,
                                       true, false, mx, mn);
    need = mn > need ? mn : need;
    AscendC::GetMeanMaxMinTmpSize(100, 2, 4, false, mx, mn);
    need = mn > need ? mn : need;
    uint32_t amx = 1, amn = 1;
    AscendC::GetArangeMaxMinTmpSize(amx, amn);
    printf("tmp %u arange %u %u\n", need, amx, amn);
    float* out = (float*)AscendC::GmAlloc(1024);
    uint32_t* tiling = (uint32_t*)AscendC::GmAlloc(32);
    tiling[0] = need;
    ICPU_RUN_KF(reduce_kernel, 1, (uint8_t*)out, (uint8_t*)tiling);
    int bad = need > 8192 || amx != 0 || amn != 0;
    for (uint32_t r = 0; r < FIRST; r++) {
        bad += out[r] != float(r * 10000 + 4950);
        bad += out[8 + r] != float(r * 100 + 99);
        bad += out[120 + r] != float(r * 10000 + 4950) * (1.0f / 100.0f);
    }
    for (uint32_t c = 0; c < LAST; c++) bad += out[16 + c] != float(600 + 4 * c);
    bad += out[128] != 99.0f;
    bad += out[136] != 49.5f;
    printf("sum %g max %g ra %g mean %g basic %g hmean %g\n", out[1], out[9], out[17], out[121], out[128], out[136]);
    printf("bad %d\n", bad);
    return bad != 0;
}
