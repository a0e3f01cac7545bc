// Ops::Base helpers under their op_common spelling: see util/shape_util.h.
#pragma once

#include "util/shape_util.h"
