// ASSERT and ASCENDC_ASSERT are active in the CPU-debug branch and compile to nothing in the
// device branch (--run-mode npu), as in the vendor's device build. The kernel's asserts are false.
#include <cstdio>

#include "acl/acl.h"
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void assert_kernel(GM_ADDR out)
{
    AscendC::GlobalTensor<int32_t> outGm;
    outGm.SetGlobalBuffer((__gm__ int32_t*)out, 8);
    ASSERT(AscendC::GetBlockNum() == 0, "block count %d", static_cast<int>(AscendC::GetBlockNum()));
    ASCENDC_ASSERT(AscendC::GetBlockNum() == 0, { KERNEL_LOG(KERNEL_ERROR, "unreachable in the device branch"); });
    outGm.SetValue(0, 42);
}

int main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    void* dev = nullptr;
    aclrtMalloc(&dev, 32, ACL_MEM_MALLOC_HUGE_FIRST);
    assert_kernel<<<1, nullptr, stream>>>((GM_ADDR)dev);
    aclrtSynchronizeStream(stream);
    int32_t host[8] = {};
    aclrtMemcpy(host, sizeof(host), dev, 32, ACL_MEMCPY_DEVICE_TO_HOST);
    std::printf("asserts compiled out: %s\n", host[0] == 42 ? "PASS" : "FAIL");
    aclrtFree(dev);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return host[0] == 42 ? 0 : 1;
}
