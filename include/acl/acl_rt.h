// The acl runtime calls on the simulator (crate ascendc-ffi, modules acl, acl_event, acl_kernel):
// one device (0), contexts and streams as handles, device memory from aclrtMalloc as simulator GM
// with exact bounds (kernels receive it as GM_ADDR), host memory from aclrtMallocHost, events, and
// the binaries of aclrtcGetBinData with their kernels.
//
// Work on a stream runs when it is issued: a launch returns when every block has finished, the
// ...Async copies and fills are done when they return, an event is complete as soon as it is
// recorded. The synchronisation calls therefore have nothing to wait for; they check their handles.
#pragma once

#include "acl_base.h"

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

// Event flags (a combination): ACL_EVENT_TIME_LINE events can be timed, ACL_EVENT_SYNC ones are
// for waits between streams; aclrtCreateEvent's events do both.
#define ACL_EVENT_SYNC 0x00000001U
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002U
#define ACL_EVENT_TIME_LINE 0x00000008U
#define ACL_EVENT_DEVICE_USE_ONLY 0x00000010U
#define ACL_EVENT_EXTERNAL 0x00000020U
#define ACL_EVENT_IPC 0x00000040U

enum aclrtEventStatus {
    ACL_EVENT_STATUS_COMPLETE = 0,
    ACL_EVENT_STATUS_NOT_READY = 1,
    ACL_EVENT_STATUS_RESERVED = 2,
};

enum aclrtEventRecordedStatus {
    ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
    ACL_EVENT_RECORDED_STATUS_COMPLETE = 1,
};

// A loaded binary and one of its kernels.
using aclrtBinHandle = void*;
using aclrtFuncHandle = void*;

// What a binary holds (ACL_RT_BINARY_LOAD_OPT_MAGIC); the simulator takes the AI Core ones.
#define ACL_RT_BINARY_MAGIC_ELF_AICORE 0x43554245U
#define ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE 0x41415246U
#define ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE 0x41494343U

enum aclrtBinaryLoadOptionType {
    ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
    ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC = 2,  // the former name of ACL_RT_BINARY_LOAD_OPT_MAGIC
    ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
    ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3,  // AI CPU kernels: refused
};

union aclrtBinaryLoadOptionValue {
    uint32_t isLazyLoad;
    uint32_t magic;
    int32_t cpuKernelMode;
    uint32_t rsv[4];
};

struct aclrtBinaryLoadOption {
    aclrtBinaryLoadOptionType type;
    aclrtBinaryLoadOptionValue value;
};

struct aclrtBinaryLoadOptions {
    aclrtBinaryLoadOption* options;
    size_t numOpt;
};

enum aclrtEngineType {
    ACL_RT_ENGINE_TYPE_AIC = 0,
    ACL_RT_ENGINE_TYPE_AIV = 1,
};

// Launch attributes: a non-zero DYN_UBUF_SIZE (Ascend 950) or BLOCKDIM_OFFSET is refused, the
// others change nothing on the simulator (the kernel's qualifier or SetKernelMode picks its cores).
enum aclrtLaunchKernelAttrId {
    ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1,
    ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE = 2,  // the former name of DYN_UBUF_SIZE
    ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE = 2,
    ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE = 3,
    ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET = 4,
    ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH = 5,
    ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP = 6,
    ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT = 7,
    ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US = 8,
    ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING = 9,
};

struct aclrtTimeoutUs {
    uint32_t timeoutLow;
    uint32_t timeoutHigh;
};

union aclrtLaunchKernelAttrValue {
    uint8_t schemMode;
    uint32_t localMemorySize;
    uint32_t dynUBufSize;
    aclrtEngineType engineType;
    uint32_t blockDimOffset;
    uint8_t isBlockTaskPrefetch;
    uint8_t isDataDump;
    uint16_t timeout;
    aclrtTimeoutUs timeoutUs;
    uint8_t enableProfiling;
    uint32_t rsv[4];
};

struct aclrtLaunchKernelAttr {
    aclrtLaunchKernelAttrId id;
    aclrtLaunchKernelAttrValue value;
};

struct aclrtLaunchKernelCfg {
    aclrtLaunchKernelAttr* attrs;
    size_t numAttrs;
};

// Placeholders of aclrtLaunchKernelWithHostArgs: refused (placeHolderNum must be 0).
struct aclrtPlaceHolderInfo {
    uint32_t addrOffset;
    uint32_t dataOffset;
};

extern "C" {
// Devices: one (0). aclrtSetDevice / aclrtCreateContext make it current on the calling thread.
aclError aclrtGetDeviceCount(uint32_t* count);
aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtGetDevice(int32_t* deviceId);
aclError aclrtSynchronizeDevice();
aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);
aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId);
aclError aclrtDestroyContext(aclrtContext context);

