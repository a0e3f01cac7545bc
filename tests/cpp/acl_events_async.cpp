// Events, the asynchronous copies and fills, and the synchronisation calls of the acl runtime
// around a <<<>>> launch on a second stream: every result and error code is checked; prints
// `<case>: PASS` per case.
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"

// z = x + 1 over `perBlock` floats per block.
__global__ __vector__ void add_one(GM_ADDR x, GM_ADDR z, uint32_t perBlock)
{
    AscendC::GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + AscendC::GetBlockIdx() * perBlock, perBlock);
    zGm.SetGlobalBuffer((__gm__ float*)z + AscendC::GetBlockIdx() * perBlock, perBlock);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> xl = ub.Alloc<float>(perBlock);
    AscendC::DataCopy(xl, xGm, perBlock);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Adds(xl, xl, 1.0f, perBlock);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zGm, xl, perBlock);
}

static int failures = 0;

static void Case(const char* name, bool ok)
{
    std::printf("%s: %s\n", name, ok ? "PASS" : "FAIL");
    failures += ok ? 0 : 1;
}

static bool RecentHas(const char* text)
{
    const char* m = aclGetRecentErrMsg();
    bool ok = m != nullptr && std::strstr(m, text) != nullptr;
    if (!ok) {
        std::printf("  expected a message containing \"%s\", got \"%s\"\n", text, m ? m : "(none)");
    }
    return ok;
}

int main()
{
    constexpr uint32_t blocks = 4;
    constexpr uint32_t perBlock = 256;
    constexpr uint32_t n = blocks * perBlock;
    constexpr size_t bytes = n * sizeof(float);

    aclInit(nullptr);
    int32_t device = -1;
    bool before = aclrtGetDevice(&device) == ACL_ERROR_RT_CONTEXT_NULL && RecentHas("no device is current");
    aclrtSetDevice(0);
    bool after = aclrtGetDevice(&device) == ACL_SUCCESS && device == 0;
    Case("current device", before && after);

    aclrtStream copyStream = nullptr, computeStream = nullptr;
    aclrtCreateStream(&copyStream);
    aclrtCreateStream(&computeStream);
    aclrtEvent start = nullptr, done = nullptr, ready = nullptr, bad = nullptr;
    bool created = aclrtCreateEvent(&start) == ACL_SUCCESS &&
                   aclrtCreateEventWithFlag(&done, ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC) == ACL_SUCCESS &&
                   aclrtCreateEventExWithFlag(&ready, ACL_EVENT_SYNC) == ACL_SUCCESS &&
                   aclrtCreateEventWithFlag(&bad, 0x4) == ACL_ERROR_INVALID_PARAM && RecentHas("0x4");
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    bool notYet = aclrtQueryEventStatus(ready, &status) == ACL_SUCCESS && status == ACL_EVENT_RECORDED_STATUS_NOT_READY;
    Case("create events", created && notYet);

    std::vector<float> xHost(n), zHost(n, -1.0f);
    for (uint32_t i = 0; i < n; i++) {
        xHost[i] = float(i) * 0.25f;
    }
    void *x = nullptr, *z = nullptr;
    aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    bool copied = aclrtRecordEvent(start, copyStream) == ACL_SUCCESS &&
                  aclrtMemsetAsync(z, bytes, 0x7f, bytes, copyStream) == ACL_SUCCESS &&
                  aclrtMemcpyAsync(x, bytes, xHost.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, copyStream) ==
                      ACL_SUCCESS &&
                  aclrtRecordEvent(ready, copyStream) == ACL_SUCCESS &&
                  aclrtStreamWaitEvent(computeStream, ready) == ACL_SUCCESS;
    bool recorded = aclrtQueryEventStatus(ready, &status) == ACL_SUCCESS && status == ACL_EVENT_RECORDED_STATUS_COMPLETE;
    Case("async copy, record, wait", copied && recorded);

    add_one<<<blocks, nullptr, computeStream>>>((GM_ADDR)x, (GM_ADDR)z, perBlock);
    aclrtRecordEvent(done, computeStream);
    float ms = -1.0f;
    bool synced = aclrtSynchronizeEvent(done) == ACL_SUCCESS &&
                  aclrtSynchronizeEventWithTimeout(done, 100) == ACL_SUCCESS &&
                  aclrtSynchronizeStreamWithTimeout(computeStream, -1) == ACL_SUCCESS &&
                  aclrtSynchronizeDevice() == ACL_SUCCESS;
    bool timed = aclrtEventElapsedTime(&ms, start, done) == ACL_SUCCESS && ms > 0.0f;
    bool untimed = aclrtEventElapsedTime(&ms, start, ready) == ACL_ERROR_INVALID_PARAM &&
                   RecentHas("without ACL_EVENT_TIME_LINE");
    bool reversed = aclrtEventElapsedTime(&ms, done, start) == ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL;
    aclrtResetEvent(start, copyStream);
    bool reset = aclrtEventElapsedTime(&ms, start, done) == ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID;
    Case("synchronise and time", synced && timed && untimed && reversed && reset);

    bool back = aclrtMemcpyAsync(zHost.data(), bytes, z, bytes, ACL_MEMCPY_DEVICE_TO_HOST, computeStream) ==
                ACL_SUCCESS;
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < n; i++) {
        wrong += zHost[i] != xHost[i] + 1.0f;
    }
    Case("kernel result", back && wrong == 0);

    std::vector<float> other(n);
    bool hostToHost = aclrtMemcpyAsync(other.data(), bytes, xHost.data(), bytes, ACL_MEMCPY_HOST_TO_HOST,
                                       copyStream) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    bool pastEnd = aclrtMemsetAsync(z, 2 * bytes, 0, bytes + 4, copyStream) == ACL_ERROR_INVALID_PARAM &&
                   RecentHas("run past the end of the destination device memory");
    bool badTimeout = aclrtSynchronizeStreamWithTimeout(copyStream, -2) == ACL_ERROR_INVALID_PARAM;
    aclrtDestroyStream(copyStream);
    bool deadStream = aclrtMemcpyAsync(x, bytes, xHost.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, copyStream) ==
                          ACL_ERROR_INVALID_RESOURCE_HANDLE &&
                      aclrtRecordEvent(done, copyStream) == ACL_ERROR_INVALID_RESOURCE_HANDLE;
    bool destroyed = aclrtDestroyEvent(start) == ACL_SUCCESS && aclrtDestroyEvent(done) == ACL_SUCCESS &&
                     aclrtDestroyEvent(ready) == ACL_SUCCESS &&
                     aclrtDestroyEvent(ready) == ACL_ERROR_INVALID_RESOURCE_HANDLE &&
                     aclrtSynchronizeEvent(done) == ACL_ERROR_INVALID_RESOURCE_HANDLE;
    Case("misuse", hostToHost && pastEnd && badTimeout && deadStream && destroyed);

    aclrtFree(x);
    aclrtFree(z);
    aclrtDestroyStream(computeStream);
    aclrtResetDevice(0);
    aclFinalize();
    return failures == 0 ? 0 : 1;
}
