// Host helpers: topk (being written).
#pragma once

#include "../host/ge_shape.h"
#include "common.h"
