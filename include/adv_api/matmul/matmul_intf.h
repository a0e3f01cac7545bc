// The vendor's header path adv_api/matmul/matmul_intf.h: see lib/matmul_intf.h.
#pragma once

#include "lib/matmul_intf.h"
