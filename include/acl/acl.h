// The acl runtime host programs use, on the simulator (crate ascendc-ffi): initialisation here, the
// runtime calls in acl_rt.h, model run instances (ACLGraph capture) in acl_mdl.h, the base types in
// acl_base.h. Every call returns an aclError; a failed
// call records a message for aclGetRecentErrMsg and prints it.
#pragma once

#include "acl_mdl.h"
#include "acl_rt.h"

extern "C" {
aclError aclInit(const char* configPath);
aclError aclFinalize();
}
