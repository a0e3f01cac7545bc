// GET_TILING_DATA inside template kernels: the default struct (TilingData), and a struct that
// depends on the template parameter registered with REGISTER_TILING_DEFAULT.
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

struct TilingData {
    uint32_t n;
    float scale;
};

template <typename T>
struct ScaledTiling {
    uint32_t n;
    T scale;
};

template <typename T>
__global__ __aicore__ void default_tiling(GM_ADDR out, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    AscendC::GlobalTensor<T> o;
    o.SetGlobalBuffer((__gm__ T*)out, 8);
    o.SetValue(0, static_cast<T>(td.n * td.scale));
}

template <typename T>
__global__ __aicore__ void registered_tiling(GM_ADDR out, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(ScaledTiling<T>);
    GET_TILING_DATA(td, tiling);
    AscendC::GlobalTensor<T> o;
    o.SetGlobalBuffer((__gm__ T*)out, 8);
    o.SetValue(1, static_cast<T>(td.n) * td.scale);
}

int main()
{
    float* out = (float*)AscendC::GmAlloc(32);
    auto* a = (TilingData*)AscendC::GmAlloc(sizeof(TilingData));
    auto* b = (ScaledTiling<float>*)AscendC::GmAlloc(sizeof(ScaledTiling<float>));
    *a = {3, 1.5f};
    *b = {5, 0.25f};
    ICPU_RUN_KF(default_tiling<float>, 1, (GM_ADDR)out, (GM_ADDR)a);
    ICPU_RUN_KF(registered_tiling<float>, 1, (GM_ADDR)out, (GM_ADDR)b);
    bool ok = out[0] == 4.5f && out[1] == 1.25f;
    std::printf("GET_TILING_DATA in template kernels: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
