// Model run instances (ACLGraph) on the simulator (crate ascendc-ffi, module acl_graph): work
// issued on a stream between aclmdlRICaptureBegin and aclmdlRICaptureEnd (async copies and
// fills, <<<>>> launches, event records and waits, on the stream and on streams that wait on its
// events) is recorded into an aclmdlRI and runs each time the instance is executed.
#pragma once

#include "acl_base.h"

using aclmdlRI = void*;

enum aclmdlRICaptureMode {
    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
    ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL = 1,
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED = 2,
};

enum aclmdlRICaptureStatus {
    ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,
    ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE = 1,
    ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED = 2,
};

extern "C" {
aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode);
aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI);
aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status, aclmdlRI* modelRI);
aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode);
// Runs the captured work; done when it returns, as every launch on the simulator.
aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream);
aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout);
aclError aclmdlRIDestroy(aclmdlRI modelRI);
// The captured tasks (order, stream, kind, size, kernel) as JSON in `path`.
aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t flags);
}
