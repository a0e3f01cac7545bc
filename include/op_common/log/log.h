// The operator libraries' logging macros under their op_common spelling: see log/log.h.
#pragma once

#include "log/log.h"
