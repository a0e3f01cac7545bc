// Operator definitions (host side): ops::OpDef with its Input / Output / Attr builders, the AI
// Core part (SetTiling, AddConfig), the InferShape / InferDataType hooks and OP_ADD, which
// registers the definition so that `ascendc op run` finds it.
#pragma once

#include <cctype>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "context.h"
#include "fail.h"
#include "ge_types.h"

namespace gert {
// Signatures of the host functions an operator registers.
struct OpImplRegisterV2 {
    using TilingKernelFunc = ge::graphStatus (*)(TilingContext*);
    using InferShapeKernelFunc = ge::graphStatus (*)(InferShapeContext*);
    using InferShapeRangeKernelFunc = ge::graphStatus (*)(InferShapeRangeContext*);
    using InferDataTypeKernelFunc = ge::graphStatus (*)(InferDataTypeContext*);
    using TilingParseFunc = ge::graphStatus (*)(TilingParseContext*);
};
}  // namespace gert

namespace optiling {
using OP_CHECK_FUNC = int32_t (*)(const ge::Operator&, ge::AscendString&);
using PARAM_GENERALIZE_FUNC = int32_t (*)(const ge::Operator&, const ge::AscendString&, ge::AscendString&);
}  // namespace optiling

namespace ops {

// Whether an input or output must be given (REQUIRED), may be absent (OPTIONAL) or is a list
// (DYNAMIC; not run here); whether an attribute is REQUIRED or OPTIONAL.
enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
// Scope of ValueDepend.
enum class DependScope : uint32_t { ALL = 0, TILING = 1, INVALID_SCOPE };

// One input or output: its name, kind and the data types it accepts (column i of every
// input's and output's list forms one supported combination).
class OpParamDef {
public:
    explicit OpParamDef(const char* name) : name_(name) {}
    OpParamDef& ParamType(Option t) {
        type_ = t;
        return *this;
    }
    OpParamDef& DataType(std::vector<ge::DataType> types) {
        dtypes_ = std::move(types);
        return *this;
    }
    OpParamDef& DataTypeList(std::vector<ge::DataType> types) {
        dtypes_ = std::move(types);
        list_ = true;
        return *this;
    }
    OpParamDef& Format(std::vector<ge::Format> formats) {
        formats_ = std::move(formats);
        return *this;
    }
    OpParamDef& FormatList(std::vector<ge::Format> formats) { return Format(std::move(formats)); }
    OpParamDef& UnknownShapeFormat(std::vector<ge::Format>) { return *this; }
    OpParamDef& ValueDepend(Option) { return *this; }
    OpParamDef& ValueDepend(Option, DependScope) { return *this; }
    OpParamDef& IgnoreContiguous() { return *this; }
    OpParamDef& AutoContiguous() { return *this; }
    OpParamDef& Scalar() { return *this; }
    OpParamDef& ScalarList() { return *this; }
    OpParamDef& To(ge::DataType) { return *this; }
    OpParamDef& To(const char*) { return *this; }
    OpParamDef& InitValue(uint64_t) { return *this; }
    OpParamDef& OutputShapeDependOnCompute() { return *this; }
    OpParamDef& Follow(const char*) { return *this; }
    OpParamDef& Comment(const char*) { return *this; }

    const std::string& Name() const { return name_; }
    Option Type() const { return type_; }
    const std::vector<ge::DataType>& DataTypes() const { return dtypes_; }
    // DataTypeList: one type for every combination.
    bool IsList() const { return list_; }

private:
    std::string name_;
    Option type_ = REQUIRED;
    std::vector<ge::DataType> dtypes_;
    std::vector<ge::Format> formats_;
    bool list_ = false;
};

// One attribute: its name, whether it is required, its kind and default.
class OpAttrDef {
public:
    explicit OpAttrDef(const char* name) : value_() { value_.name = name; }
    OpAttrDef& AttrType(Option t) {
        required_ = t == REQUIRED;
        return *this;
    }
    OpAttrDef& Bool() { return Kind(gert::AttrKind::Bool); }
    OpAttrDef& Bool(bool v) {
        value_.b = v;
        return Default(gert::AttrKind::Bool);
    }
    OpAttrDef& Int() { return Kind(gert::AttrKind::Int); }
    OpAttrDef& Int(int64_t v) {
        value_.i = v;
        return Default(gert::AttrKind::Int);
    }
    OpAttrDef& Float() { return Kind(gert::AttrKind::Float); }
    OpAttrDef& Float(float v) {
        value_.f = v;
        return Default(gert::AttrKind::Float);
    }
    OpAttrDef& String() { return Kind(gert::AttrKind::Str); }
    OpAttrDef& String(const char* v) {
        value_.s = v;
        return Default(gert::AttrKind::Str);
    }
    OpAttrDef& ListBool() { return Kind(gert::AttrKind::ListBool); }
    OpAttrDef& ListBool(std::vector<bool> v) {
        value_.lb = gert::TypedContinuousVector<bool>(std::move(v));
        return Default(gert::AttrKind::ListBool);
    }
    OpAttrDef& ListInt() { return Kind(gert::AttrKind::ListInt); }
    OpAttrDef& ListInt(std::vector<int64_t> v) {
        value_.li = gert::TypedContinuousVector<int64_t>(std::move(v));
        return Default(gert::AttrKind::ListInt);
    }
    OpAttrDef& ListFloat() { return Kind(gert::AttrKind::ListFloat); }
    OpAttrDef& ListFloat(std::vector<float> v) {
        value_.lf = gert::TypedContinuousVector<float>(std::move(v));
        return Default(gert::AttrKind::ListFloat);
    }
    OpAttrDef& Comment(const char*) { return *this; }

