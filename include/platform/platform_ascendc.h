// platform_ascendc::PlatformAscendC under the spelling the operator libraries include: see
// tiling/platform/platform_ascendc.h.
#pragma once

#include "tiling/platform/platform_ascendc.h"
