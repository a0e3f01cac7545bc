// The vendor's header path lib/matmul/matmul_tilingdata.h (Matmul host tiling): everything it declares comes with
// tiling/tiling_api.h here.
#pragma once

#include "tiling/tiling_api.h"