    const std::string& Name() const { return value_.name; }
    bool Required() const { return required_; }
    bool HasDefault() const { return hasDefault_; }
    bool KindSet() const { return kindSet_; }
    // The default value (its kind is the attribute's kind).
    const gert::AttrValue& Value() const { return value_; }

private:
    OpAttrDef& Kind(gert::AttrKind k) {
        value_.kind = k;
        kindSet_ = true;
        return *this;
    }
    OpAttrDef& Default(gert::AttrKind k) {
        hasDefault_ = true;
        return Kind(k);
    }
    gert::AttrValue value_;
    bool required_ = true;
    bool hasDefault_ = false;
    bool kindSet_ = false;
};

// Build flags of one product's AI Core configuration (accepted; the simulator has one build).
class OpAICoreConfig {
public:
    OpAICoreConfig() = default;
    explicit OpAICoreConfig(const char*) {}
    OpAICoreConfig& AsyncFlag(bool) { return *this; }
    OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
    OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
    OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
    OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
    OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
    OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
    OpAICoreConfig& RangeLimitValue(const char*) { return *this; }
    // Build settings by key; `opFile.value` names the kernel entry file (`<value>.cpp`).
    OpAICoreConfig& ExtendCfgInfo(const char* key, const char* value) {
        extend_[key] = value;
        return *this;
    }
    // The product's own parameter lists (its data types), replacing the definition's.
    OpParamDef& Input(const char* name) { return Param(inputs_, name); }
    OpParamDef& Output(const char* name) { return Param(outputs_, name); }

    const std::map<std::string, std::string>& AscendcExtend() const { return extend_; }
    const std::vector<std::unique_ptr<OpParamDef>>& AscendcInputs() const { return inputs_; }
    const std::vector<std::unique_ptr<OpParamDef>>& AscendcOutputs() const { return outputs_; }

private:
    static OpParamDef& Param(std::vector<std::unique_ptr<OpParamDef>>& v, const char* name) {
        v.push_back(std::make_unique<OpParamDef>(name));
        return *v.back();
    }
    std::map<std::string, std::string> extend_;
    std::vector<std::unique_ptr<OpParamDef>> inputs_;
    std::vector<std::unique_ptr<OpParamDef>> outputs_;
};

// What one product's AddConfig gave: the kernel entry file and the parameter lists that replace
// the definition's for it.
struct OpProductConfig {
    std::string opFile;
    std::vector<OpParamDef> inputs;
    std::vector<OpParamDef> outputs;
};

// The AI Core part of a definition: the TilingFunc and the products it is built for.
class OpAICoreDef {
public:
    OpAICoreDef& SetTiling(gert::OpImplRegisterV2::TilingKernelFunc f) {
        tiling_ = f;
        return *this;
    }
    OpAICoreDef& SetTilingParse(gert::OpImplRegisterV2::TilingParseFunc) { return *this; }
    OpAICoreDef& SetCheckSupport(optiling::OP_CHECK_FUNC) { return *this; }
    OpAICoreDef& SetOpSelectFormat(optiling::OP_CHECK_FUNC) { return *this; }
    OpAICoreDef& SetOpSupportInfo(optiling::OP_CHECK_FUNC) { return *this; }
    OpAICoreDef& SetParamGeneralize(optiling::PARAM_GENERALIZE_FUNC) { return *this; }
    // Adds a product (`ascend910b`, `ascend310p`, …) the operator is built for.
    OpAICoreDef& AddConfig(const char* soc) {
        socs_.push_back(soc);
        return *this;
    }
    OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig& config) {
        OpProductConfig& c = configs_[Lower(soc)];
        auto file = config.AscendcExtend().find("opFile.value");
        if (file != config.AscendcExtend().end()) c.opFile = file->second;
        for (const auto& p : config.AscendcInputs()) c.inputs.push_back(*p);
        for (const auto& p : config.AscendcOutputs()) c.outputs.push_back(*p);
        return AddConfig(soc);
    }
    // The configuration AddConfig gave `soc` (any case), or null.
    const OpProductConfig* Config(const std::string& soc) const {
        auto it = configs_.find(Lower(soc));
        return it == configs_.end() ? nullptr : &it->second;
    }

