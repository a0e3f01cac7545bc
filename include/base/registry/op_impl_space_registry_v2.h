// gert::DefaultOpImplSpaceRegistryV2: the host functions operators register with
// IMPL_OP_OPTILING / IMPL_OP (TilingFunc, TilingParse, InferShape, InferDataType), looked up by
// operator type — how tiling and kernel unit tests find the TilingFunc to run.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "ascendc/host/op_def.h"

namespace gert {

class OpImplKernelRegistry {
public:
    // One operator type's host functions (null where none was registered).
    struct OpImplFunctionsV2 {
        OpImplRegisterV2::TilingKernelFunc tiling = nullptr;
        OpImplRegisterV2::TilingParseFunc tiling_parse = nullptr;
        OpImplRegisterV2::InferShapeKernelFunc infer_shape = nullptr;
        OpImplRegisterV2::InferDataTypeKernelFunc infer_datatype = nullptr;
        size_t compile_info_size = 0;
    };
};

class OpImplSpaceRegistryV2 {
public:
    // The functions of `opType`; null when the type registered none.
    const OpImplKernelRegistry::OpImplFunctionsV2* GetOpImpl(const char* opType) {
        const auto& impls = ::optiling::detail::OpImpls();
        auto it = impls.find(opType == nullptr ? std::string() : std::string(opType));
        if (it == impls.end()) {
            return nullptr;
        }
        OpImplKernelRegistry::OpImplFunctionsV2& f = seen_[it->first];
        f.tiling = it->second.tiling;
        f.tiling_parse = it->second.tilingParse;
        f.infer_shape = it->second.inferShape;
        f.infer_datatype = it->second.inferDataType;
        f.compile_info_size = it->second.compileInfoSize;
        return &f;
    }

private:
    std::map<std::string, OpImplKernelRegistry::OpImplFunctionsV2> seen_;
};

class DefaultOpImplSpaceRegistryV2 {
public:
    static DefaultOpImplSpaceRegistryV2& GetInstance() {
        static DefaultOpImplSpaceRegistryV2 instance;
        return instance;
    }
    const std::shared_ptr<OpImplSpaceRegistryV2>& GetSpaceRegistry() const { return registry_; }
    void SetSpaceRegistry(const std::shared_ptr<OpImplSpaceRegistryV2>& r) { registry_ = r; }

private:
    std::shared_ptr<OpImplSpaceRegistryV2> registry_ = std::make_shared<OpImplSpaceRegistryV2>();
};

}  // namespace gert
