// fe::PlatFormInfos and fe::LocalMemType as the operator libraries include them: see
// ascendc/host/platform_infos.h.
#pragma once

#include "ascendc/host/platform_infos.h"
#include "tiling/platform/platform_ascendc.h"