    gert::OpImplRegisterV2::TilingKernelFunc Tiling() const { return tiling_; }
    const std::vector<std::string>& Socs() const { return socs_; }

private:
    static std::string Lower(std::string s) {
        for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        return s;
    }
    gert::OpImplRegisterV2::TilingKernelFunc tiling_ = nullptr;
    std::vector<std::string> socs_;
    std::map<std::string, OpProductConfig> configs_;
};

// An operator definition; derive from it, describe the operator in the constructor and
// register it with OP_ADD.
class OpDef {
public:
    explicit OpDef(const char* type) : type_(type) {}
    virtual ~OpDef() = default;
    OpParamDef& Input(const char* name) { return AscendcParam(inputs_, name); }
    OpParamDef& Output(const char* name) { return AscendcParam(outputs_, name); }
    OpAttrDef& Attr(const char* name) {
        attrs_.push_back(std::make_unique<OpAttrDef>(name));
        return *attrs_.back();
    }
    OpDef& SetInferShape(gert::OpImplRegisterV2::InferShapeKernelFunc f) {
        inferShape_ = f;
        return *this;
    }
    OpDef& SetInferShapeRange(gert::OpImplRegisterV2::InferShapeRangeKernelFunc) { return *this; }
    OpDef& SetInferDataType(gert::OpImplRegisterV2::InferDataTypeKernelFunc f) {
        inferDataType_ = f;
        return *this;
    }
    OpDef& Comment(const char*) { return *this; }
    OpAICoreDef& AICore() { return aicore_; }

    // Readers for the simulator, prefixed so that they do not hide the names (InferShape, …)
    // operator code uses inside its OpDef class.
    const std::string& AscendcType() const { return type_; }
    const std::vector<std::unique_ptr<OpParamDef>>& AscendcInputs() const { return inputs_; }
    const std::vector<std::unique_ptr<OpParamDef>>& AscendcOutputs() const { return outputs_; }
    const std::vector<std::unique_ptr<OpAttrDef>>& AscendcAttrs() const { return attrs_; }
    gert::OpImplRegisterV2::InferShapeKernelFunc AscendcInferShape() const { return inferShape_; }
    gert::OpImplRegisterV2::InferDataTypeKernelFunc AscendcInferDataType() const { return inferDataType_; }
    const OpAICoreDef& AscendcAICore() const { return aicore_; }

private:
    static OpParamDef& AscendcParam(std::vector<std::unique_ptr<OpParamDef>>& v, const char* name) {
        v.push_back(std::make_unique<OpParamDef>(name));
        return *v.back();
    }
    std::string type_;
    std::vector<std::unique_ptr<OpParamDef>> inputs_;
    std::vector<std::unique_ptr<OpParamDef>> outputs_;
    std::vector<std::unique_ptr<OpAttrDef>> attrs_;
    gert::OpImplRegisterV2::InferShapeKernelFunc inferShape_ = nullptr;
    gert::OpImplRegisterV2::InferDataTypeKernelFunc inferDataType_ = nullptr;
    OpAICoreDef aicore_;
};

namespace detail {

// Registered definitions (OP_ADD), built on first use.
inline std::vector<std::function<std::unique_ptr<OpDef>()>>& OpFactories() {
    static std::vector<std::function<std::unique_ptr<OpDef>()>> f;
    return f;
}

struct OpRegistrar {
    explicit OpRegistrar(std::function<std::unique_ptr<OpDef>()> make) { OpFactories().push_back(std::move(make)); }
};

}  // namespace detail
}  // namespace ops

