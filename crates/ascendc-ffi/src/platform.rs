//! The simulated product of a program and the platform facts its host code reads
//! (`platform_ascendc::PlatformAscendC`).
//!
//! The product is `$ASCENDC_PRODUCT` when set, else the one the program was built for (the
//! `ascendc` build links a registration of its `--product`, [`ascendc_set_build_product`]), else
//! the default (A2).

use ascendc::chip::{ChipProfile, Product};
use std::ffi::{c_char, CStr, CString};
use std::sync::{Mutex, Once, OnceLock};

/// The product the program was built for, as registered before `main`.
static BUILD: Mutex<Option<Result<&'static ChipProfile, String>>> = Mutex::new(None);

/// Records the product the program was built for (`soc`: any name
/// [`ChipProfile::by_name`] accepts). Called by a static initializer the `ascendc` build links
/// into the program.
///
/// # Safety
/// `soc` is NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn ascendc_set_build_product(soc: *const c_char) {
    let name = CStr::from_ptr(soc).to_string_lossy().into_owned();
    let found = ChipProfile::by_name(&name).ok_or_else(|| {
        format!(
            "the program was built for product {name}, which the simulator does not know ({})",
            ChipProfile::accepted_names()
        )
    });
    *BUILD.lock().unwrap_or_else(|e| e.into_inner()) = Some(found);
}

/// The product to simulate: `$ASCENDC_PRODUCT`, else the product the program was built for, else
/// the default. A `$ASCENDC_PRODUCT` naming another SoC than the build's wins, with a warning.
pub fn profile() -> Result<&'static ChipProfile, String> {
    let build = BUILD.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let Ok(name) = std::env::var("ASCENDC_PRODUCT") else {
        return build.unwrap_or(Ok(ChipProfile::default_profile()));
    };
    let chosen = ChipProfile::by_name(&name).ok_or_else(|| {
        format!(
            "ASCENDC_PRODUCT={name} names no product ({})",
            ChipProfile::accepted_names()
        )
    })?;
    if let Some(Ok(built)) = build {
        if built.soc != chosen.soc {
            static WARNED: Once = Once::new();
            WARNED.call_once(|| {
                eprintln!(
                    "warning: ASCENDC_PRODUCT={name} overrides the product the program was built for: simulating {} (its product macros are {}'s)",
                    chosen.soc, built.soc
                )
            });
        }
    }
    Ok(chosen)
}

/// The facts `PlatformAscendC` answers with, as one line: `platform SERIES SHORT_SOC NPU_ARCH
/// AIC AIV VECTOR UB L1 L0A L0B L0C BT FB WORKSPACE` (sizes in bytes). `SERIES` is the series'
/// SoC version (what `AddConfig` names), `SHORT_SOC` the one `GetSocVersion` reports (Ascend910B
/// for A3 too, as the platform documentation says). On separated products AIC/AIV are the cube and
/// vector cores and VECTOR is 0; on coupled ones AIC = AIV = the AI Cores and VECTOR the
/// stand-alone vector cores.
pub fn platform_line(p: &ChipProfile) -> String {
    let series = p.series().soc;
    let short = if p.product == Product::Ascend910_93 {
        ascendc::chip::ASCEND910B.soc
    } else {
        series
    };
    let (aic, aiv, vector) = if p.separated {
        (p.ai_cores, p.vector_cores, 0)
    } else {
        (p.ai_cores, p.ai_cores, p.vector_cores)
    };
    let b = &p.buffer_size;
    format!(
        "platform {series} {short} {} {aic} {aiv} {vector} {} {} {} {} {} {} {} {}",
        p.npu_arch, b[0], b[1], b[2], b[3], b[4], b[5], b[6], p.workspace_bytes
    )
}

/// [`platform_line`] of the simulated product, or `error MESSAGE` when `$ASCENDC_PRODUCT` names
/// no product. The string lives for the whole process.
#[no_mangle]
pub extern "C" fn ascendc_platform_line() -> *const c_char {
    static LINE: OnceLock<CString> = OnceLock::new();
    LINE.get_or_init(|| {
        let line = match profile() {
            Ok(p) => platform_line(p),
            Err(e) => format!("error {e}"),
        };
        CString::new(line).unwrap_or_default()
    })
    .as_ptr()
}

/// Why `PlatformAscendCManager::GetInstance(customSocVersion)` cannot answer for SoC `name`, or
/// `None` when `name` is a SoC of the simulated product (the platform then answers with the
/// simulated product's facts, the ones the kernels run on).
pub fn soc_mismatch(name: &str) -> Option<String> {
    let simulated = match profile() {
        Ok(p) => p,
        Err(e) => return Some(e),
    };
    match ChipProfile::by_name(name) {
        None => Some(format!(
            "GetInstance(\"{name}\"): no modelled SoC of that name ({})",
            ChipProfile::accepted_names()
        )),
        Some(named) if named.product != simulated.product => Some(format!(
            "GetInstance(\"{name}\") names a {:?} SoC, but the simulated product is {:?} ({}); run with --product {name} to simulate it",
            named.product, simulated.product, simulated.soc
        )),
        Some(_) => None,
    }
}

/// [`soc_mismatch`] for C: null when `name` is a SoC of the simulated product, else the
/// reason (valid for the rest of the process).
///
/// # Safety
/// `name` is NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn ascendc_platform_soc_mismatch(name: *const c_char) -> *const c_char {
    let name = CStr::from_ptr(name).to_string_lossy();
    match soc_mismatch(&name) {
        None => std::ptr::null(),
        Some(why) => CString::new(why).unwrap_or_default().into_raw(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn platform_line_follows_the_profile() {
        let line = |n: &str| platform_line(ChipProfile::by_name(n).unwrap());
        assert!(line("A2").starts_with("platform Ascend910B Ascend910B 2201 24 48 0 196608 "));
        assert!(line("A3").starts_with("platform Ascend910_93 Ascend910B 2201 24 48 0 "));
        let p = line("310P");
        assert!(p.starts_with("platform Ascend310P Ascend310P 2002 8 8 7 262144 "));
        assert!(p.ends_with(" 2097152"));
        assert!(
            line("Ascend910B3").starts_with("platform Ascend910B Ascend910B 2201 20 40 0 196608 ")
        );
        assert!(
            line("Ascend910_9362").starts_with("platform Ascend910_93 Ascend910B 2201 20 40 0 ")
        );
        assert!(line("Ascend310P1").starts_with("platform Ascend310P Ascend310P 2002 10 10 8 "));
    }
}
