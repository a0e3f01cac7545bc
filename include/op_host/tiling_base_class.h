// Ops::Base::TilingBaseClass: a TilingFunc written as a class. DoTiling() runs
// GetShapeAttrsInfo, GetPlatformInfo, IsCapable (false: GRAPH_PARAM_INVALID, "try another
// template"), DoOpTiling, DoLibApiTiling, GetWorkspaceSize, PostTiling, then sets the tiling key
// GetTilingKey() returns; the first step that fails ends it with its status.
#pragma once

#include <cstdint>

#include "ascendc/host/context.h"
#include "ascendc/host/op_log.h"
// Tiling classes read the platform through platform_ascendc::PlatformAscendC (and code including
// this header names it without including it).
#include "tiling/platform/platform_ascendc.h"

namespace Ops {
namespace Base {

// Compile info fields shared by templates that pick a tiling by SoC version.
struct CompileInfoCommon {
    int32_t socVersion = 0;
    int64_t coreNum = 0;
    int64_t ubSize = 0;
};

class TilingBaseClass {
public:
    explicit TilingBaseClass(gert::TilingContext* context) : context_(context) {}
    TilingBaseClass() = default;
    virtual ~TilingBaseClass() = default;

    virtual ge::graphStatus DoTiling() {
        ge::graphStatus st = GetShapeAttrsInfo();
        if (st != ge::GRAPH_SUCCESS) return st;
        st = GetPlatformInfo();
        if (st != ge::GRAPH_SUCCESS) return st;
        if (!IsCapable()) return ge::GRAPH_PARAM_INVALID;
        st = DoOpTiling();
        if (st != ge::GRAPH_SUCCESS) return st;
        st = DoLibApiTiling();
        if (st != ge::GRAPH_SUCCESS) return st;
        st = GetWorkspaceSize();
        if (st != ge::GRAPH_SUCCESS) return st;
        st = PostTiling();
        if (st != ge::GRAPH_SUCCESS) return st;
        context_->SetTilingKey(GetTilingKey());
        return ge::GRAPH_SUCCESS;
    }
    virtual void Reset(gert::TilingContext* context) { context_ = context; }

protected:
    virtual bool IsCapable() = 0;
    virtual ge::graphStatus GetPlatformInfo() = 0;
    virtual ge::graphStatus GetShapeAttrsInfo() = 0;
    virtual ge::graphStatus DoOpTiling() = 0;
    virtual ge::graphStatus DoLibApiTiling() = 0;
    virtual uint64_t GetTilingKey() const = 0;
    virtual ge::graphStatus GetWorkspaceSize() = 0;
    virtual ge::graphStatus PostTiling() = 0;

    gert::TilingContext* context_ = nullptr;
    // For the subclass's own use (PostTiling typically sets them on the context).
    uint32_t blockDim_ = 0;
    uint64_t workspaceSize_ = 0;
};

}  // namespace Base
}  // namespace Ops
