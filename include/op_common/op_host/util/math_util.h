// Ops::Base helpers under their op_common spelling: see util/math_util.h.
#pragma once

#include "util/math_util.h"
