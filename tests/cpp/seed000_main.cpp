// Host side of seed000_add.cpp: 1..512 plus 1..512 in half, result written to DIR/out.bin.
#include "data_utils.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void add_half(GM_ADDR a, GM_ADDR b, GM_ADDR out);

int main(int argc, char** argv)
{
    const std::string dir = argc > 1 ? argv[1] : ".";
    constexpr size_t n = 512;
    half* a = (half*)AscendC::GmAlloc(n * sizeof(half));
    half* b = (half*)AscendC::GmAlloc(n * sizeof(half));
    half* out = (half*)AscendC::GmAlloc(n * sizeof(half));
    for (size_t i = 0; i < n; i++) {
        a[i] = i + 1;
        b[i] = i + 1;
    }
    ICPU_RUN_KF(add_half, 1, (GM_ADDR)a, (GM_ADDR)b, (GM_ADDR)out);
    WriteFile(dir + "/out.bin", out, n * sizeof(half));
    std::printf("out[0] = %g, out[511] = %g\n", float(out[0]), float(out[511]));
    AscendC::GmFree(a);
    AscendC::GmFree(b);
    AscendC::GmFree(out);
    return 0;
}
