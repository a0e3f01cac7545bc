// Kernel-side integer helpers of the operator libraries' base layer (Ops::Base::CeilDiv,
// FloorDiv, CeilAlign, FloorAlign, GetTail): the same constexpr functions as the host's.
#pragma once

#include "util/math_util.h"
