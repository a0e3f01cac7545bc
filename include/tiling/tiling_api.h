// The host tiling API header operators include: the platform and tiling-struct definitions.
// The high-level APIs' tiling helpers (matmul, softmax, …) are not provided.
#pragma once

#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
