// The vendor's header path adv_api/transpose/confusion_transpose.h (kernel side of the high-level API): everything
// it declares comes with kernel_operator.h here.
#pragma once

#include "kernel_operator.h"
