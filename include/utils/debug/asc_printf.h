// The vendor's standalone printf header: kernels that print include it alone.
#pragma once

#include "kernel_operator.h"