// Streams (null is the default stream). Timeouts: -1 (no limit), 0 or milliseconds.
aclError aclrtCreateStream(aclrtStream* stream);
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);
aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);

// `size` bytes of zero-filled simulator GM.
aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtFree(void* devPtr);
// `size` bytes of zero-filled host memory, 64-byte aligned.
aclError aclrtMallocHost(void** hostPtr, size_t size);
aclError aclrtFreeHost(void* hostPtr);
// Copies `count` bytes (at most `destMax`); device pointers are checked against their allocation
// and against the sides `kind` names. The Async form is done when it returns (host to host is
// refused, as on the device).
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind);
aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream);
// Sets `count` bytes (at most `maxCount`) to the low byte of `value`.
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count);
aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream);

// Events: complete once recorded; the elapsed time is the host time between the two records
// (the simulated kernels launched between them included).
aclError aclrtCreateEvent(aclrtEvent* event);
aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag);
aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag);
aclError aclrtDestroyEvent(aclrtEvent event);
aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream);
aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status);
aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status);
aclError aclrtSynchronizeEvent(aclrtEvent event);
aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);
aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent);

// Binaries from aclrtcGetBinData (acl_rt_compile.h) and their kernels: a name expression's kernel
// by its lowered name (aclrtcGetLoweredName), a non-template kernel by its qualified name.
aclError aclrtBinaryLoadFromData(const void* data, size_t length, const aclrtBinaryLoadOptions* options,
                                 aclrtBinHandle* binHandle);
aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName,
                                aclrtFuncHandle* funcHandle);
aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);

// Launches, synchronous (ACL_ERROR_RT_AICORE_EXCEPTION when a block failed; its errors are
// printed). WithArgsArray: args[i] points to parameter i's value. The others take the parameters
// packed as a C struct of them lays them out (each at an offset aligned for its type): argsData in
// device memory (aclrtLaunchKernel, V2), hostArgs in host memory (WithHostArgs).
aclError aclrtLaunchKernelWithArgsArray(void* func, uint32_t numBlocks, aclrtStream stream,
                                        aclrtLaunchKernelCfg* cfg, void** args);
aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData, size_t argsSize,
                           aclrtStream stream);
aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                             size_t argsSize, aclrtLaunchKernelCfg* cfg, aclrtStream stream);
aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                       aclrtLaunchKernelCfg* cfg, void* hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo* placeHolderArray, size_t placeHolderNum);

// The launches with their call site, which the macros below pass (so a failed launch names the
// line that issued it).
aclError ascendc_launch_kernel_with_args_array_at(const char* file, uint32_t line, void* func, uint32_t numBlocks,
                                                  aclrtStream stream, aclrtLaunchKernelCfg* cfg, void** args);
aclError ascendc_launch_kernel_v2_at(const char* file, uint32_t line, aclrtFuncHandle funcHandle,
                                     uint32_t numBlocks, const void* argsData, size_t argsSize,
                                     aclrtLaunchKernelCfg* cfg, aclrtStream stream);
aclError ascendc_launch_kernel_with_host_args_at(const char* file, uint32_t line, aclrtFuncHandle funcHandle,
                                                 uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                                 void* hostArgs, size_t argsSize,
                                                 aclrtPlaceHolderInfo* placeHolderArray, size_t placeHolderNum);
}

#define aclrtLaunchKernelWithArgsArray(func, numBlocks, stream, cfg, args) \
    ascendc_launch_kernel_with_args_array_at(__FILE__, __LINE__, func, numBlocks, stream, cfg, args)
#define aclrtLaunchKernel(funcHandle, numBlocks, argsData, argsSize, stream) \
    ascendc_launch_kernel_v2_at(__FILE__, __LINE__, funcHandle, numBlocks, argsData, argsSize, nullptr, stream)
#define aclrtLaunchKernelV2(funcHandle, numBlocks, argsData, argsSize, cfg, stream) \
    ascendc_launch_kernel_v2_at(__FILE__, __LINE__, funcHandle, numBlocks, argsData, argsSize, cfg, stream)
#define aclrtLaunchKernelWithHostArgs(funcHandle, numBlocks, stream, cfg, hostArgs, argsSize, placeHolders, num) \
    ascendc_launch_kernel_with_host_args_at(__FILE__, __LINE__, funcHandle, numBlocks, stream, cfg, hostArgs,   \
                                            argsSize, placeHolders, num)
