// Operator definition and registration for framework operators' host code (op_host/*.cpp):
// ops::OpDef, OP_ADD, the gert contexts and the ge types.
#pragma once

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "ascendc/host/kernel_macros_off.h"
#include "ascendc/host/context.h"
#include "ascendc/host/ge_types.h"
#include "ascendc/host/op_def.h"
#include "ascendc/host/platform_infos.h"
#include "ascendc/host/kernel_macros_on.h"
