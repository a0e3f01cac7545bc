// A minimal runtime API for host code that includes acl/acl.h: devices and streams are no-ops,
// device memory is simulator GM (GmAlloc), copies are host copies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "../ascendc/abi.h"

using aclError = int;
using aclrtStream = void*;
using aclrtContext = void*;

constexpr aclError ACL_SUCCESS = 0;
constexpr aclError ACL_ERROR_BAD_ALLOC = 200000;

enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
};

enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY,
    ACL_MEM_MALLOC_NORMAL_ONLY,
};

inline aclError aclInit(const char*) { return ACL_SUCCESS; }
inline aclError aclFinalize() { return ACL_SUCCESS; }
inline aclError aclrtSetDevice(int32_t) { return ACL_SUCCESS; }
inline aclError aclrtResetDevice(int32_t) { return ACL_SUCCESS; }
inline aclError aclrtCreateContext(aclrtContext* context, int32_t) {
    *context = nullptr;
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyContext(aclrtContext) { return ACL_SUCCESS; }
inline aclError aclrtCreateStream(aclrtStream* stream) {
    *stream = nullptr;
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeStream(aclrtStream) { return ACL_SUCCESS; }

inline aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy) {
    *devPtr = ascendc_gm_alloc(size);
    return *devPtr != nullptr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
inline aclError aclrtFree(void* devPtr) {
    return ascendc_gm_free(devPtr, AscendC::detail::Loc("aclrtFree", 0, 0)) == 0 ? ACL_SUCCESS
                                                                                  : ACL_ERROR_BAD_ALLOC;
}
inline aclError aclrtMallocHost(void** hostPtr, size_t size) {
    *hostPtr = std::malloc(size);
    return *hostPtr != nullptr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
inline aclError aclrtFreeHost(void* hostPtr) {
    std::free(hostPtr);
    return ACL_SUCCESS;
}
inline aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind) {
    if (count > destMax) {
        return ACL_ERROR_BAD_ALLOC;
    }
    std::memcpy(dst, src, count);
    return ACL_SUCCESS;
}
