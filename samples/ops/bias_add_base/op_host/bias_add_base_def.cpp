// The operator definition of BiasAddBase: y = x * alpha + bias, bias broadcast over the rows of
// x (bias has x's last dimension, or shape [1, cols]); with attribute relu, max(y, 0). Written in
// the operator libraries' layout (a _def, an _infershape and a _tiling source) on the
// base-layer headers (log/log.h, util/*.h, register/op_impl_registry.h).
#include "register/op_def_registry.h"

namespace ops {
class BiasAddBase : public OpDef {
public:
    explicit BiasAddBase(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND})
            .AutoContiguous();
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND})
            .AutoContiguous();
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND})
            .AutoContiguous();
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("relu").AttrType(OPTIONAL).Bool(false);
        // Cores to use at most (0: all).
        this->Attr("max_cores").AttrType(OPTIONAL).Int(0);

        OpAICoreConfig aicoreConfig;
        aicoreConfig.DynamicCompileStaticFlag(true)
            .DynamicFormatFlag(false)
            .DynamicRankSupportFlag(true)
            .DynamicShapeSupportFlag(true)
            .NeedCheckSupportFlag(false)
            .PrecisionReduceFlag(true)
            .ExtendCfgInfo("opFile.value", "bias_add_base");
        this->AICore().AddConfig("ascend910b", aicoreConfig);
        this->AICore().AddConfig("ascend910_93", aicoreConfig);
        this->AICore().AddConfig("ascend310p", aicoreConfig);
    }
};
OP_ADD(BiasAddBase);
}  // namespace ops
