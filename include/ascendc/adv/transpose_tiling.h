// Host helpers: transpose (being written).
#pragma once

#include "../host/ge_shape.h"
#include "common.h"
