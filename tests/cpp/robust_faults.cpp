// Kernels that break the host's rules in native code, for the fault reports. `mode`:
// 1 writes 44 floats past the end of its 62-float GM buffer through a raw pointer;
// 2 throws a C++ exception; 3 calls exit(0); 4 writes one float past the end (inside the
// 32-byte rounding gap, found when the buffer is freed).
#include <cstdlib>
#include <stdexcept>

#include "kernel_operator.h"

extern "C" __global__ __aicore__ void misbehave(GM_ADDR y, int32_t mode)
{
    float* p = reinterpret_cast<float*>(y);
    if (mode == 1) {
        for (int i = 0; i < 62 + 44; i++) {
            p[i] = 1.0f;
        }
    } else if (mode == 2) {
        throw std::runtime_error("tile count mismatch");
    } else if (mode == 3) {
        std::exit(0);
    } else if (mode == 4) {
        p[62] = 1.0f;
    }
}
