// The vendor's header path lib/transpose/confusion_transpose_tilingdata.h (host helpers of the high-level API): everything
// it declares comes with tiling/tiling_api.h here.
#pragma once

#include "tiling/tiling_api.h"
