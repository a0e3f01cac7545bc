// Kernels named like C library functions in a kernel file of their own, launched by
// launch_libc_names_main.cpp (which includes <cmath>).
#include "launch_forms.h"

extern "C" __global__ __aicore__ void sqrt(GM_ADDR x, GM_ADDR y)
{
    UnaryTile(x, y, [](auto& c, auto& a) { AscendC::Sqrt(c, a, TILE); });
}

extern "C" __global__ __aicore__ void exp(GM_ADDR x, GM_ADDR y)
{
    UnaryTile(x, y, [](auto& c, auto& a) { AscendC::Exp(c, a, TILE); });
}
