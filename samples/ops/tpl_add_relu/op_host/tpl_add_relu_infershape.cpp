// InferShape / InferDataType of TplAddRelu: z has the shape and type of x.
#include "register/op_impl_registry.h"

namespace ops {
static ge::graphStatus InferShapeTplAddRelu(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus InferDataTypeTplAddRelu(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_INFERSHAPE(TplAddRelu).InferShape(InferShapeTplAddRelu).InferDataType(InferDataTypeTplAddRelu);
}  // namespace ops
