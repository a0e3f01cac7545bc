// Ops::Base shape inference under its op_host spelling: see infershape_elewise_util.h.
#pragma once

#include "../infershape_elewise_util.h"
