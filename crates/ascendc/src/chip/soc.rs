//! The SoCs of the modelled series by the names users give them (`Ascend910B3`,
//! `Ascend310P1`, …, or an NPU architecture such as `dav-2201`), with the platform facts that
//! differ between SoCs of one series: their core counts.
//!
//! Names: the SoC lists of the vendor's `PlatformAscendC` (`impl/utils/tiling/platform/
//! platform_ascendc.cpp`, each SoC with its series) and runtime (`tools/build/asc_rt/
//! ascendc_runtime.cpp`) in the public asc-devkit sources. Counts: the `[SoCInfo]` section of the
//! CANN platform configuration `<arch>-linux/data/platform_config/<SoC>.ini` (`ai_core_cnt`,
//! `cube_core_cnt`, `vector_core_cnt`); the files ship with the CANN toolkit, not the public
//! sources, so each row says where its values were read. The vendor's ATC `--aicore_num` and
//! torchair `limit_core_num` pages quote `ai_core_cnt=24 cube_core_cnt=24 vector_core_cnt=48`
//! for a separated part and `ai_core_cnt=10 vector_core_cnt=8` for a coupled one. No SoC's buffer
//! sizes differ from its series' in the values found (`ub_size=196608` in `Ascend910B2C.ini` and
//! `Ascend910_9392.ini`; UB 192 KiB, L1 512 KiB, L0C 128 KiB in `Ascend910_9382.ini`), so the
//! SoCs keep their series' buffers.

use super::{ChipProfile, A2, A3, INFERENCE, INFERENCE_A2, TRAINING};

/// `series` with its SoC name and core counts. `ai_cores` is `ai_core_cnt` (AIC on separated
/// parts), `vector_cores` is `vector_core_cnt` (AIV on separated parts, the stand-alone vector
/// cores on the coupled 310P).
const fn soc(
    series: ChipProfile,
    name: &'static str,
    ai_cores: u32,
    vector_cores: u32,
) -> ChipProfile {
    ChipProfile {
        soc: name,
        ai_cores,
        vector_cores,
        ..series
    }
}

/// Every SoC of the five series, series by series.
pub static SOCS: [ChipProfile; 22] = [
    // Atlas training series. No per-SoC platform file was found for these: they keep the series'
    // 32 AI Cores and no vector cores (the vendor's platform test stub for `__NPU_ARCH__` 1001, and
    // the `ai_core_cnt=32 vector_core_cnt=0` the torchair page quotes). The vendor's list also
    // names a training-series `Ascend910B`; that name here is the Atlas A2 series, as
    // `SocVersion::ASCEND910B` and `ascendc --product` have always spelled it.
    soc(TRAINING, "Ascend910A", 32, 0),
    soc(TRAINING, "Ascend910ProA", 32, 0),
    soc(TRAINING, "Ascend910ProB", 32, 0),
    soc(TRAINING, "Ascend910PremiumA", 32, 0),
    // Atlas inference series: `Ascend310P1.ini` ai_core_cnt=10 vector_core_cnt=8 and
    // `Ascend310P3.ini` ai_core_cnt=8 vector_core_cnt=7, as quoted from the files in public
    // projects targeting these parts.
    soc(INFERENCE, "Ascend310P1", 10, 8),
    soc(INFERENCE, "Ascend310P3", 8, 7),
    // Atlas A2: `Ascend910B1.ini` and `Ascend910B2.ini` ai_core_cnt=24 cube_core_cnt=24
    // vector_core_cnt=48; `Ascend910B3.ini`, `Ascend910B4.ini` and `Ascend910B4-1.ini`
    // ai_core_cnt=20 cube_core_cnt=20 vector_core_cnt=40 (quoted from the files in public
    // projects). No core counts were found for Ascend910B2C: the series' 24/48.
    soc(A2, "Ascend910B1", 24, 48),
    soc(A2, "Ascend910B2", 24, 48),
    soc(A2, "Ascend910B2C", 24, 48),
    soc(A2, "Ascend910B3", 20, 40),
    soc(A2, "Ascend910B4", 20, 40),
    soc(A2, "Ascend910B4-1", 20, 40),
    // Atlas A3: `Ascend910_9392.ini` and `Ascend910_9382.ini` ai_core_cnt=24 cube_core_cnt=24
    // vector_core_cnt=48 (quoted from the files); Ascend910_9362 builds for 20 cube cores (a public
    // report, no file quote). No counts were found for 9391, 9381 and 9372: the series' 24/48.
    soc(A3, "Ascend910_9391", 24, 48),
    soc(A3, "Ascend910_9381", 24, 48),
    soc(A3, "Ascend910_9372", 24, 48),
    soc(A3, "Ascend910_9392", 24, 48),
    soc(A3, "Ascend910_9382", 24, 48),
    soc(A3, "Ascend910_9362", 20, 40),
    // Atlas 200I/500 A2: no per-SoC platform file was found; the series' one AI Core (the vendor's
    // platform test stub for `__NPU_ARCH__` 3002).
    soc(INFERENCE_A2, "Ascend310B1", 1, 0),
    soc(INFERENCE_A2, "Ascend310B2", 1, 0),
    soc(INFERENCE_A2, "Ascend310B3", 1, 0),
    soc(INFERENCE_A2, "Ascend310B4", 1, 0),
];

/// NPU architecture names (`dav-<name>` as the vendor's `--npu-arch` and
/// `CMAKE_ASC_ARCHITECTURES` spell them, `-vec` / `-cube` suffixes allowed) and their
/// `__NPU_ARCH__`. `dav-2201` is both Atlas A2 and A3, whose facts are the same: it selects A2.
const ARCH_NAMES: [(&str, u32); 4] = [
    ("c100", 1001),
    ("m200", 2002),
    ("c220", 2201),
    ("m300", 3002),
];

/// The series profile of an NPU architecture spelling: `dav-2201`, `dav-c220`, `dav-c220-vec`,
/// `dav-m200`, … (case-insensitive). `None` for an architecture the simulator does not model.
pub fn by_arch(spelling: &str) -> Option<&'static ChipProfile> {
    let s = spelling.to_ascii_lowercase();
    let arch = s.strip_prefix("dav-")?;
    let arch = arch
        .strip_suffix("-vec")
        .or_else(|| arch.strip_suffix("-cube"))
        .unwrap_or(arch);
    let number = match ARCH_NAMES.iter().find(|(n, _)| *n == arch) {
        Some(&(_, n)) => n,
        None => arch.parse().ok()?,
    };
    ChipProfile::all()
        .into_iter()
        .find(|p| p.npu_arch == number)
}

/// The SoC named `name` (case-insensitive, with or without the `Ascend` prefix).
pub fn by_soc_name(name: &str) -> Option<&'static ChipProfile> {
    let short = |s: &str| {
        let l = s.to_ascii_lowercase();
        l.strip_prefix("ascend").map(str::to_string).unwrap_or(l)
    };
    let want = short(name);
    SOCS.iter().find(|p| short(p.soc) == want)
}

/// Every name `ChipProfile::by_name` accepts, for error messages.
pub fn accepted_names() -> String {
    let socs: Vec<&str> = SOCS.iter().map(|p| p.soc).collect();
    let archs: Vec<String> = ARCH_NAMES
        .iter()
        .map(|(n, a)| format!("dav-{a}/dav-{n}"))
        .collect();
    format!(
        "series 910, 310P, A2 (Ascend910B), A3 (Ascend910_93), 310B; SoCs {}; NPU architectures {}",
        socs.join(", "),
        archs.join(", ")
    )
}
