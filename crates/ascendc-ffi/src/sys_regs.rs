//! The CTRL register (`SetCtrlSpr` / `GetCtrlSpr`), the saturation modes
//! (`SetSaturationFlag<mode>` / `GetSaturationFlag<mode>`) and the store-atomic configuration
//! (`SetStoreAtomicConfig` / `GetStoreAtomicConfig`).

use crate::abi::{call, AscLoc};
use ascendc::api::ctrl_spr::{
    get_ctrl_spr, get_saturation_flag, set_ctrl_spr, set_overflow, set_saturation_flag_mode,
    SaturationMode,
};
use ascendc::api::store_atomic::{
    get_store_atomic_config, set_store_atomic_config, AtomicDtype, AtomicOp,
};
use ascendc::error::SimError;

/// `SetCtrlSpr<start, end>(*value)` (`op` 0) or `*value = GetCtrlSpr<start, end>()` (1).
///
/// # Safety
/// `value` is readable and writable.
#[no_mangle]
pub unsafe extern "C" fn ascendc_ctrl_spr(
    op: u8,
    start_bit: i8,
    end_bit: i8,
    value: *mut i64,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        if op == 0 {
            set_ctrl_spr(start_bit, end_bit, *value)
        } else {
            *value = get_ctrl_spr(start_bit, end_bit)?;
            Ok(())
        }
    })
}

/// `SetSaturationFlag<mode>(*flag)` (`op` 0) or `*flag = GetSaturationFlag<mode>()` (1); `mode`
/// 0 FLOAT, 1 CAST.
///
/// # Safety
/// `flag` is readable and writable.
#[no_mangle]
pub unsafe extern "C" fn ascendc_saturation(op: u8, mode: u8, flag: *mut u8, loc: AscLoc) -> i32 {
    call(loc, || {
        let mode = match mode {
            0 => SaturationMode::FLOAT,
            1 => SaturationMode::CAST,
            m => {
                return Err(SimError::range(
                    "SetSaturationFlag",
                    "mode",
                    m,
                    "FLOAT or CAST",
                ))
            }
        };
        if op == 0 {
            set_saturation_flag_mode(mode, *flag != 0)
        } else {
            *flag = get_saturation_flag(mode)? as u8;
            Ok(())
        }
    })
}

/// `AscendCUtils::SetOverflow(ctrl_value)`.
#[no_mangle]
pub extern "C" fn ascendc_set_overflow(ctrl_value: u64, loc: AscLoc) -> i32 {
    call(loc, || set_overflow(ctrl_value))
}

/// `SetStoreAtomicConfig<*ty, *atomic_op>()` (`op` 0) or `GetStoreAtomicConfig(*ty,
/// *atomic_op)` (1).
///
/// # Safety
/// `ty` and `atomic_op` are readable and writable.
#[no_mangle]
pub unsafe extern "C" fn ascendc_store_atomic(
    op: u8,
    ty: *mut u16,
    atomic_op: *mut u16,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        if op == 0 {
            let t = AtomicDtype::from_code(*ty).ok_or_else(|| {
                SimError::range(
                    "SetStoreAtomicConfig",
                    "type",
                    *ty,
                    "an AtomicDtype value [0, 6]",
                )
            })?;
            if *atomic_op != AtomicOp::ATOMIC_SUM as u16 {
                return Err(SimError::range(
                    "SetStoreAtomicConfig",
                    "op",
                    *atomic_op,
                    "ATOMIC_SUM (0)",
                ));
            }
            set_store_atomic_config(t, AtomicOp::ATOMIC_SUM)
        } else {
            let (t, o) = get_store_atomic_config()?;
            *ty = t;
            *atomic_op = o;
            Ok(())
        }
    })
}
