// Launches the kernels `sqrt` and `exp` of launch_libc_names_kernel.cpp from both host branches
// (ICPU_RUN_KF; <<<>>>) beside <cmath>'s functions of the same names, and checks them against
// those.
#include <cmath>

#include "launch_forms.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void sqrt(GM_ADDR x, GM_ADDR y);
extern "C" __global__ __aicore__ void exp(GM_ADDR x, GM_ADDR y);

int main()
{
    AclSession acl;
    std::vector<float> xs = Ramp(0.0625f);
    void* x = ToDevice(xs);
    void* y = ToDevice(std::vector<float>(COUNT));
    bool ok = true;
#ifdef ASCENDC_CPU_DEBUG
    ICPU_RUN_KF(sqrt, BLOCKS, (GM_ADDR)x, (GM_ADDR)y);
#else
    sqrt<<<BLOCKS, nullptr, acl.stream>>>(x, y);
#endif
    ok &= Check("sqrt", y, [&](size_t i) { return std::sqrt(xs[i]); }, 1e-6f);
#ifdef ASCENDC_CPU_DEBUG
    ICPU_RUN_KF(exp, BLOCKS, (GM_ADDR)x, (GM_ADDR)y);
#else
    exp<<<BLOCKS, nullptr, acl.stream>>>(x, y);
#endif
    ok &= Check("exp", y, [&](size_t i) { return std::exp(xs[i]); }, 1e-6f);
    aclrtFree(x);
    aclrtFree(y);
    return ok ? 0 : 1;
}
