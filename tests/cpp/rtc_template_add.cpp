// Runtime compilation: a templated add kernel compiled from a string with aclrtc, two
// instantiations named by name expressions, and a non-template kernel found by its name, launched
// with each form of parameters (pointer array, packed in device memory, packed in host memory).
// Every result is checked against the host's own computation; prints `<case>: PASS` per case.
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_rt.h"
#include "acl/acl_rt_compile.h"

static const char* kSource = R"(
#include "kernel_operator.h"

namespace Kernel {
template <typename T>
__global__ __vector__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t perBlock)
{
    AscendC::GlobalTensor<T> xGm, yGm, zGm;
    uint32_t offset = AscendC::GetBlockIdx() * perBlock;
    xGm.SetGlobalBuffer((__gm__ T*)x + offset, perBlock);
    yGm.SetGlobalBuffer((__gm__ T*)y + offset, perBlock);
    zGm.SetGlobalBuffer((__gm__ T*)z + offset, perBlock);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<T> xl = ub.Alloc<T, TILE>();
    AscendC::LocalTensor<T> yl = ub.Alloc<T, TILE>();
    AscendC::LocalTensor<T> zl = ub.Alloc<T, TILE>();
    for (uint32_t i = 0; i < perBlock; i += TILE) {
        AscendC::DataCopy(xl, xGm[i], TILE);
        AscendC::DataCopy(yl, yGm[i], TILE);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::Add(zl, xl, yl, TILE);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::DataCopy(zGm[i], zl, TILE);
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
}
}  // namespace Kernel

extern "C" __global__ __vector__ void scale(GM_ADDR z, float factor, uint32_t n)
{
    AscendC::GlobalTensor<float> zGm;
    zGm.SetGlobalBuffer((__gm__ float*)z, n);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> zl = ub.Alloc<float>(n);
    AscendC::DataCopy(zl, zGm, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(zl, zl, factor, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zGm, zl, n);
}
)";

static int failures = 0;

static void Case(const char* name, bool ok)
{
    std::printf("%s: %s\n", name, ok ? "PASS" : "FAIL");
    failures += ok ? 0 : 1;
}

