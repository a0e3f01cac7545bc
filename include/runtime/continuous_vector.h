// gert runtime types under their short spelling: see exe_graph/runtime/continuous_vector.h.
#pragma once

#include "exe_graph/runtime/continuous_vector.h"
