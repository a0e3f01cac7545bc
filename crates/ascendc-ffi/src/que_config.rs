//! The `TQueConfig` (or integer `mask`) template argument of a C++ `TQue` / `TQueBind`.

use ascendc::api::que_config::{set_config, TQueConfig};
use ascendc::api::tque::DynQue;

/// Gives queue `que` its configuration: `flags` bit 0 nd2nz, 1 nz2nd, 2 scmBlockGroup, 3
/// enableStaticEvtId, 4 enableLoopQueue; the reserved `consumer` positions are not passed.
///
/// # Safety
/// `que` from `ascendc_que_new`.
#[no_mangle]
pub unsafe extern "C" fn ascendc_que_config(
    que: *mut DynQue,
    flags: u8,
    buffer_len: u32,
    buffer_number: u32,
    consumer_size: u32,
) {
    let on = |bit: u8| flags >> bit & 1 != 0;
    set_config(
        &mut *que,
        TQueConfig {
            nd2nz: on(0),
            nz2nd: on(1),
            scm_block_group: on(2),
            buffer_len,
            buffer_number,
            consumer_size,
            consumer: [None; 8],
            enable_static_evt_id: on(3),
            enable_loop_queue: on(4),
        },
    );
}
