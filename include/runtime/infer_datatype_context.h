// gert runtime types under their short spelling: see exe_graph/runtime/infer_datatype_context.h.
#pragma once

#include "exe_graph/runtime/infer_datatype_context.h"
