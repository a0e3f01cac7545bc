//! The system workspace: `SetSysWorkspace`, `GetSysWorkSpacePtr`, `GetUserWorkspace`.
//!
//! A kernel's workspace argument is one GM allocation holding the system workspace (the size the
//! product reserves for the library, [`sys_workspace_bytes`]: 16 MiB on A2/A3, 2 MiB on the
//! others) followed by the user workspace.

use super::context::with_core;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::gm::GmAddr;

/// The system workspace size of the running core's product, in bytes.
#[track_caller]
pub fn sys_workspace_bytes() -> Result<u32> {
    with_core("GetSysWorkSpacePtr", SourceLoc::caller(), |core| {
        Ok(core.profile.workspace_bytes)
    })
}

/// `SetSysWorkspace(workspace)`: records the block's system workspace.
#[track_caller]
pub fn set_sys_workspace(workspace: &GmAddr) -> Result<()> {
    with_core("SetSysWorkspace", SourceLoc::caller(), |core| {
        core.sys_workspace = Some(workspace.clone());
        Ok(())
    })
}

/// `GetSysWorkSpacePtr()`: the system workspace `SetSysWorkspace` recorded in this block, `None`
/// before that.
#[track_caller]
pub fn get_sys_workspace_ptr() -> Result<Option<GmAddr>> {
    with_core("GetSysWorkSpacePtr", SourceLoc::caller(), |core| {
        Ok(core.sys_workspace.clone())
    })
}

/// `GetUserWorkspace(workspace)`: the user part of a workspace, [`sys_workspace_bytes`] bytes
/// in. Fails when the allocation is too short to hold the system workspace.
#[track_caller]
pub fn get_user_workspace(workspace: &GmAddr) -> Result<GmAddr> {
    const API: &str = "GetUserWorkspace";
    with_core(API, SourceLoc::caller(), |core| {
        let sys = core.profile.workspace_bytes as usize;
        let left = workspace.region_len() - workspace.offset();
        if left < sys {
            return Err(SimError::new(
                Category::Memory,
                API,
                format!(
                    "the workspace has {left} bytes from this address; the system workspace of {} alone takes {sys} bytes (allocate the system size plus the user size)",
                    core.profile
                ),
            ));
        }
        Ok(workspace.add_bytes(sys))
    })
}
