// Host side of row_compact.cpp: reads input/x.bin (8 x 5 float32), runs the kernel on one
// block and writes output/y.bin.
#include "data_utils.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void row_compact(GM_ADDR x, GM_ADDR y);

int main()
{
    constexpr size_t BYTES = 8 * 5 * sizeof(float);
    size_t size = 0;
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(BYTES);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(BYTES);
    if (!ReadFile("./input/x.bin", size, x, BYTES)) {
        return 1;
    }
    ICPU_RUN_KF(row_compact, 1, x, y);
    WriteFile("./output/y.bin", y, BYTES);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    return 0;
}
