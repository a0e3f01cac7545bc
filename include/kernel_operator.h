// The Ascend C kernel API for the ascendc simulator: kernels written for the device compile
// unchanged with a host C++ compiler (C++17 or newer) and run on simulated AI cores. Every call
// forwards to the simulator, which validates it and reports errors with this file's caller's
// source location.
#pragma once

#include "ascendc/types.h"
#include "ascendc/tensor.h"
#include "ascendc/tpipe.h"
#include "ascendc/data_copy.h"
#include "ascendc/data_copy_pad.h"
#include "ascendc/vec.h"
#include "ascendc/vec_select.h"
#include "ascendc/reduce.h"
#include "ascendc/sync.h"
#include "ascendc/multicore.h"
#include "ascendc/tiling.h"
#include "ascendc/print.h"
#include "ascendc/compat.h"
#include "ascendc/debug.h"
#include "ascendc/workspace.h"
#include "ascendc/local_alloc.h"
#include "ascendc/cube.h"
#include "ascendc/gather.h"
#include "ascendc/fill.h"
#include "ascendc/buf_pool.h"
#include "ascendc/scalar_compute.h"
#include "ascendc/vec_copy.h"
#include "ascendc/sort.h"
