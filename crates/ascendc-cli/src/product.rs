//! The preprocessor macros the vendor's kernel builds define per product, so that `#if` branches
//! in kernels pick the code they pick on that product.
//!
//! Sources (facts only): `__NPU_ARCH__` per product from the Ascend C programming guide's
//! "SIMD BuiltIn keywords" page (`docs/zh/guide/编程指南/语言扩展层/SIMD-BuiltIn关键字.md` in the
//! public asc-devkit documentation; it is [`ChipProfile::npu_arch`] here); `__CCE_AICORE__` and
//! the `__DAV_*` core macros from the public asc-tools CPU-debug build, which defines per product
//! `__CCE_AICORE__` 100 / 200 / 220 / 300 with `__DAV_C100__`, `__DAV_M200__`,
//! `__DAV_C220__` + `__DAV_C220_VEC__` (vector core; the cube core gets `__DAV_C220_CUBE__` +
//! `__DAV_CUBE__`) and `__DAV_M300__`.
//!
//! One compilation serves every block here, and blocks run on vector cores unless the kernel mode
//! says otherwise, so the split-architecture products get their vector-core macros.

use ascendc::chip::{ChipProfile, Product};
use std::path::{Path, PathBuf};

/// `__CCE_AICORE__` and the `__DAV_*` macros of one product.
struct ProductMacros {
    product: Product,
    cce_aicore: u32,
    dav: &'static [&'static str],
}

const TABLE: [ProductMacros; 5] = [
    ProductMacros {
        product: Product::Ascend910,
        cce_aicore: 100,
        dav: &["__DAV_C100__"],
    },
    ProductMacros {
        product: Product::Ascend310P,
        cce_aicore: 200,
        dav: &["__DAV_M200__"],
    },
    ProductMacros {
        product: Product::Ascend910B,
        cce_aicore: 220,
        dav: &["__DAV_C220__", "__DAV_C220_VEC__"],
    },
    ProductMacros {
        product: Product::Ascend910_93,
        cce_aicore: 220,
        dav: &["__DAV_C220__", "__DAV_C220_VEC__"],
    },
    ProductMacros {
        product: Product::Ascend310B,
        cce_aicore: 300,
        dav: &["__DAV_M300__"],
    },
];

/// The `-D` flags for `profile`: `__NPU_ARCH__`, `__CCE_AICORE__` and the `__DAV_*` macros.
pub fn defines(profile: &ChipProfile) -> Vec<String> {
    let mut out = vec![format!("-D__NPU_ARCH__={}", profile.npu_arch)];
    if let Some(m) = TABLE.iter().find(|m| m.product == profile.product) {
        out.push(format!("-D__CCE_AICORE__={}", m.cce_aicore));
        out.extend(m.dav.iter().map(|d| format!("-D{d}")));
    }
    out
}

/// Writes, in `dir`, the C++ source a program links to record the product it was built for: a
/// static initializer handing `profile`'s SoC to the simulator, which then simulates that
/// product when the program runs without `$ASCENDC_PRODUCT`. Returns its path.
pub fn registration_source(profile: &ChipProfile, dir: &Path) -> Result<PathBuf, String> {
    let path = dir.join("ascendc_build_product.cpp");
    let text = format!(
        "// The product `ascendc` built this program for.\n\
extern \"C\" void ascendc_set_build_product(const char* soc);\n\
namespace {{\n\
[[maybe_unused]] const bool kBuildProduct = (ascendc_set_build_product(\"{}\"), true);\n\
}}  // namespace\n",
        profile.soc
    );
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// The profile `--product` (or `$ASCENDC_PRODUCT`) names, else the default one.
pub fn resolve(name: Option<&str>) -> Result<&'static ChipProfile, String> {
    let env = std::env::var("ASCENDC_PRODUCT").ok();
    match name.or(env.as_deref()) {
        Some(n) => lookup(n),
        None => Ok(ChipProfile::default_profile()),
    }
}

/// The profile `name` names: a series, a SoC or an NPU architecture; an error listing the accepted
/// names otherwise.
pub fn lookup(name: &str) -> Result<&'static ChipProfile, String> {
    ChipProfile::by_name(name).ok_or_else(|| {
        let l = name.to_ascii_lowercase();
        let why = if l.starts_with("ascend950") || l == "dav-3510" {
            "Ascend 950 (dav-3510) is not simulated".to_string()
        } else {
            format!("unknown product {name}")
        };
        format!("{why}; accepted: {}", ChipProfile::accepted_names())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_product_has_its_macros() {
        let a2 = defines(ChipProfile::by_name("A2").unwrap());
        assert_eq!(
            a2,
            [
                "-D__NPU_ARCH__=2201",
                "-D__CCE_AICORE__=220",
                "-D__DAV_C220__",
                "-D__DAV_C220_VEC__"
            ]
        );
        let p310 = defines(ChipProfile::by_name("310P").unwrap());
        assert_eq!(
            p310,
            [
                "-D__NPU_ARCH__=2002",
                "-D__CCE_AICORE__=200",
                "-D__DAV_M200__"
            ]
        );
        for name in ["910", "310P", "A2", "A3", "310B"] {
            assert!(defines(ChipProfile::by_name(name).unwrap()).len() >= 3);
        }
        assert_eq!(
            defines(ChipProfile::by_name("310B").unwrap())[..2],
            ["-D__NPU_ARCH__=3002", "-D__CCE_AICORE__=300"]
        );
        // A SoC has its series' macros.
        assert_eq!(defines(lookup("Ascend910B3").unwrap()), a2);
    }

    #[test]
    fn unknown_names_list_the_accepted_ones() {
        let e = lookup("Ascend910C9").unwrap_err();
        assert!(
            e.starts_with("unknown product Ascend910C9; accepted: series 910, 310P, A2"),
            "{e}"
        );
        assert!(
            e.contains("Ascend910B4-1") && e.contains("dav-2201/dav-c220"),
            "{e}"
        );
        let e = lookup("dav-3510").unwrap_err();
        assert!(
            e.starts_with("Ascend 950 (dav-3510) is not simulated; accepted: "),
            "{e}"
        );
        assert_eq!(lookup("dav-m200").unwrap().soc, "Ascend310P");
    }
}
