// The vendor's header path lib/transpose/transdata_tiling.h (host helpers of the high-level API): everything
// it declares comes with tiling/tiling_api.h here.
#pragma once

#include "tiling/tiling_api.h"
