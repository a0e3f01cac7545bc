// gert runtime types under their short spelling: see exe_graph/runtime/runtime_attrs.h.
#pragma once

#include "exe_graph/runtime/runtime_attrs.h"
