// Ops::Base::bfloat16 under its op_host spelling: see util/bfloat16.h.
#pragma once

#include "util/bfloat16.h"
