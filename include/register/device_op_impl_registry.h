// Tiling sink (device-side tiling): DEVICE_IMPL_OP_OPTILING(Type).Tiling(f) is accepted. The
// simulator runs tiling on the host: `f` is used only when the operator registers no host
// TilingFunc (OpDef SetTiling or IMPL_OP_OPTILING).
#pragma once

#include <string>

#include "register/op_impl_registry.h"

namespace optiling {
namespace detail {

class DeviceOpImplBuilder {
public:
    explicit DeviceOpImplBuilder(const char* type) : type_(type) {}
    DeviceOpImplBuilder& Tiling(gert::OpImplRegisterV2::TilingKernelFunc f) {
        OpImpl& impl = OpImpls()[type_];
        if (impl.tiling == nullptr) {
            impl.tiling = f;
        }
        return *this;
    }

private:
    std::string type_;
};

}  // namespace detail
}  // namespace optiling

#define DEVICE_IMPL_OP_OPTILING(opType) \
    static auto ASCENDC_OP_CONCAT(g_ascendc_device_impl_, __COUNTER__) = ::optiling::detail::DeviceOpImplBuilder(#opType)
