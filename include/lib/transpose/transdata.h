// The vendor's header path lib/transpose/transdata.h (kernel side of the high-level API): everything
// it declares comes with kernel_operator.h here.
#pragma once

#include "kernel_operator.h"
