// gert runtime types under their short spelling: see exe_graph/runtime/tensor_data.h.
#pragma once

#include "exe_graph/runtime/tensor_data.h"
