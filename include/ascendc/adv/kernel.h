// The high-level API's kernel side, as kernel_operator.h reaches it: one header per family.
#pragma once

#include "activation.h"
#include "filter.h"
#include "index.h"
#include "math_exp_log.h"
#include "math_round.h"
#include "math_trig.h"
#include "normalization.h"
#include "pad.h"
#include "quantization.h"
#include "reduce.h"
#include "softmax.h"
