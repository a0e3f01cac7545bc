// Ops::Base helpers under their op_common spelling: see util/const_util.h.
#pragma once

#include "util/const_util.h"
