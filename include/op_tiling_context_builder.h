// The context builder kernel unit tests include by its file name: see
// base/context_builder/op_tiling_context_builder.h.
#pragma once

#include "base/context_builder/op_tiling_context_builder.h"
