// Shape inference of element-wise operators (Ops::Base::InferShape4Elewise): every output
// takes the shape of input 0. Usable directly: IMPL_OP_INFERSHAPE(T).InferShape(Ops::Base::InferShape4Elewise).
#pragma once

#include "ascendc/host/context.h"
#include "ascendc/host/op_log.h"
#include "util/shape_util.h"

namespace Ops {
namespace Base {

inline ge::graphStatus InferShape4Elewise(gert::InferShapeContext* context) {
    const gert::Shape* in = context->GetInputShape(0);
    if (in == nullptr) {
        OP_LOGE(context, "InferShape4Elewise: input 0 has no shape");
        return ge::GRAPH_FAILED;
    }
    for (size_t i = 0; i < context->GetComputeNodeOutputNum(); ++i) {
        *context->GetOutputShape(i) = *in;
    }
    return ge::GRAPH_SUCCESS;
}

}  // namespace Base
}  // namespace Ops
