// ReduceRepeat / ReduceDataBlock / ReducePairElem and the reduction result registers, on the
// vendor pages' worked examples. Kernel and host in one file; prints "<case>: PASS" per case.
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr int32_t OUT = 64;

static uint16_t Bits(half x)
{
    uint16_t b;
    std::memcpy(&b, &x, 2);
    return b;
}

extern "C" __global__ __aicore__ void reduce_type(GM_ADDR out)
{
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    GlobalTensor<float> outGm;
    outGm.SetGlobalBuffer((__gm__ float*)out, OUT);
    LocalTensor<half> src = buf.GetWithOffset<half>(512, 0);
    LocalTensor<half> dst = buf.GetWithOffset<half>(64, 2048);

    // ReduceRepeat<MAX>: 4 repeats of 128; peaks 11 @ 52, 12 @ 100, 12.5 @ 7, 13 @ 19.
    const float base[4] = {1, 2, 2.5f, 3};
    const int lane[4] = {52, 100, 7, 19};
    const float peak[4] = {11, 12, 12.5f, 13};
    for (int r = 0; r < 4; r++) {
        for (int i = 0; i < 128; i++) {
            src.SetValue(r * 128 + i, half(i == lane[r] ? peak[r] : base[r]));
        }
    }
    uint64_t full[2] = {UINT64_MAX, UINT64_MAX};
    ReduceRepeat<ReduceType::MAX, half>(dst, src, full, 4, 1, 1, 8);
    for (int i = 0; i < 8; i++) {
        half v = dst.GetValue(i);
        outGm.SetValue(i, i % 2 == 0 ? float(v) : float(Bits(v)));
    }
    ReduceRepeat<ReduceType::MAX, half>(dst, src, 128, 4, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);
    for (int i = 0; i < 8; i++) {
        half v = dst.GetValue(i);
        outGm.SetValue(8 + i, i % 2 == 1 ? float(v) : float(Bits(v)));
    }
    half value, index;
    GetReduceRepeatMaxMinSpr<half>(value, index);
    outGm.SetValue(16, float(value));
    outGm.SetValue(17, float(Bits(index)));

    // ReduceDataBlock<MAX>: 2 in block 0, 3 in block 1, 4 in block 7.
    for (int i = 0; i < 128; i++) {
        src.SetValue(i, half(i == 10 ? 2 : i == 29 ? 3 : i == 115 ? 4 : 1));
    }
    ReduceDataBlock<ReduceType::MAX, half>(dst, src, 128, 1, 1, 1, 8);
    for (int i = 0; i < 8; i++) {
        outGm.SetValue(18 + i, float(dst.GetValue(i)));
    }

    // ReducePairElem<SUM>: [1, 1, 1, -1, 2, 2, -1, 2, 3, 3, 3, -1, 4, 4, -2, 4] -> [2, 0, 4, 1, 6, 2, 8, 2].
    const float row[16] = {1, 1, 1, -1, 2, 2, -1, 2, 3, 3, 3, -1, 4, 4, -2, 4};
    for (int i = 0; i < 128; i++) {
        src.SetValue(i, half(row[i % 16]));
    }
    ReducePairElem<ReduceType::SUM, half>(dst, src, full, 1, 1, 1, 8);
    for (int i = 0; i < 8; i++) {
        outGm.SetValue(26 + i, float(dst.GetValue(i)));
    }

    // ReduceSum over 128 floats, then the sum register.
    LocalTensor<float> fs = buf.GetWithOffset<float>(128, 4096);
    LocalTensor<float> work = buf.GetWithOffset<float>(64, 6144);
    LocalTensor<float> fd = buf.GetWithOffset<float>(8, 7168);
    for (int i = 0; i < 128; i++) {
        fs.SetValue(i, i * 0.25f);
    }
    ReduceSum<float>(fd, fs, work, 128);
    outGm.SetValue(34, GetReduceRepeatSumSpr<float>());
    outGm.SetValue(35, GetAccVal<float>());  // the earlier spelling
}

int main()
{
    float* out = (float*)AscendC::GmAlloc(OUT * sizeof(float));
    ICPU_RUN_KF(reduce_type, 1, (GM_ADDR)out);
    const float valueIndex[8] = {11, 0x34, 12, 0x64, 12.5f, 0x07, 13, 0x13};
    const float indexValue[8] = {0x34, 11, 0x64, 12, 0x07, 12.5f, 0x13, 13};
    const float block[8] = {2, 3, 1, 1, 1, 1, 1, 4};
    const float pair[8] = {2, 0, 4, 1, 6, 2, 8, 2};
    bool ok[5] = {true, true, true, true, true};
    for (int i = 0; i < 8; i++) {
        ok[0] = ok[0] && out[i] == valueIndex[i] && out[8 + i] == indexValue[i];
        ok[2] = ok[2] && out[18 + i] == block[i];
        ok[3] = ok[3] && out[26 + i] == pair[i];
    }
    // The register: 13 at element 3 * 128 + 19 of the contiguous source.
    ok[1] = out[16] == 13 && out[17] == 3 * 128 + 19;
    ok[4] = out[34] == 2032.0f && out[35] == 2032.0f;
    const char* names[5] = {"ReduceRepeat", "GetReduceRepeatMaxMinSpr", "ReduceDataBlock", "ReducePairElem",
                            "GetReduceRepeatSumSpr"};
    int wrong = 0;
    for (int k = 0; k < 5; k++) {
        std::printf("%s: %s\n", names[k], ok[k] ? "PASS" : "FAIL");
        wrong += !ok[k];
    }
    AscendC::GmFree(out);
    return wrong == 0 ? 0 : 1;
}
