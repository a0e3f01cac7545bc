//! The Matmul host tiling through the C++ classes: `tests/cpp/adv/matmul_tiling_host.cpp` builds
//! its requests with the vendor spelling (MultiCoreMatmulTiling on PlatformAscendCManager,
//! SetAType(TPosition::GM, …), GetTiling into a TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, …)
//! field and into the kernel struct) and prints every field; each must equal what
//! `ascendc::adv::matmul` gives for the same request on that product.

use ascendc::adv::matmul::{
    CubeFormat as F, MatmulTilingRequest, MmDataType as D, MmPosition as P, TilingKind,
};
use ascendc::chip::ChipProfile;
use std::path::Path;
use std::process::Command;

fn fields(t: &ascendc::adv::matmul::TCubeTiling) -> Vec<i32> {
    assert_eq!(std::mem::size_of_val(t), 200);
    // SAFETY: TCubeTiling is 50 i32 fields, #[repr(C)].
    unsafe { std::slice::from_raw_parts(t as *const _ as *const i32, 50) }.to_vec()
}

fn expected(p: &'static ChipProfile) -> Vec<(&'static str, Vec<i32>)> {
    let gm = |r: &mut MatmulTilingRequest, a: D, ta: bool, tb: bool, c: D| {
        r.set_a_type(P::GM, F::ND, a, ta)
            .set_b_type(P::GM, F::ND, a, tb)
            .set_c_type(P::GM, F::ND, c);
    };
    let mut out = Vec::new();
    let mut r = MatmulTilingRequest::new(p, TilingKind::MultiCore);
    gm(&mut r, D::Float16, false, false, D::Float);
    r.set_bias_type(P::GM, F::ND, D::Float)
        .set_dim(1)
        .set_shape(1024, 1024, 1024)
        .set_single_shape(1024, 1024, 1024)
        .set_org_shape(1024, 1024, 1024, 1024)
        .enable_bias(true);
    let usage = fields(&r.get_tiling().unwrap());
    out.push(("usage", usage.clone()));
    out.push(("usage_kernel", usage));
    let mut r = MatmulTilingRequest::new(p, TilingKind::Single);
    gm(&mut r, D::Float16, false, true, D::Float);
    r.set_shape(500, 700, 300)
        .set_fix_split(64, 128, -1)
        .set_traverse(2)
        .set_buffer_space(256 * 1024, -1, -1, -1);
    out.push(("fixsplit", fields(&r.get_tiling().unwrap())));
    let mut r = MatmulTilingRequest::new(p, TilingKind::MultiCore);
    gm(&mut r, D::Float16, true, false, D::Float16);
    r.set_dim(p.ai_cores as i32)
        .set_shape(4000, 3001, 999)
        .set_org_shape(4000, 3001, 999, 999);
    out.push(("multicore", fields(&r.get_tiling().unwrap())));
    let mut r = MatmulTilingRequest::new(p, TilingKind::MultiCore);
    gm(&mut r, D::Float16, false, false, D::Float);
    r.set_dim(8.min(p.ai_cores as i32))
        .set_shape(32, 32, 8192)
        .enable_split_k(true);
    out.push(("splitk", fields(&r.get_tiling().unwrap())));
    let mut r = MatmulTilingRequest::new(p, TilingKind::Single);
    gm(&mut r, D::Int8, false, true, D::Int32);
    r.set_bias_type(P::GM, F::ND, D::Int32)
        .enable_bias(true)
        .set_shape(77, 1000, 333);
    out.push(("int8", fields(&r.get_tiling().unwrap())));
    if p.npu_arch == 2201 || p.npu_arch == 3002 {
        let mut r = MatmulTilingRequest::new(p, TilingKind::Single);
        gm(&mut r, D::Bf16, false, false, D::Float);
        r.set_shape(8192, 17, 4097);
        out.push(("bf16", fields(&r.get_tiling().unwrap())));
    }
    out
}

#[test]
fn matmul_tiling_through_cpp() {
    for product in ["A2", "A3", "310P", "310B", "910"] {
        let dir = tempfile::tempdir().unwrap();
        let src = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/cpp/adv/matmul_tiling_host.cpp");
        let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
            .current_dir(dir.path())
            .args(["run", "--product", product, src.to_str().unwrap()])
            .output()
            .expect("ascendc runs");
        let stdout = String::from_utf8_lossy(&o.stdout);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{product}\n{stdout}\n{stderr}");
        let p = ChipProfile::by_name(product).unwrap();
        let want = expected(p);
        for (name, f) in &want {
            let line = stdout
                .lines()
                .find(|l| l.starts_with(&format!("case {name} ")))
                .unwrap_or_else(|| panic!("{product}: no case {name}\n{stdout}"));
            let got: Vec<i32> = line
                .split_whitespace()
                .skip(4)
                .map(|v| v.parse().unwrap())
                .collect();
            assert!(line.contains(" ret 0 "), "{product}: {line}");
            assert_eq!(&got, f, "{product} {name}");
        }
        let usage = &want[0].1;
        // The user class saves flag + the 200-byte struct; the kernel reads it back unchanged.
        assert!(
            stdout.contains("saved 204") && stdout.contains("kernel flag 7"),
            "{stdout}"
        );
        // GetCoreNum / GetSingleShape / GetBase* and MultiCoreMatmulGetTmpBufSize.
        let cores = format!(
            "cores 1 1 1 single 1024 1024 1024 base {} {} {}",
            usage[8], usage[9], usage[10]
        );
        assert!(stdout.contains(&cores), "{product}: {cores}\n{stdout}");
        let tmp = format!(
            "tmpbuf {} {} {}",
            usage[19],
            usage[20],
            usage[21].max(2 * usage[16])
        );
        assert!(stdout.contains(&tmp), "{product}: {tmp}\n{stdout}");
        // A base block that is not a multiple of 16: -1 and the reason on stderr.
        assert!(stdout.contains("bad ret -1"), "{stdout}");
        assert!(
            stderr.contains(
                "MatmulApi Tiling : SetFixSplit baseM 24 must be a positive multiple of 16"
            ),
            "{stderr}"
        );
    }
}
