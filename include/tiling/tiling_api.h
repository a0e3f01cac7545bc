// The host tiling API header operators include: the platform and tiling-struct definitions and
// the high-level APIs' host helpers (ascendc/adv/tiling.h).
#pragma once

#include "register/tilingdata_base.h"
#include "securec.h"  // memcpy_s and the other bounded copies host code calls with tiling structs
#include "tiling/platform/platform_ascendc.h"
#include "ascendc/adv/tiling.h"
