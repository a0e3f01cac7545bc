// gert runtime types under their short spelling: see exe_graph/runtime/tiling_context.h.
#pragma once

#include "exe_graph/runtime/tiling_context.h"
