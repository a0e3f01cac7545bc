// The vendor's header path adv_api/matmul/tiling.h: the MatmulConfig factories (GetNormalConfig,
// CFG_MDL, GetMMConfig, MatmulApiStaticTiling) with the host tiling library.
#pragma once

#include "ascendc/adv/matmul.h"
// The host tiling library, without a kernel build's DT_* / FORMAT_* macros.
#include "ascendc/host/kernel_macros_off.h"
#include "tiling/tiling_api.h"
#include "ascendc/host/kernel_macros_on.h"
