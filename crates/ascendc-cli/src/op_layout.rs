//! Where an operator's sources are: the op_host files compiled for a product (the top level plus
//! the product's tiling directory) and the kernel entry file.
//!
//! Operator libraries keep per-architecture tiling code in `op_host/<dir>/` and name the
//! directory of each product in the operator's `CMakeLists.txt`
//! (`set(SUPPORT_COMPUTE_UNIT "ascend910b" …)` paired with `set(SUPPORT_TILING_DIR "arch22" …)`);
//! without that list the directory is `arch<NN>`, the first two digits of the product's NPU
//! architecture (`arch22` for dav-2201). The kernel entry file is the `opFile.value` of the
//! product's `AICore().AddConfig` (`<value>.cpp`), else `<op in snake case>.cpp`, looked up in
//! `op_kernel/` and then in the product's `op_kernel/arch<NN>/`.

use ascendc::ChipProfile;
use std::path::{Path, PathBuf};

/// The quoted words of every `set(NAME "a" "b" …)` in a CMake file.
fn cmake_list(text: &str, name: &str) -> Option<Vec<String>> {
    let mut rest = text;
    while let Some(at) = rest.find("set(") {
        let body = &rest[at + 4..];
        let end = body.find(')')?;
        let mut words = body[..end].split_whitespace();
        if words.next() == Some(name) {
            return Some(words.map(|w| w.trim_matches('"').to_string()).collect());
        }
        rest = &body[end..];
    }
    None
}

/// The product's name as operator definitions and build files spell it (`ascend910b`, …).
pub fn compute_unit(profile: &ChipProfile) -> String {
    profile.series().soc.to_ascii_lowercase()
}

/// `arch<NN>`: the directory name an NPU architecture's code lives in.
fn arch_dir(profile: &ChipProfile) -> String {
    format!("arch{}", profile.npu_arch / 100)
}

/// The product's op_host tiling directory, when the operator has one.
pub fn tiling_dir(op_dir: &Path, profile: &ChipProfile) -> Option<PathBuf> {
    let host = op_dir.join("op_host");
    let unit = compute_unit(profile);
    if let Ok(text) = std::fs::read_to_string(op_dir.join("CMakeLists.txt")) {
        if let (Some(units), Some(dirs)) = (
            cmake_list(&text, "SUPPORT_COMPUTE_UNIT"),
            cmake_list(&text, "SUPPORT_TILING_DIR"),
        ) {
            return units
                .iter()
                .position(|u| *u == unit)
                .and_then(|i| dirs.get(i))
                .map(|d| host.join(d))
                .filter(|d| d.is_dir());
        }
    }
    Some(host.join(arch_dir(profile))).filter(|d| d.is_dir())
}

/// The C++ sources directly in `dir`, sorted (none when it cannot be read).
pub fn sources_in(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|f| f.is_file() && crate::toolchain::is_source(f))
        .collect();
    found.sort();
    found
}

/// The op_host sources for `profile`: the top level, then the product's tiling directory.
pub fn host_sources(op_dir: &Path, profile: &ChipProfile) -> Result<Vec<PathBuf>, String> {
    let host = op_dir.join("op_host");
    let mut found = sources_in(&host);
    if let Some(d) = tiling_dir(op_dir, profile) {
        found.extend(sources_in(&d));
    }
    if found.is_empty() {
        return Err(format!(
            "{} has no C++ sources (nor op_host/{}/ for {})",
            host.display(),
            arch_dir(profile),
            profile.soc
        ));
    }
    Ok(found)
}

/// Where the kernel entry `<file>.cpp` is: `op_kernel/`, else the product's `op_kernel/arch<NN>/`.
pub fn kernel_file(op_dir: &Path, profile: &ChipProfile, file: &str) -> Option<PathBuf> {
    let kernel = op_dir.join("op_kernel");
    [kernel.clone(), kernel.join(arch_dir(profile))]
        .into_iter()
        .map(|d| d.join(format!("{file}.cpp")))
        .find(|f| f.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cmake_lists_pair_products_with_directories() {
        let text = "# x\nset(SUPPORT_COMPUTE_UNIT \"ascend910_93\" \"ascend910b\")\nset(SUPPORT_TILING_DIR \"arch32\" \"arch32\")\nadd_all_modules_sources(OPTYPE x)\n";
        assert_eq!(
            cmake_list(text, "SUPPORT_COMPUTE_UNIT").unwrap(),
            ["ascend910_93", "ascend910b"]
        );
        assert_eq!(
            cmake_list(text, "SUPPORT_TILING_DIR").unwrap(),
            ["arch32", "arch32"]
        );
        assert_eq!(cmake_list(text, "OTHER"), None);
    }

    #[test]
    fn products_name_their_directories() {
        let a2 = ChipProfile::by_name("Ascend910B3").unwrap();
        assert_eq!(compute_unit(a2), "ascend910b");
        assert_eq!(arch_dir(a2), "arch22");
        let p = ChipProfile::by_name("310P").unwrap();
        assert_eq!(arch_dir(p), "arch20");
    }
}
