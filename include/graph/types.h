// ge::DataType, ge::Format, ge::graphStatus for framework operators' host code.
#pragma once

#include "ascendc/host/ge_types.h"
