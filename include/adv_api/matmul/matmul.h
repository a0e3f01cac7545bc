// The vendor's header path adv_api/matmul/matmul.h: the kernel-side Matmul declarations.
#pragma once

#include "ascendc/adv/matmul.h"
