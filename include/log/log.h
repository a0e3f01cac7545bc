// The operator libraries' logging and checking macros (OP_LOGE / OP_LOGW / OP_LOGI / OP_LOGD,
// OP_CHECK_IF, OP_CHECK_NULL_WITH_CONTEXT, OP_LOGE_FOR_INVALID_*): see ascendc/host/op_log.h.
// Like the vendor's header it also brings the gert contexts, ge types, Ops::Base::ToString,
// securec.h and common std headers.
#pragma once

#include <cinttypes>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ascendc/host/context.h"
#include "ascendc/host/ge_types.h"
#include "ascendc/host/op_log.h"
#include "securec.h"
#include "util/shape_util.h"
