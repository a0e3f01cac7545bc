// Host side of add_tiled.cpp, in the .bin golden workflow: reads x.bin and y.bin from the
// directory given as argument, runs both kernels on 8 blocks, writes z_value.bin and z_gm.bin.
#include "data_utils.h"
#include "tikicpulib.h"

struct AddTiling {
    uint32_t totalLength;
    uint32_t tileNum;
};

extern "C" __global__ __aicore__ void add_tiled(GM_ADDR x, GM_ADDR y, GM_ADDR z, AddTiling tiling);
extern "C" __global__ __aicore__ void add_tiled_gm(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling);

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    constexpr uint32_t blockDim = 8;
    AddTiling tiling{8 * 2048, 8};
    size_t bytes = tiling.totalLength * sizeof(float);

    uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* t = (uint8_t*)AscendC::GmAlloc(sizeof(AddTiling));
    size_t size = 0;
    if (!ReadFile(dir + "/x.bin", size, x, bytes) || !ReadFile(dir + "/y.bin", size, y, bytes)) {
        return 2;
    }
    std::memcpy(t, &tiling, sizeof(AddTiling));

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(add_tiled, blockDim, x, y, z, tiling);
    WriteFile(dir + "/z_value.bin", z, bytes);
    std::memset(z, 0, bytes);
    ICPU_RUN_KF(add_tiled_gm, blockDim, x, y, z, t);
    WriteFile(dir + "/z_gm.bin", z, bytes);

    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(z);
    AscendC::GmFree(t);
    return 0;
}