#define CHECK(expr)                                                                                       \
    do {                                                                                                  \
        aclError e_ = (expr);                                                                             \
        if (e_ != ACL_SUCCESS) {                                                                          \
            std::printf("%s:%d: %s = %d (%s)\n", __FILE__, __LINE__, #expr, e_, aclGetRecentErrMsg()); \
            return 1;                                                                                     \
        }                                                                                                 \
    } while (0)

// The message of the last failed call contains `text`.
static bool RecentHas(const char* text)
{
    const char* m = aclGetRecentErrMsg();
    return m != nullptr && std::strstr(m, text) != nullptr;
}

int main()
{
    constexpr uint32_t blocks = 4;
    constexpr uint32_t perBlock = 512;
    constexpr uint32_t n = blocks * perBlock;

    // Compile: two instantiations by name expression, TILE from an option.
    aclrtcProg prog;
    CHECK(aclrtcCreateProg(&prog, kSource, "template_add.asc", 0, nullptr, nullptr));
    const char* exprFloat = "Kernel::add_custom<float>";
    const char* exprHalf = "Kernel::add_custom<half>";
    CHECK(aclrtcAddNameExpr(prog, exprFloat));
    CHECK(aclrtcAddNameExpr(prog, exprHalf));
    const char* options[] = {"--npu-arch=dav-2201", "-DTILE=256", "--cce-auto-sync=off"};
    CHECK(aclrtcCompileProg(prog, 3, options));
    size_t binSize = 0;
    CHECK(aclrtcGetBinDataSize(prog, &binSize));
    std::vector<char> bin(binSize);
    CHECK(aclrtcGetBinData(prog, bin.data()));
    const char* loweredFloat = nullptr;
    const char* loweredHalf = nullptr;
    CHECK(aclrtcGetLoweredName(prog, exprFloat, &loweredFloat));
    CHECK(aclrtcGetLoweredName(prog, exprHalf, &loweredHalf));
    size_t logSize = 0;
    CHECK(aclrtcGetCompileLogSize(prog, &logSize));
    Case("compile", binSize > 0 && logSize >= 1 && std::strcmp(loweredFloat, loweredHalf) != 0 &&
                        std::strcmp(loweredFloat, exprFloat) != 0);

    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));
    aclrtBinHandle binHandle = nullptr;
    aclrtBinaryLoadOption option;
    option.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
    option.value.magic = ACL_RT_BINARY_MAGIC_ELF_AICORE;
    aclrtBinaryLoadOptions loadOptions;
    loadOptions.options = &option;
    loadOptions.numOpt = 1;
    CHECK(aclrtBinaryLoadFromData(bin.data(), binSize, &loadOptions, &binHandle));

    // float: parameters as an array of pointers to their values.
    std::vector<float> xf(n), yf(n), zf(n);
    for (uint32_t i = 0; i < n; i++) {
        xf[i] = float(i) * 0.5f;
        yf[i] = 1000.0f - float(i);
    }
    uint8_t *x = nullptr, *y = nullptr, *z = nullptr;
    CHECK(aclrtMalloc((void**)&x, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void**)&y, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void**)&z, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(x, n * sizeof(float), xf.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(y, n * sizeof(float), yf.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
    aclrtFuncHandle addFloat = nullptr;
    CHECK(aclrtBinaryGetFunction(binHandle, loweredFloat, &addFloat));
    uint32_t per = perBlock;
    void* args[] = {&x, &y, &z, &per};
    CHECK(aclrtLaunchKernelWithArgsArray(addFloat, blocks, stream, nullptr, args));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(zf.data(), n * sizeof(float), z, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < n; i++) {
        wrong += zf[i] != xf[i] + yf[i];
    }
    Case("args array, float", wrong == 0);

    // half: the parameters packed in device memory (aclrtLaunchKernel).
    std::vector<aclFloat16> xh(n), yh(n), zh(n);
    for (uint32_t i = 0; i < n; i++) {
        xh[i] = aclFloatToFloat16(float(i % 100));
        yh[i] = aclFloatToFloat16(float(i % 7) * 0.25f);
    }
    CHECK(aclrtMemcpy(x, n * sizeof(float), xh.data(), n * sizeof(aclFloat16), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(y, n * sizeof(float), yh.data(), n * sizeof(aclFloat16), ACL_MEMCPY_HOST_TO_DEVICE));
    struct AddArgs {
        uint8_t* x;
        uint8_t* y;
        uint8_t* z;
        uint32_t perBlock;
    } packed{x, y, z, perBlock};
    void* devArgs = nullptr;
    CHECK(aclrtMalloc(&devArgs, sizeof(packed), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(devArgs, sizeof(packed), &packed, sizeof(packed), ACL_MEMCPY_HOST_TO_DEVICE));
    aclrtFuncHandle addHalf = nullptr;
    CHECK(aclrtBinaryGetFunction(binHandle, loweredHalf, &addHalf));
    CHECK(aclrtLaunchKernel(addHalf, blocks, devArgs, sizeof(packed), stream));
    CHECK(aclrtMemcpy(zh.data(), n * sizeof(aclFloat16), z, n * sizeof(aclFloat16), ACL_MEMCPY_DEVICE_TO_HOST));
    wrong = 0;
    for (uint32_t i = 0; i < n; i++) {
        aclFloat16 want = aclFloatToFloat16(aclFloat16ToFloat(xh[i]) + aclFloat16ToFloat(yh[i]));
        wrong += zh[i] != want;
    }
    Case("packed device args, half", wrong == 0);

    // A non-template kernel by its name, parameters packed in host memory.
    CHECK(aclrtMemcpy(z, n * sizeof(float), xf.data(), 256 * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
    aclrtFuncHandle scale = nullptr;
    CHECK(aclrtBinaryGetFunction(binHandle, "scale", &scale));
    struct ScaleArgs {
        uint8_t* z;
        float factor;
        uint32_t n;
    } scaleArgs{z, -3.0f, 256};
    CHECK(aclrtLaunchKernelWithHostArgs(scale, 1, stream, nullptr, &scaleArgs, sizeof(scaleArgs), nullptr, 0));
    CHECK(aclrtMemcpy(zf.data(), 256 * sizeof(float), z, 256 * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
    wrong = 0;
    for (uint32_t i = 0; i < 256; i++) {
        wrong += zf[i] != xf[i] * -3.0f;
    }
    Case("host args, kernel by name", wrong == 0);

    // Lookups and launches that cannot work.
    aclrtFuncHandle none = nullptr;
    bool byExpr = aclrtBinaryGetFunction(binHandle, exprFloat, &none) == ACL_ERROR_RT_SYMBOL_NOT_FOUND &&
                  RecentHas("is a name expression");
    bool unknown = aclrtBinaryGetFunction(binHandle, "no_such_kernel", &none) == ACL_ERROR_RT_SYMBOL_NOT_FOUND &&
                   RecentHas("has no kernel `no_such_kernel`");
    bool shortArgs = aclrtLaunchKernelWithHostArgs(scale, 1, stream, nullptr, &scaleArgs, 8, nullptr, 0) ==
                         ACL_ERROR_INVALID_PARAM &&
                     RecentHas("argsSize is 8 bytes");
    bool hostArgs = aclrtLaunchKernel(scale, 1, &scaleArgs, sizeof(scaleArgs), stream) == ACL_ERROR_INVALID_PARAM &&
                    RecentHas("is not device memory");
    bool zeroBlocks = aclrtLaunchKernelWithArgsArray(addFloat, 0, stream, nullptr, args) == ACL_ERROR_INVALID_PARAM;
    Case("lookup and launch errors", byExpr && unknown && shortArgs && hostArgs && zeroBlocks);

    CHECK(aclrtBinaryUnLoad(binHandle));
    bool unloaded = aclrtLaunchKernelWithArgsArray(addFloat, blocks, stream, nullptr, args) ==
                        ACL_ERROR_INVALID_RESOURCE_HANDLE &&
                    aclrtBinaryUnLoad(binHandle) == ACL_ERROR_INVALID_RESOURCE_HANDLE;
    CHECK(aclrtcDestroyProg(&prog));
    bool destroyed = prog == nullptr && aclrtcGetLoweredName(prog, exprFloat, &loweredFloat) == ACL_ERROR_RTC_INVALID_PROG;
    Case("unload and destroy", unloaded && destroyed);

    CHECK(aclrtFree(x));
    CHECK(aclrtFree(y));
    CHECK(aclrtFree(z));
    CHECK(aclrtFree(devArgs));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return failures == 0 ? 0 : 1;
}
