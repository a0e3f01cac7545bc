// Ops::Base helpers under their op_common spelling: see util/platform_util.h.
#pragma once

#include "util/platform_util.h"
