// Host side of kernel_surface.cpp. `main` runs surface_static and surface_pipe on the inputs of
// gen_data.py and writes output/{z,info,y,flags}.bin; `main assert` runs surface_assert, whose
// launch fails.
#include <cstring>
#include <string>

#include "data_utils.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void surface_static(GM_ADDR list, GM_ADDR z, GM_ADDR info, GM_ADDR workspace,
                                                     GM_ADDR tiling);
extern "C" __global__ __aicore__ void surface_pipe(GM_ADDR x, GM_ADDR y, GM_ADDR flags);
extern "C" __global__ __aicore__ void surface_assert(GM_ADDR tiling);

struct SurfaceTiling {
    uint32_t n;
    float scale;
};

constexpr uint32_t N = 64;
constexpr uint32_t INFO_COUNT = 16;
constexpr size_t WORKSPACE_SIZE = 16 * 1024 * 1024 + 1024;

int main(int argc, char** argv)
{
    SurfaceTiling* tiling = (SurfaceTiling*)AscendC::GmAlloc(sizeof(SurfaceTiling));
    tiling->n = N;
    tiling->scale = 0.5f;
    if (argc > 1 && std::string(argv[1]) == "assert") {
        ICPU_RUN_KF(surface_assert, 1, (GM_ADDR)tiling);
        return 0;
    }

    size_t size = 0;
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* xf = (uint8_t*)AscendC::GmAlloc(N * 4);
    if (!ReadFile("./input/x.bin", size, x, N * 2) || !ReadFile("./input/y.bin", size, y, N * 2) ||
        !ReadFile("./input/xf.bin", size, xf, N * 4)) {
        return 1;
    }
    // The tensor list: pointer offset, x as [8, 8], y as [64], then the two pointers.
    uint64_t words[] = {6 * 8, 2, 8, 8, 1, N, (uint64_t)(uintptr_t)x, (uint64_t)(uintptr_t)y};
    uint8_t* list = (uint8_t*)AscendC::GmAlloc(sizeof(words));
    std::memcpy(list, words, sizeof(words));

    uint8_t* z = (uint8_t*)AscendC::GmAlloc(N * 2);
    uint8_t* info = (uint8_t*)AscendC::GmAlloc(INFO_COUNT * 4);
    uint8_t* workspace = (uint8_t*)AscendC::GmAlloc(WORKSPACE_SIZE);
    ICPU_RUN_KF(surface_static, 1, list, z, info, workspace, (GM_ADDR)tiling);

    uint8_t* yf = (uint8_t*)AscendC::GmAlloc(N * 4);
    uint8_t* flags = (uint8_t*)AscendC::GmAlloc(2 * 4);
    ICPU_RUN_KF(surface_pipe, 1, xf, yf, flags);

    WriteFile("./output/z.bin", z, N * 2);
    WriteFile("./output/info.bin", info, INFO_COUNT * 4);
    WriteFile("./output/y.bin", yf, N * 4);
    WriteFile("./output/flags.bin", flags, 2 * 4);
    for (uint8_t* p : {x, y, xf, list, z, info, workspace, yf, flags, (uint8_t*)tiling}) {
        AscendC::GmFree(p);
    }
    return 0;
}
