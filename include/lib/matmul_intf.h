// The vendor's header path lib/matmul_intf.h: the kernel-side Matmul (ascendc/adv/matmul.h) with
// the tiling structs and the host tiling library. Without ASCENDC_CUBE_ONLY, kernels defined
// after it without an execution-space qualifier run as 1:2 mixed kernels, as the device's compiler
// makes a kernel that calls Matmul on vector cores.
#pragma once

#include <iostream>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "ascendc/adv/matmul.h"
// The host tiling library, without a kernel build's DT_* / FORMAT_* macros.
#include "ascendc/host/kernel_macros_off.h"
#include "tiling/tiling_api.h"
#include "ascendc/host/kernel_macros_on.h"

// Called unqualified by Matmul kernels (REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), …)).
using AscendC::GetSysWorkSpacePtr;

#ifndef ASCENDC_CUBE_ONLY
#undef ASCENDC_KERNEL_DEFAULT_MIX
#define ASCENDC_KERNEL_DEFAULT_MIX 1
#endif
