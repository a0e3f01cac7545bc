// High-level API: transform (being written).
#pragma once

#include "common.h"
