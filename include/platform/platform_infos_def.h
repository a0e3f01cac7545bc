// fe::PlatFormInfos (core count, GetLocalMemSize) as the operator libraries include it: see
// ascendc/host/platform_infos.h.
#pragma once

#include "ascendc/host/platform_infos.h"
