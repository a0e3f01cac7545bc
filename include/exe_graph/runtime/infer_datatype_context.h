// gert runtime types (contexts, shapes, tensors, attributes) as the operator libraries include
// them one header at a time: all are in ascendc/host/context.h.
#pragma once

#include "ascendc/host/context.h"
