// The vendor's header path adv_api/matmul/constant_tiling.h: the kernel-side Matmul declarations.
#pragma once

#include "ascendc/adv/matmul.h"
