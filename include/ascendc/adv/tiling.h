// The high-level API's host helpers, as tiling/tiling_api.h reaches them: AscendC::TensorShape
// and one header per family.
#pragma once

#include "../host/ge_shape.h"

namespace AscendC {
// The shape type of the high-level host helpers (an alias of ge::Shape).
using TensorShape = ge::Shape;
// The data-type enumeration of the high-level host helpers (an alias of ge::DataType).
using TensorDataType = ge::DataType;
}  // namespace AscendC

#include "activation_tiling.h"
#include "batch_group_norm_tiling.h"
#include "broadcast_tiling.h"
#include "confusion_transpose_tiling.h"
#include "filter_tiling.h"
#include "index_tiling.h"
#include "layernorm_grad_tiling.h"
#include "layernorm_tiling.h"
#include "math_exp_log_tiling.h"
#include "math_gamma_tiling.h"
#include "math_round_tiling.h"
#include "math_trig_tiling.h"
#include "matmul_tiling.h"
#include "norm_stats_tiling.h"
#include "normalization_tiling.h"
#include "pad_tiling.h"
#include "quantization_tiling.h"
#include "reduce_tiling.h"
#include "softmax_flash_v1_tiling.h"
#include "softmax_flash_v3_tiling.h"
#include "softmax_tiling.h"
#include "topk_tiling.h"
#include "trans_data_tiling.h"
