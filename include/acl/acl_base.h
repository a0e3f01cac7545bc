// Base definitions of the acl runtime on the simulator (crate ascendc-ffi, module acl): the handle
// types, aclError with the codes the simulator returns, aclFloat16, and the message of the most
// recent failed call.
#pragma once

#include <cstddef>
#include <cstdint>

using aclError = int;
using aclrtStream = void*;
using aclrtContext = void*;
using aclrtEvent = void*;
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
// Runtime (rt) codes.
static const aclError ACL_ERROR_RT_PARAM_INVALID = 107000;
static const aclError ACL_ERROR_RT_CONTEXT_NULL = 107002;
static const aclError ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID = 107006;
static const aclError ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL = 107007;
static const aclError ACL_ERROR_RT_SYMBOL_NOT_FOUND = 107042;
static const aclError ACL_ERROR_RT_FEATURE_NOT_SUPPORT = 207000;
static const aclError ACL_ERROR_RT_AICORE_EXCEPTION = 507015;

extern "C" {
// The message of this thread's most recent failed call, or null.
const char* aclGetRecentErrMsg();
// Round to nearest even; overflow gives infinity.
aclFloat16 aclFloatToFloat16(float value);
float aclFloat16ToFloat(aclFloat16 value);
}
