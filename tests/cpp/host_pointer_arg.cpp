// A kernel whose tiling struct is host memory passed by address, as CPU-debug host files of
// public samples do: the launch accepts it with one warning (per call site and argument), and
// GET_TILING_DATA reads it. The kernel writes value * (block index + 1) to its GM element.
#include <cstdio>

#include "kernel_operator.h"

BEGIN_TILING_DATA_DEF(TilingData)
TILING_DATA_FIELD_DEF(uint32_t, value);
END_TILING_DATA_DEF;

#include "tikicpulib.h"

extern "C" __global__ __aicore__ void scale_by_tiling(GM_ADDR out, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<uint32_t> outGm;
    outGm.SetGlobalBuffer((__gm__ uint32_t*)out, 4);
    outGm.SetValue(AscendC::GetBlockIdx(), t.value * (AscendC::GetBlockIdx() + 1));
}

int main()
{
    uint32_t* out = (uint32_t*)AscendC::GmAlloc(4 * sizeof(uint32_t));
    TilingData tiling;
    for (uint32_t round = 1; round <= 2; round++) {
        tiling.value = 10 * round;
        ICPU_RUN_KF(scale_by_tiling, 4, (uint8_t*)out, (uint8_t*)&tiling);
        std::printf("round %u: %u %u %u %u\n", round, out[0], out[1], out[2], out[3]);
    }
    AscendC::GmFree(out);
    return 0;
}
