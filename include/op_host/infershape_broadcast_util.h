// Ops::Base shape inference under its op_host spelling: see infershape_broadcast_util.h.
#pragma once

#include "../infershape_broadcast_util.h"
