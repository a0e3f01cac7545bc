// High-level API: transpose (being written).
#pragma once

#include "common.h"
