// Shape and type inference of BiasAddBase: y is the broadcast of x and bias, of x's type.
#include "register/op_impl_registry.h"
#include "infershape_broadcast_util.h"
#include "log/log.h"

using namespace ge;

namespace ops {
static ge::graphStatus InferShapeBiasAddBase(gert::InferShapeContext* context)
{
    OP_LOGD(context->GetNodeName(), "Begin to do InferShapeBiasAddBase");
    return Ops::Base::InferShape4Broadcast(context);
}

static ge::graphStatus InferDataTypeBiasAddBase(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}

IMPL_OP_INFERSHAPE(BiasAddBase).InferShape(InferShapeBiasAddBase).InferDataType(InferDataTypeBiasAddBase);
}  // namespace ops
