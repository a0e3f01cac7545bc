// GetUserWorkspace in both host flows. The kernel records where the user workspace starts
// (bytes past the workspace argument) and fills 1024 ints of it with 3 * i. The CPU-debug flow
// (ASCENDC_CPU_DEBUG) hands the kernel a 4 KiB workspace: its GetUserWorkspace returns the
// workspace itself. The device flow allocates the system workspace (16 MiB on A2) plus 4 KiB:
// the user part starts after the system part. Prints the offset and PASS when the ints read back.
#include <cstdio>

#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#else
#include "acl/acl.h"
#endif

constexpr uint32_t USER_BYTES = 4096;

extern "C" __global__ __aicore__ void fill_user(GM_ADDR workspace, GM_ADDR info)
{
    GM_ADDR user = AscendC::GetUserWorkspace(workspace);
    AscendC::GlobalTensor<int64_t> infoGm;
    infoGm.SetGlobalBuffer((__gm__ int64_t*)info, 1);
    infoGm.SetValue(0, static_cast<int64_t>(user - workspace));
    AscendC::GlobalTensor<int32_t> userGm;
    userGm.SetGlobalBuffer((__gm__ int32_t*)user, USER_BYTES / 4);
    for (int32_t i = 0; i < USER_BYTES / 4; i++) {
        userGm.SetValue(i, 3 * i);
    }
}

static int Check(const int32_t* user)
{
    int wrong = 0;
    for (uint32_t i = 0; i < USER_BYTES / 4; i++) {
        wrong += user[i] != static_cast<int32_t>(3 * i);
    }
    return wrong;
}

int main()
{
    int wrong = 0;
    int64_t offset = -1;
#ifdef ASCENDC_CPU_DEBUG
    uint8_t* workspace = (uint8_t*)AscendC::GmAlloc(USER_BYTES);
    int64_t* info = (int64_t*)AscendC::GmAlloc(8);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(fill_user, 1, workspace, (GM_ADDR)info);
    offset = *info;
    wrong = Check((const int32_t*)(workspace + offset));
#else
    constexpr size_t SYS_BYTES = 16 * 1024 * 1024;
    aclInit(nullptr);
    aclrtSetDevice(0);
    uint8_t *workspace = nullptr, *info = nullptr;
    aclrtMalloc((void**)&workspace, SYS_BYTES + USER_BYTES, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&info, 8, ACL_MEM_MALLOC_HUGE_FIRST);
    fill_user<<<1, nullptr, nullptr>>>(workspace, info);
    aclrtMemcpy(&offset, 8, info, 8, ACL_MEMCPY_DEVICE_TO_HOST);
    static int32_t user[USER_BYTES / 4];
    aclrtMemcpy(user, USER_BYTES, workspace + offset, USER_BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
    wrong = Check(user);
    aclrtFree(workspace);
    aclrtFree(info);
    aclrtResetDevice(0);
    aclFinalize();
#endif
    std::printf("user workspace at +%lld: %s\n", static_cast<long long>(offset), wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0 ? 0 : 1;
}
