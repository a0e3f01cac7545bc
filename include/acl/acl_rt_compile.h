// The aclrtc runtime compilation API on the simulator (crate ascendc-ffi, module rtc): a program is
// Ascend C device source compiled at run time by `ascendc cxx` into a shared object, with the
// headers, the product's macros and the host branch (cpu/npu) this program was built with; its
// bytes are the binary aclrtBinaryLoadFromData (acl_rt.h) loads. A kernel named by
// aclrtcAddNameExpr is found by its lowered name, a non-template kernel by its qualified name.
// Options: --npu-arch=dav-XXXX (the simulated product's architecture), -D, -U, -I, -O, -g, -W, -w,
// -std=; --cce-* options are ignored; a compile error leaves the compiler's messages in the log.
#pragma once

#include "acl_base.h"

using aclrtcProg = void*;

static const aclError ACL_ERROR_RTC_INVALID_PROG = 176000;
static const aclError ACL_ERROR_RTC_INVALID_INPUT = 176001;
static const aclError ACL_ERROR_RTC_INVALID_OPTION = 176002;
static const aclError ACL_ERROR_RTC_COMPILATION = 176003;
static const aclError ACL_ERROR_RTC_LINKING = 176004;
static const aclError ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION = 176005;
static const aclError ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION = 176006;
static const aclError ACL_ERROR_RTC_NAME_EXPR_NOT_VALID = 176007;
static const aclError ACL_ERROR_RTC_PROG_CREATION_FAILURE = 276000;
static const aclError ACL_ERROR_RTC_OUT_OF_MEMORY = 276001;
static const aclError ACL_ERROR_RTC_FAILURE = 576000;

extern "C" {
aclError aclrtcCreateProg(aclrtcProg* prog, const char* src, const char* name, int numHeaders, const char** headers,
                          const char** includeNames);
aclError aclrtcDestroyProg(aclrtcProg* prog);
aclError aclrtcAddNameExpr(aclrtcProg prog, const char* const nameExpression);
aclError aclrtcCompileProg(aclrtcProg prog, int numOptions, const char** options);
aclError aclrtcGetBinDataSize(aclrtcProg prog, size_t* binDataSizeRet);
aclError aclrtcGetBinData(aclrtcProg prog, char* binData);
aclError aclrtcGetLoweredName(aclrtcProg prog, const char* nameExpression, const char** loweredName);
aclError aclrtcGetCompileLogSize(aclrtcProg prog, size_t* logSizeRet);
aclError aclrtcGetCompileLog(aclrtcProg prog, char* log);

// Records the host branch this program was compiled in, for the programs it compiles.
void ascendc_rtc_build_mode(int cpuDebug);
}

namespace ascendc_rtc_detail {
#ifdef ASCENDC_CPU_DEBUG
inline const bool kBuildModeRecorded = (ascendc_rtc_build_mode(1), true);
#else
inline const bool kBuildModeRecorded = (ascendc_rtc_build_mode(0), true);
#endif
}  // namespace ascendc_rtc_detail
