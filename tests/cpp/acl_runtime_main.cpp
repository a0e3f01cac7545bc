// The acl runtime on the simulator: add_half (seed000_add.cpp) on device memory from aclrtMalloc,
// inputs staged in aclrtMallocHost memory as aclFloat16, and the error codes and messages of
// misuse. Prints one line per check and PASS when all hold.
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void add_half(GM_ADDR a, GM_ADDR b, GM_ADDR out);

static int failures = 0;

static void Expect(const char* what, aclError got, aclError want, const char* message = nullptr)
{
    const char* recent = aclGetRecentErrMsg();
    bool ok = got == want;
    if (message != nullptr) {
        ok = ok && recent != nullptr && std::strstr(recent, message) != nullptr;
    }
    std::printf("%s: %d%s%s\n", what, got, recent != nullptr ? " | " : "", recent != nullptr ? recent : "");
    if (!ok) {
        std::printf("  expected %d%s%s\n", want, message != nullptr ? " with message containing " : "",
                    message != nullptr ? message : "");
        failures++;
    }
}

int main()
{
    constexpr size_t n = 512;
    constexpr size_t bytes = n * sizeof(aclFloat16);
    Expect("aclInit", aclInit(nullptr), ACL_SUCCESS);
    Expect("aclInit again", aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE, "already initialized");
    uint32_t count = 0;
    Expect("aclrtGetDeviceCount", aclrtGetDeviceCount(&count), ACL_SUCCESS);
    std::printf("device count %u\n", count);
    Expect("aclrtSetDevice(3)", aclrtSetDevice(3), ACL_ERROR_INVALID_DEVICE, "device id 3 does not exist");
    Expect("aclrtSetDevice(0)", aclrtSetDevice(0), ACL_SUCCESS);
    aclrtContext context = nullptr;
    aclrtStream stream = nullptr;
    Expect("aclrtCreateContext", aclrtCreateContext(&context, 0), ACL_SUCCESS);
    Expect("aclrtCreateStream", aclrtCreateStream(&stream), ACL_SUCCESS);

    aclFloat16 *xHost = nullptr, *zHost = nullptr;
    Expect("aclrtMallocHost", aclrtMallocHost((void**)&xHost, bytes), ACL_SUCCESS);
    Expect("aclrtMallocHost", aclrtMallocHost((void**)&zHost, bytes), ACL_SUCCESS);
    for (size_t i = 0; i < n; i++) {
        xHost[i] = aclFloatToFloat16(float(i + 1));
    }
    uint8_t *a = nullptr, *b = nullptr, *out = nullptr;
    Expect("aclrtMalloc", aclrtMalloc((void**)&a, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    Expect("aclrtMalloc", aclrtMalloc((void**)&b, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    Expect("aclrtMalloc", aclrtMalloc((void**)&out, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    Expect("aclrtMemcpy H2D", aclrtMemcpy(a, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    Expect("aclrtMemcpy D2D", aclrtMemcpy(b, bytes, a, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    Expect("aclrtMemset", aclrtMemset(out, bytes, 0xff, bytes), ACL_SUCCESS);
    ICPU_RUN_KF(add_half, 1, a, b, out);
    Expect("aclrtSynchronizeStream", aclrtSynchronizeStream(stream), ACL_SUCCESS);
    Expect("aclrtMemcpy D2H", aclrtMemcpy(zHost, bytes, out, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    int wrong = 0;
    for (size_t i = 0; i < n; i++) {
        wrong += aclFloat16ToFloat(zHost[i]) != 2.0f * float(i + 1);
    }
    std::printf("z = [%g %g ... %g], %d wrong\n", aclFloat16ToFloat(zHost[0]), aclFloat16ToFloat(zHost[1]),
                aclFloat16ToFloat(zHost[n - 1]), wrong);
    failures += wrong != 0;
    std::printf("fp16 of 1+2^-11 = 0x%04x, of 70000 = 0x%04x\n", aclFloatToFloat16(1.0f + 1.0f / 2048.0f),
                aclFloatToFloat16(70000.0f));

    // Misuse: an error code and a message, never a crash.
    Expect("count above destMax", aclrtMemcpy(zHost, 16, out, 32, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
           "count 32 bytes exceeds destMax 16 bytes");
    Expect("copy past the device allocation", aclrtMemcpy(zHost, bytes, out + 1000, 100, ACL_MEMCPY_DEVICE_TO_HOST),
           ACL_ERROR_INVALID_PARAM, "run past the end of the source device memory");
    Expect("wrong kind", aclrtMemcpy(out, bytes, xHost, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
           "but the source");
    Expect("unknown kind", aclrtMemcpy(out, bytes, a, bytes, (aclrtMemcpyKind)9), ACL_ERROR_INVALID_PARAM,
           "kind 9 is not an aclrtMemcpyKind");
    int local = 0;
    Expect("aclrtFree of a stack pointer", aclrtFree(&local), ACL_ERROR_INVALID_PARAM,
           "is not the start of a live aclrtMalloc allocation");
    Expect("aclrtFree", aclrtFree(a), ACL_SUCCESS);
    Expect("aclrtFree twice", aclrtFree(a), ACL_ERROR_INVALID_PARAM, "freed twice");
    Expect("aclrtFree", aclrtFree(b), ACL_SUCCESS);
    Expect("aclrtFree", aclrtFree(out), ACL_SUCCESS);
    Expect("aclrtFreeHost", aclrtFreeHost(xHost), ACL_SUCCESS);
    Expect("aclrtFreeHost", aclrtFreeHost(zHost), ACL_SUCCESS);
    Expect("aclrtFreeHost twice", aclrtFreeHost(zHost), ACL_ERROR_INVALID_PARAM, "aclrtMallocHost");
    Expect("aclrtDestroyStream", aclrtDestroyStream(stream), ACL_SUCCESS);
    Expect("aclrtDestroyStream twice", aclrtDestroyStream(stream), ACL_ERROR_INVALID_RESOURCE_HANDLE,
           "is not a live stream");
    Expect("aclrtDestroyContext", aclrtDestroyContext(context), ACL_SUCCESS);
    Expect("aclrtResetDevice", aclrtResetDevice(0), ACL_SUCCESS);
    Expect("aclFinalize", aclFinalize(), ACL_SUCCESS);
    Expect("aclFinalize again", aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "already finalized");
    std::printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    return failures == 0 ? 0 : 1;
}
