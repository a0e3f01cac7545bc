// Ops::Base shape helpers under their op_host spelling: see util/shape_util.h.
#pragma once

#include "util/shape_util.h"
