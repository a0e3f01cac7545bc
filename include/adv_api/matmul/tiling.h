// The vendor's header path adv_api/matmul/tiling.h. On the device it holds the kernel-side
// MatmulConfig helpers (GetNormalConfig, CFG_MDL, …), which come with the kernel-side Matmul (not
// modelled yet); for now it forwards to the host tiling, as its other matmul headers do.
#pragma once

#include "tiling/tiling_api.h"
