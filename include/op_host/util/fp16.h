// Ops::Base::fp16_t under its op_host spelling: see util/fp16.h.
#pragma once

#include "util/fp16.h"
