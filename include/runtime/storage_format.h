// gert runtime types under their short spelling: see exe_graph/runtime/storage_format.h.
#pragma once

#include "exe_graph/runtime/storage_format.h"
