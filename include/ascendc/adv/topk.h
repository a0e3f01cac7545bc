// High-level API: topk (being written).
#pragma once

#include "common.h"
