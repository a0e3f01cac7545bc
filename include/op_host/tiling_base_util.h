// The base layer's tiling helpers in one include, as op_host tiling sources use it: logging
// (log/log.h), Ops::Base math / platform / shape helpers and TilingBaseClass, ge::TypeUtils,
// PlatformAscendC and the IMPL_OP_OPTILING registration.
#pragma once

#include "graph/utils/type_utils.h"
#include "op_host/tiling_base_class.h"
#include "register/op_impl_registry.h"
#include "log/log.h"
#include "tiling/platform/platform_ascendc.h"
#include "util/math_util.h"
#include "util/platform_util.h"
#include "util/shape_util.h"
