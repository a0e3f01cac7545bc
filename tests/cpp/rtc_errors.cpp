// Runtime compilation that fails, and the calls made in the wrong order: each case checks the
// documented error code and what the compile log or aclGetRecentErrMsg says. The last case
// launches a compiled kernel whose block fails (a misaligned DataCopy) and checks the launch's
// error code; the simulator prints that block's error with the program's name and line.
// Prints `<case>: PASS` per case.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_rt_compile.h"

static int failures = 0;

static void Case(const char* name, bool ok)
{
    std::printf("%s: %s\n", name, ok ? "PASS" : "FAIL");
    failures += ok ? 0 : 1;
}

static std::string Log(aclrtcProg prog)
{
    size_t size = 0;
    if (aclrtcGetCompileLogSize(prog, &size) != ACL_SUCCESS || size == 0) {
        return "<no log>";
    }
    std::vector<char> log(size);
    aclrtcGetCompileLog(prog, log.data());
    return std::string(log.data());
}

static bool Has(const std::string& text, const char* part)
{
    bool ok = text.find(part) != std::string::npos;
    if (!ok) {
        std::printf("  missing \"%s\" in:\n%s\n", part, text.c_str());
    }
    return ok;
}

static const char* kBroken = R"(#include "kernel_operator.h"
extern "C" __global__ __vector__ void broken(GM_ADDR x)
{
    undefined_call(x);
}
)";

static const char* kTemplate = R"(#include "kernel_operator.h"
template <typename T>
__global__ __vector__ void add_one(GM_ADDR x) {}
)";

static const char* kMisaligned = R"(#include "kernel_operator.h"
extern "C" __global__ __vector__ void misaligned(GM_ADDR x)
{
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> xl = ub.Alloc<float, 64>();
    AscendC::DataCopy(xl[3], xGm, 16);
}
)";

int main()
{
    aclrtcProg prog = nullptr;
    const char* arch[] = {"--npu-arch=dav-2201"};

    aclrtcCreateProg(&prog, kBroken, "broken_kernel.asc", 0, nullptr, nullptr);
    aclError e = aclrtcCompileProg(prog, 1, arch);
    std::string log = Log(prog);
    size_t size = 0;
    Case("compile error",
         e == ACL_ERROR_RTC_COMPILATION && Has(log, "broken_kernel.asc:4") && Has(log, "undefined_call") &&
             aclrtcGetBinDataSize(prog, &size) == ACL_ERROR_RTC_INVALID_PROG);
    aclrtcDestroyProg(&prog);

    aclrtcCreateProg(&prog, kTemplate, "template.asc", 0, nullptr, nullptr);
    const char* badOption[] = {"-fno-rtti"};
    const char* otherArch[] = {"--npu-arch=dav-2002"};
    bool option = aclrtcCompileProg(prog, 1, badOption) == ACL_ERROR_RTC_INVALID_OPTION &&
                  Has(Log(prog), "option `-fno-rtti` is not accepted");
    bool archMismatch = aclrtcCompileProg(prog, 1, otherArch) == ACL_ERROR_RTC_INVALID_OPTION &&
                        Has(Log(prog), "NPU architecture 2002, but the program simulates");
    bool nullOption = aclrtcCompileProg(prog, 1, nullptr) == ACL_ERROR_RTC_INVALID_INPUT;
    Case("options", option && archMismatch && nullOption);

    const char* lowered = nullptr;
    aclrtcAddNameExpr(prog, "add_one<floa>");
    e = aclrtcCompileProg(prog, 1, arch);
    log = Log(prog);
    Case("bad name expression", e == ACL_ERROR_RTC_COMPILATION && Has(log, "aclrtcAddNameExpr(add_one<floa>)"));
    aclrtcDestroyProg(&prog);

    aclrtcCreateProg(&prog, kTemplate, "template.asc", 0, nullptr, nullptr);
    aclrtcAddNameExpr(prog, "add_one<float>");
    bool early = aclrtcGetLoweredName(prog, "add_one<float>", &lowered) ==
                 ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION;
    bool compiled = aclrtcCompileProg(prog, 1, arch) == ACL_SUCCESS;
    bool unregistered = aclrtcGetLoweredName(prog, "add_one<int>", &lowered) == ACL_ERROR_RTC_NAME_EXPR_NOT_VALID;
    bool late = aclrtcAddNameExpr(prog, "add_one<int>") == ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION;
    Case("order of calls", early && compiled && unregistered && late);
    aclrtcDestroyProg(&prog);
    bool destroyed = aclrtcDestroyProg(&prog) == ACL_ERROR_RTC_INVALID_PROG &&
                     aclrtcCreateProg(nullptr, kTemplate, "x", 0, nullptr, nullptr) == ACL_ERROR_RTC_INVALID_INPUT;
    Case("handles", destroyed);

    // A kernel whose block fails.
    aclrtcCreateProg(&prog, kMisaligned, "misaligned.asc", 0, nullptr, nullptr);
    aclrtcCompileProg(prog, 1, arch);
    aclrtcGetBinDataSize(prog, &size);
    std::vector<char> bin(size);
    aclrtcGetBinData(prog, bin.data());
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtBinHandle binHandle = nullptr;
    aclrtFuncHandle func = nullptr;
    void* x = nullptr;
    aclrtMalloc(&x, 64 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    void* args[] = {&x};
    bool loaded = aclrtBinaryLoadFromData(bin.data(), size, nullptr, &binHandle) == ACL_SUCCESS &&
                  aclrtBinaryGetFunction(binHandle, "misaligned", &func) == ACL_SUCCESS;
    e = aclrtLaunchKernelWithArgsArray(func, 2, nullptr, nullptr, args);
    const char* msg = aclGetRecentErrMsg();
    Case("failing kernel", loaded && e == ACL_ERROR_RT_AICORE_EXCEPTION && msg != nullptr &&
                               Has(msg, "kernel `misaligned` failed"));
    aclrtFree(x);
    aclrtBinaryUnLoad(binHandle);
    aclrtcDestroyProg(&prog);
    aclFinalize();
    return failures == 0 ? 0 : 1;
}
