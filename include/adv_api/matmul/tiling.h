// The vendor's header path adv_api/matmul/tiling.h: the MatmulConfig factories (GetNormalConfig,
// CFG_MDL, GetMMConfig, MatmulApiStaticTiling) with the host tiling library.
#pragma once

#include "ascendc/adv/matmul.h"
#include "tiling/tiling_api.h"
