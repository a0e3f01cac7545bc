// Host side in the 2023 layout: the CPU-debug branch (__CCE_KT_TEST__, defined by the CPU
// build) allocates GM with tik2::GmAlloc and runs the kernel with ICPU_RUN_KF; the device branch
// goes through the acl runtime. Reads input/input_{x,y}.bin, writes output/output_z.bin.
#include "data_utils.h"
#ifdef __CCE_KT_TEST__
#include "tikicpulib.h"
#include "add_custom_tiling.h"
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling);
#else
#include "acl/acl.h"
extern void add_custom_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x, uint8_t* y, uint8_t* z,
                          uint8_t* workspace, uint8_t* tiling);
#endif

constexpr uint32_t BLOCK_DIM = 8;
constexpr uint32_t TOTAL_LENGTH = 8 * 2048;
constexpr uint32_t TILE_NUM = 8;
// System workspace of the product (16 MiB on A2) plus the kernel's own (none).
constexpr size_t WORKSPACE_SIZE = 16 * 1024 * 1024;

int32_t main(int32_t argc, char* argv[])
{
    size_t inputByteSize = TOTAL_LENGTH * sizeof(uint16_t);
    size_t outputByteSize = TOTAL_LENGTH * sizeof(uint16_t);
    size_t tilingSize = 3 * sizeof(uint32_t);

#ifdef __CCE_KT_TEST__
    uint8_t* x = (uint8_t*)tik2::GmAlloc(inputByteSize);
    uint8_t* y = (uint8_t*)tik2::GmAlloc(inputByteSize);
    uint8_t* z = (uint8_t*)tik2::GmAlloc(outputByteSize);
    uint8_t* workspace = (uint8_t*)tik2::GmAlloc(WORKSPACE_SIZE);
    uint8_t* tiling = (uint8_t*)tik2::GmAlloc(tilingSize);
    uint32_t tilingHost[3] = {BLOCK_DIM, TOTAL_LENGTH, TILE_NUM};
    std::memcpy(tiling, tilingHost, tilingSize);

    size_t size = 0;
    if (!ReadFile("./input/input_x.bin", size, x, inputByteSize) ||
        !ReadFile("./input/input_y.bin", size, y, inputByteSize)) {
        return 1;
    }
    ICPU_RUN_KF(add_custom, BLOCK_DIM, x, y, z, workspace, tiling);
    WriteFile("./output/output_z.bin", z, outputByteSize);

    tik2::GmFree((void*)x);
    tik2::GmFree((void*)y);
    tik2::GmFree((void*)z);
    tik2::GmFree((void*)workspace);
    tik2::GmFree((void*)tiling);
#else
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    uint8_t *xDevice, *yDevice, *zDevice, *workspaceDevice, *tilingDevice;
    aclrtMalloc((void**)&xDevice, inputByteSize, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&yDevice, inputByteSize, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&zDevice, outputByteSize, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&workspaceDevice, WORKSPACE_SIZE, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&tilingDevice, tilingSize, ACL_MEM_MALLOC_HUGE_FIRST);
    uint8_t host[TOTAL_LENGTH * sizeof(uint16_t)];
    size_t size = 0;
    ReadFile("./input/input_x.bin", size, host, inputByteSize);
    aclrtMemcpy(xDevice, inputByteSize, host, inputByteSize, ACL_MEMCPY_HOST_TO_DEVICE);
    ReadFile("./input/input_y.bin", size, host, inputByteSize);
    aclrtMemcpy(yDevice, inputByteSize, host, inputByteSize, ACL_MEMCPY_HOST_TO_DEVICE);
    uint32_t tilingHost[3] = {BLOCK_DIM, TOTAL_LENGTH, TILE_NUM};
    aclrtMemcpy(tilingDevice, tilingSize, tilingHost, tilingSize, ACL_MEMCPY_HOST_TO_DEVICE);
    add_custom_do(BLOCK_DIM, nullptr, stream, xDevice, yDevice, zDevice, workspaceDevice, tilingDevice);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(host, outputByteSize, zDevice, outputByteSize, ACL_MEMCPY_DEVICE_TO_HOST);
    WriteFile("./output/output_z.bin", host, outputByteSize);
    aclrtFree(xDevice);
    aclrtFree(yDevice);
    aclrtFree(zDevice);
    aclrtFree(workspaceDevice);
    aclrtFree(tilingDevice);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
#endif
    return 0;
}
