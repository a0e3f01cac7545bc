// The acl runtime subset host programs use, on the simulator (crate ascendc-ffi, module acl):
// one device (0), contexts and streams as handles, device memory from aclrtMalloc as simulator
// GM with exact bounds (kernels receive it as GM_ADDR), host memory from aclrtMallocHost.
// Launches run when issued, so aclrtSynchronizeStream has nothing to wait for. Every call
// returns an aclError; a failed call records a message for aclGetRecentErrMsg and prints it.
#pragma once

#include <cstddef>
#include <cstdint>

using aclError = int;
using aclrtStream = void*;
using aclrtContext = void*;
// fp16 bits; convert with aclFloatToFloat16 / aclFloat16ToFloat.
using aclFloat16 = uint16_t;

// The documented error codes the simulator returns.
static const aclError ACL_SUCCESS = 0;
static const aclError ACL_ERROR_NONE = 0;
static const aclError ACL_ERROR_INVALID_PARAM = 100000;
static const aclError ACL_ERROR_UNINITIALIZE = 100001;
static const aclError ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const aclError ACL_ERROR_REPEAT_FINALIZE = 100037;
static const aclError ACL_ERROR_BAD_ALLOC = 200000;
static const aclError ACL_ERROR_INVALID_DEVICE = 200002;
static const aclError ACL_ERROR_INVALID_RESOURCE_HANDLE = 200005;

enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE = 1,
    ACL_MEMCPY_DEVICE_TO_HOST = 2,
    ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
    ACL_MEMCPY_DEFAULT = 4,
    ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5,
    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6,
    ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7,
};

enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY = 1,
    ACL_MEM_MALLOC_NORMAL_ONLY = 2,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
};

extern "C" {
aclError aclInit(const char* configPath);
aclError aclFinalize();
aclError aclrtGetDeviceCount(uint32_t* count);
aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId);
aclError aclrtDestroyContext(aclrtContext context);
aclError aclrtCreateStream(aclrtStream* stream);
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);
// `size` bytes of zero-filled simulator GM.
aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtFree(void* devPtr);
// `size` bytes of zero-filled host memory, 64-byte aligned.
aclError aclrtMallocHost(void** hostPtr, size_t size);
aclError aclrtFreeHost(void* hostPtr);
// Copies `count` bytes (at most `destMax`); device pointers are checked against their allocation
// and against the sides `kind` names.
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind);
// Sets `count` bytes (at most `maxCount`) to the low byte of `value`.
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count);
// The message of this thread's most recent failed call, or null.
const char* aclGetRecentErrMsg();
// Round to nearest even; overflow gives infinity.
aclFloat16 aclFloatToFloat16(float value);
float aclFloat16ToFloat(aclFloat16 value);
}
