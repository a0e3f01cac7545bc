// The system workspace: SetSysWorkspace, GetSysWorkSpacePtr, GetUserWorkspace. A workspace
// argument holds the system workspace (16 MiB on A2/A3, 2 MiB on the other products) followed
// by the user workspace.
#pragma once

#include "types.h"

extern "C" {
int32_t ascendc_set_sys_workspace(const void* ptr, AscLoc loc);
int32_t ascendc_get_sys_workspace(uint8_t** out, AscLoc loc);
int32_t ascendc_get_user_workspace(const void* ptr, uint8_t** out, AscLoc loc);
}

namespace AscendC {

// Records this block's system workspace (GM from GmAlloc / aclrtMalloc).
inline void SetSysWorkspace(GM_ADDR workspace, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_sys_workspace(workspace, loc));
}

// The system workspace SetSysWorkspace recorded in this block; null before.
inline GM_ADDR GetSysWorkSpacePtr(detail::Loc loc = detail::Loc()) {
    uint8_t* p = nullptr;
    detail::Check(ascendc_get_sys_workspace(&p, loc));
    return p;
}

// The user part of `workspace`: the system workspace size further; null for a null workspace.
// Fails when the allocation is shorter than the system workspace.
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace, detail::Loc loc = detail::Loc()) {
    if (workspace == nullptr) {
        return nullptr;
    }
    uint8_t* p = nullptr;
    detail::Check(ascendc_get_user_workspace(workspace, &p, loc));
    return p;
}

}  // namespace AscendC
