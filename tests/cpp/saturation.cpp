// fp16 overflow mode: 60000 + 60000 saturates to 65504 by default; after SetSaturationFlag(false)
// the same Add gives +inf (A2/A3 only: other products refuse the switch).
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void saturation(GM_ADDR out)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * 16 * sizeof(half));
    AscendC::LocalTensor<half> a = buf.Get<half>(16);
    AscendC::LocalTensor<half> b = buf.GetWithOffset<half>(16, 32);
    AscendC::LocalTensor<half> c = buf.GetWithOffset<half>(16, 64);
    for (int i = 0; i < 16; i++) {
        a.SetValue(i, half(60000.0f));
    }
    AscendC::Add(b, a, a, 16);
    AscendC::SetSaturationFlag(false);
    AscendC::Add(c, a, a, 16);
    AscendC::GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)out, 32);
    AscendC::DataCopy(g, b, 16);
    AscendC::DataCopy(g[16], c, 16);
}

int main()
{
    uint16_t* out = (uint16_t*)AscendC::GmAlloc(32 * sizeof(uint16_t));
    ICPU_RUN_KF(saturation, 1, (GM_ADDR)out);
    std::printf("saturated 0x%04x, ieee 0x%04x\n", out[0], out[16]);
    AscendC::GmFree(out);
    return 0;
}