namespace optiling {
namespace detail {

// Host functions registered by operator type with IMPL_OP_OPTILING / IMPL_OP /
// IMPL_OP_INFERSHAPE.
struct OpImpl {
    gert::OpImplRegisterV2::TilingKernelFunc tiling = nullptr;
    gert::OpImplRegisterV2::InferShapeKernelFunc inferShape = nullptr;
    gert::OpImplRegisterV2::InferDataTypeKernelFunc inferDataType = nullptr;
    // TilingParse<CompileInfo>(f): f, and the compile info object the host program creates
    // (value-initialized, compileInfoSize bytes) and hands to f and then to the TilingFunc.
    gert::OpImplRegisterV2::TilingParseFunc tilingParse = nullptr;
    std::shared_ptr<void> (*makeCompileInfo)() = nullptr;
    size_t compileInfoSize = 0;
};

inline std::map<std::string, OpImpl>& OpImpls() {
    static std::map<std::string, OpImpl> impls;
    return impls;
}

template <typename CompileInfo>
std::shared_ptr<void> MakeCompileInfo() {
    return std::shared_ptr<void>(new CompileInfo(), [](void* p) { delete static_cast<CompileInfo*>(p); });
}

// The builder IMPL_OP_OPTILING(type) / IMPL_OP(type) / IMPL_OP_INFERSHAPE(type) return.
class OpImplBuilder {
public:
    explicit OpImplBuilder(const char* type) : type_(type) {}
    OpImplBuilder& Tiling(gert::OpImplRegisterV2::TilingKernelFunc f) {
        OpImpls()[type_].tiling = f;
        return *this;
    }
    // Tiling(f, maxTilingDataSize): the size bound is accepted (the buffer holds 64 KiB).
    OpImplBuilder& Tiling(gert::OpImplRegisterV2::TilingKernelFunc f, size_t) { return Tiling(f); }
    template <typename CompileInfo = void>
    OpImplBuilder& TilingParse(gert::OpImplRegisterV2::TilingParseFunc f) {
        OpImpl& impl = OpImpls()[type_];
        impl.tilingParse = f;
        if constexpr (!std::is_void<CompileInfo>::value) {
            impl.makeCompileInfo = &MakeCompileInfo<CompileInfo>;
            impl.compileInfoSize = sizeof(CompileInfo);
        }
        return *this;
    }
    OpImplBuilder& InferShape(gert::OpImplRegisterV2::InferShapeKernelFunc f) {
        OpImpls()[type_].inferShape = f;
        return *this;
    }
    OpImplBuilder& InferDataType(gert::OpImplRegisterV2::InferDataTypeKernelFunc f) {
        OpImpls()[type_].inferDataType = f;
        return *this;
    }
    OpImplBuilder& InferShapeRange(gert::OpImplRegisterV2::InferShapeRangeKernelFunc) { return *this; }
    // Inputs whose values the TilingFunc / InferShape read (accepted: every input's data is
    // available here).
    OpImplBuilder& TilingInputsDataDependency(std::initializer_list<int32_t>) { return *this; }
    OpImplBuilder& TilingInputsDataDependency(std::initializer_list<int32_t>, std::initializer_list<int32_t>) {
        return *this;
    }
    OpImplBuilder& InputsDataDependency(std::initializer_list<int32_t>) { return *this; }
    OpImplBuilder& PrivateAttr(const char*, int64_t) { return *this; }
    OpImplBuilder& PrivateAttr(const char*, bool) { return *this; }
    OpImplBuilder& PrivateAttr(const char*, float) { return *this; }
    OpImplBuilder& PrivateAttr(const char*, const char*) { return *this; }
    OpImplBuilder& OutputShapeDependOnCompute(std::initializer_list<int32_t>) { return *this; }

private:
    std::string type_;
};

}  // namespace detail
}  // namespace optiling

#define ASCENDC_OP_CONCAT_(a, b) a##b
#define ASCENDC_OP_CONCAT(a, b) ASCENDC_OP_CONCAT_(a, b)

// Registers the definition class `opType` (constructed with its own name).
#define OP_ADD(opType, ...)                                                          \
    static ::ops::detail::OpRegistrar g_ascendc_op_add_##opType(                     \
        []() { return std::unique_ptr<::ops::OpDef>(new opType(#opType)); })

// Registers host functions by operator type: IMPL_OP_OPTILING(AddCustom).Tiling(TilingFunc).
#define IMPL_OP_OPTILING(opType)                                                     \
    static auto ASCENDC_OP_CONCAT(g_ascendc_impl_, __COUNTER__) = ::optiling::detail::OpImplBuilder(#opType)
#define IMPL_OP(opType) IMPL_OP_OPTILING(opType)
// Registers InferShape / InferDataType: IMPL_OP_INFERSHAPE(AddV2).InferShape(f).InferDataType(g).
#define IMPL_OP_INFERSHAPE(opType) IMPL_OP_OPTILING(opType)
