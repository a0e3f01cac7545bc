// The system workspace: SetSysWorkspace, GetSysWorkSpacePtr, GetUserWorkspace. In the device
// flow a workspace argument holds the system workspace (16 MiB on A2/A3, 2 MiB on the other
// products) followed by the user workspace; in the CPU-debug flow (ASCENDC_CPU_DEBUG) the vendor's
// library reserves no system part and the whole workspace is the user's.
#pragma once

#include "types.h"

extern "C" {
int32_t ascendc_set_sys_workspace(const void* ptr, AscLoc loc);
int32_t ascendc_get_sys_workspace(uint8_t** out, AscLoc loc);
int32_t ascendc_get_user_workspace(const void* ptr, uint8_t cpuDebug, uint8_t** out, AscLoc loc);
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

// The user part of `workspace`. CPU-debug flow: `workspace` itself (null is an error). Device
// flow: the system workspace size further (fails when the allocation is shorter); null for a null
// workspace.
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace, detail::Loc loc = detail::Loc()) {
#if defined(ASCENDC_CPU_DEBUG) && ASCENDC_CPU_DEBUG == 1
    constexpr uint8_t cpuDebug = 1;
#else
    constexpr uint8_t cpuDebug = 0;
    if (workspace == nullptr) {
        return nullptr;
    }
#endif
    uint8_t* p = nullptr;
    detail::Check(ascendc_get_user_workspace(workspace, cpuDebug, &p, loc));
    return p;
}

}  // namespace AscendC
