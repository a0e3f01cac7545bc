//! Matmul host tiling (`MatmulApiTiling` / `MultiCoreMatmulTiling` / `BatchMatmulTiling`):
//! random shapes on every product and dtype pair, each result checked against the constraints
//! of the TCubeTiling page (computed here from the request, not from the tiling code); requests
//! that cannot be tiled fail with the reason.

use ascendc::adv::matmul::{
    matmul_get_tmp_buf_size, CubeFormat, MatmulTilingRequest, MmDataType as D, MmPosition as P,
    SysTilingTempBufSize, TCubeTiling, TilingKind,
};
use ascendc::chip::ChipProfile;

/// Bits of an element.
fn bits(d: D) -> i64 {
    match d {
        D::Float | D::Int32 => 32,
        D::Float16 | D::Bf16 | D::Bfloat16 => 16,
        D::Int8 => 8,
        D::Int4 => 4,
    }
}

fn bytes(d: D) -> i64 {
    bits(d) / 8
}

struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() as i64) % (hi - lo + 1)
    }
}

fn cdiv(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// The page's constraints for `t` answering `r` on `p`.
#[allow(clippy::too_many_arguments)]
fn check(
    p: &ChipProfile,
    r: &MatmulTilingRequest,
    t: &TCubeTiling,
    a: D,
    b: D,
    bias: Option<D>,
    what: &str,
) {
    let i = |v: i32| v as i64;
    let (bm, bn, bk) = (i(t.baseM), i(t.baseN), i(t.baseK));
    let (sm, sn, sk) = (i(t.singleCoreM), i(t.singleCoreN), i(t.singleCoreK));
    let (m, n, k) = (r.m as i64, r.n as i64, r.k as i64);
    // A and B in bits per element.
    let (sa, sb) = (bits(a), bits(b));
    let c0 = 256 / sa;
    assert!(bm > 0 && bn > 0 && bk > 0, "{what}: {t:?}");
    assert!(bm % 16 == 0 && bn % 16 == 0, "{what}: base {bm} {bn}");
    assert!(bk % c0 == 0 && bk % 16 == 0, "{what}: baseK {bk}");
    assert!(
        bm <= (sm + 15) / 16 * 16 && bn <= (sn + 15) / 16 * 16,
        "{what}: base over single {t:?}"
    );
    for db in [t.dbL0A, t.dbL0B, t.dbL0C] {
        assert!(db == 1 || db == 2, "{what}: db {t:?}");
    }
    let l0 = |h| p.size_of(h) as i64;
    use ascendc::position::Hardware as H;
    assert!(
        bm * bk * sa / 8 * i(t.dbL0A) <= l0(H::L0A),
        "{what}: L0A {t:?}"
    );
    assert!(
        bn * bk * sb / 8 * i(t.dbL0B) <= l0(H::L0B),
        "{what}: L0B {t:?}"
    );
    assert!(bm * bn * 4 * i(t.dbL0C) <= l0(H::L0C), "{what}: L0C {t:?}");
    let a2like = p.npu_arch == 2201 || p.npu_arch == 3002;
    let bias_l1 = match bias {
        Some(d) if a2like => {
            assert!(bn * bytes(d) <= l0(H::BIAS), "{what}: BiasTable {t:?}");
            bn * bytes(d)
        }
        _ => 0,
    };
    // depth = step·stepK·db with the same L1 double buffer on both sides.
    let db = i(t.depthA1) / (i(t.stepM) * i(t.stepKa));
    assert!(db == 1 || db == 2, "{what}: depthA1 {t:?}");
    assert_eq!(i(t.depthA1), i(t.stepM) * i(t.stepKa) * db, "{what}");
    assert_eq!(i(t.depthB1), i(t.stepN) * i(t.stepKb) * db, "{what}");
    assert!(t.stepM <= t.depthA1 && t.stepN <= t.depthB1, "{what}");
    let l1 = i(t.depthA1) * bm * bk * sa / 8 + i(t.depthB1) * bn * bk * sb / 8 + bias_l1;
    assert!(l1 <= l0(H::L1), "{what}: L1 {l1} {t:?}");
    assert_eq!(i(t.shareL1Size), l1, "{what}");
    assert_eq!(i(t.shareL0CSize), bm * bn * 4, "{what}");
    // MDL: a K side not fully in L1 moves M (N) one block at a time; iterations are multiples.
    if sk > bk * i(t.stepKa) {
        assert_eq!(t.stepM, 1, "{what}");
    }
    if sk > bk * i(t.stepKb) {
        assert_eq!(t.stepN, 1, "{what}");
    }
    let (ia, ib) = (cdiv(sk, bk * i(t.stepKa)), cdiv(sk, bk * i(t.stepKb)));
    assert!(ia % ib == 0 || ib % ia == 0, "{what}");
    // No more L1 steps than blocks.
    assert!(
        i(t.stepM) <= cdiv(sm, bm) && i(t.stepN) <= cdiv(sn, bn) && i(t.stepKa) <= cdiv(sk, bk),
        "{what}: {t:?}"
    );
    assert!(t.iterateOrder == 0 || t.iterateOrder == 1, "{what}");
    assert_eq!(t.isBias, bias.is_some() as i32, "{what}");
    // Cores: the single-core blocks cover the shape with usedCoreNum cores.
    let used = cdiv(m, sm) * cdiv(n, sn) * cdiv(k, sk);
    assert_eq!(i(t.usedCoreNum), used, "{what}: {t:?}");
    if r.kind == 1 {
        assert!(used <= r.dim as i64, "{what}: {used} cores > dim {}", r.dim);
        if r.split_k == 0 {
            assert_eq!(sk, k, "{what}");
        }
    } else {
        assert_eq!((sm, sn, sk, used), (m, n, k, 1), "{what}");
    }
    assert!(sm <= m && sn <= n && sk <= k, "{what}");
    assert_eq!((t.M, t.N, t.Ka, t.Kb), (r.m, r.n, r.k, r.k), "{what}");
}

fn products() -> Vec<(&'static str, &'static ChipProfile)> {
    ["A2", "A3", "310P", "310B", "910"]
        .iter()
        .map(|n| (*n, ChipProfile::by_name(n).unwrap()))
        .collect()
}

fn pairs(p: &ChipProfile) -> Vec<(D, D, Option<D>)> {
    let mut v = vec![
        (D::Float16, D::Float, Some(D::Float)),
        (D::Float16, D::Float16, Some(D::Float16)),
        (D::Int8, D::Int32, Some(D::Int32)),
    ];
    if p.npu_arch != 1001 {
        v.push((D::Int4, D::Int32, Some(D::Int32)));
    }
    if p.npu_arch == 2201 || p.npu_arch == 3002 {
        v.push((D::Bfloat16, D::Float, Some(D::Float)));
        v.push((D::Bf16, D::Bf16, Some(D::Float)));
        v.push((D::Float, D::Float, Some(D::Float)));
    }
    v
}

#[test]
fn random_shapes_satisfy_the_page_constraints() {
    let mut rng = Lcg(0x5eed);
    for (name, p) in products() {
        for (a, c, bias_t) in pairs(p) {
            for case in 0..100 {
                let m = if case % 4 == 0 {
                    rng.range(1, 64)
                } else {
                    rng.range(1, 8192)
                };
                let n = if case % 5 == 0 {
                    rng.range(1, 64)
                } else {
                    rng.range(1, 8192)
                };
                let k = if case % 6 == 0 {
                    rng.range(1, 64)
                } else {
                    rng.range(1, 8192)
                };
                let ta = case % 2 == 1
                    && !(matches!(a, D::Int8 | D::Int4)
                        && (p.npu_arch == 2002 || p.npu_arch == 1001));
                let tb = case % 3 == 1;
                let bias = if case % 2 == 0 { bias_t } else { None };
                let multi = case % 3 != 0;
                let kind = if multi {
                    TilingKind::MultiCore
                } else {
                    TilingKind::Single
                };
                let mut r = MatmulTilingRequest::new(p, kind);
                r.set_a_type(P::GM, CubeFormat::ND, a, ta)
                    .set_b_type(P::GM, CubeFormat::ND, a, tb)
                    .set_c_type(P::GM, CubeFormat::ND, c)
                    .set_shape(m as i32, n as i32, k as i32);
                if let Some(bd) = bias {
                    r.set_bias_type(P::GM, CubeFormat::ND, bd).enable_bias(true);
                }
                if multi {
                    r.set_dim(rng.range(1, p.ai_cores as i64) as i32);
                    r.enable_split_k(case % 7 == 1);
                }
                let mut fixed = None;
                if case % 8 == 3 {
                    let l1 =
                        rng.range(96 * 1024, p.size_of(ascendc::position::Hardware::L1) as i64);
                    r.set_buffer_space(l1 as i32, -1, -1, -1);
                } else if case % 9 == 4 {
                    let sm = if multi { 1 } else { m };
                    let sn = if multi { 1 } else { n };
                    let bm = 16 * rng.range(1, ((sm + 15) / 16).clamp(1, 8));
                    let bn = 16 * rng.range(1, ((sn + 15) / 16).clamp(1, 8));
                    r.set_fix_split(bm as i32, bn as i32, -1);
                    fixed = Some((bm as i32, bn as i32));
                }
                let what = format!(
                    "{name} {a:?}->{c:?} ({m},{n},{k}) ta {ta} tb {tb} bias {bias:?} dim {}",
                    r.dim
                );
                let t = r.get_tiling().unwrap_or_else(|e| panic!("{what}: {e}"));
                check(p, &r, &t, a, a, bias, &what);
                if let Some((bm, bn)) = fixed {
                    assert_eq!((t.baseM, t.baseN), (bm, bn), "{what}");
                }
                if r.space_l1 > 0 {
                    assert!(t.shareL1Size <= r.space_l1, "{what}");
                }
            }
        }
    }
}

#[test]
fn page_usage_example_1024_cube() {
    // The usage page's single- and multi-core requests (half in, float out and bias, 1024³):
    // the page's recommended block (128, 256, 64) with K fully in L1 (stepKa·baseK ≥ K) is the
    // answer on Atlas A2.
    let p = ChipProfile::by_name("A2").unwrap();
    for kind in [TilingKind::Single, TilingKind::MultiCore] {
        let mut r = MatmulTilingRequest::new(p, kind);
        r.set_a_type(P::GM, CubeFormat::ND, D::Float16, false)
            .set_b_type(P::GM, CubeFormat::ND, D::Float16, false)
            .set_c_type(P::GM, CubeFormat::ND, D::Float)
            .set_bias_type(P::GM, CubeFormat::ND, D::Float)
            .set_shape(1024, 1024, 1024)
            .set_org_shape(1024, 1024, 1024, 1024)
            .enable_bias(true)
            .set_buffer_space(-1, -1, -1, -1);
        if kind == TilingKind::MultiCore {
            r.set_single_shape(1024, 1024, 1024).set_dim(1);
        }
        let t = r.get_tiling().unwrap();
        println!("{t:?}");
        check(p, &r, &t, D::Float16, D::Float16, Some(D::Float), "usage");
        assert_eq!(
            (t.usedCoreNum, t.singleCoreM, t.singleCoreN, t.singleCoreK),
            (1, 1024, 1024, 1024)
        );
        assert_eq!((t.baseM, t.baseN, t.baseK), (128, 256, 64));
        assert_eq!((t.dbL0A, t.dbL0B), (2, 2));
        assert_eq!(t.isBias, 1);
        assert_eq!(
            t.transLength, 0,
            "A2 converts ND to NZ in the copy, no UB staging"
        );
        assert_eq!(t.shareUbSize, 0);
    }
}

#[test]
fn multi_core_uses_the_cores() {
    let p = ChipProfile::by_name("A2").unwrap();
    let mut r = MatmulTilingRequest::new(p, TilingKind::MultiCore);
    r.set_a_type(P::GM, CubeFormat::ND, D::Float16, false)
        .set_b_type(P::GM, CubeFormat::ND, D::Float16, false)
        .set_c_type(P::GM, CubeFormat::ND, D::Float)
        .set_shape(4096, 4096, 1024)
        .set_dim(24);
    let t = r.get_tiling().unwrap();
    check(p, &r, &t, D::Float16, D::Float16, None, "4096");
    assert!(t.usedCoreNum >= 20, "{t:?}");
    // SetSingleShape fixes the split.
    r.set_single_shape(1024, 2048, -1);
    let t = r.get_tiling().unwrap();
    assert_eq!(
        (t.usedCoreNum, t.singleCoreM, t.singleCoreN, t.singleCoreK),
        (8, 1024, 2048, 1024)
    );
    // Split K.
    let mut r = MatmulTilingRequest::new(p, TilingKind::MultiCore);
    r.set_a_type(P::GM, CubeFormat::ND, D::Float16, false)
        .set_b_type(P::GM, CubeFormat::ND, D::Float16, false)
        .set_c_type(P::GM, CubeFormat::ND, D::Float)
        .set_shape(32, 32, 8192)
        .set_dim(8)
        .enable_split_k(true);
    let t = r.get_tiling().unwrap();
    check(p, &r, &t, D::Float16, D::Float16, None, "splitK");
    assert!(t.singleCoreK < 8192 && t.usedCoreNum > 1, "{t:?}");
}

#[test]
fn fixed_split_traverse_and_buffer_space() {
    let p = ChipProfile::by_name("A2").unwrap();
    let mut r = MatmulTilingRequest::new(p, TilingKind::Single);
    r.set_a_type(P::GM, CubeFormat::ND, D::Float16, false)
        .set_b_type(P::GM, CubeFormat::ND, D::Float16, true)
        .set_c_type(P::GM, CubeFormat::ND, D::Float)
        .set_shape(500, 700, 300)
        .set_fix_split(64, 128, -1)
        .set_traverse(2)
        .set_buffer_space(256 * 1024, -1, -1, -1);
    let t = r.get_tiling().unwrap();
    check(p, &r, &t, D::Float16, D::Float16, None, "fix");
    assert_eq!((t.baseM, t.baseN, t.iterateOrder), (64, 128, 1));
    assert!(t.shareL1Size <= 256 * 1024);
}

#[test]
fn tmp_buf_size_takes_the_maxima() {
    let p = ChipProfile::by_name("310P").unwrap();
    let mut r = MatmulTilingRequest::new(p, TilingKind::Single);
    r.set_a_type(P::GM, CubeFormat::ND, D::Float16, false)
        .set_b_type(P::GM, CubeFormat::ND, D::Float16, false)
        .set_c_type(P::GM, CubeFormat::ND, D::Float)
        .set_shape(100, 200, 300);
    let t = r.get_tiling().unwrap();
    check(p, &r, &t, D::Float16, D::Float16, None, "310P");
    // 310P stages ND→NZ and NZ→ND in UB: the vendor's transLength = max(A, B, C blocks).
    let (bm, bn, bk) = (t.baseM, t.baseN, t.baseK);
    let mdl_a = bm * bk * 2 * t.stepKa * t.stepM;
    let mdl_b = bn * bk * 2 * t.stepKb * t.stepN;
    assert_eq!(t.transLength, mdl_a.max(mdl_b).max(bm * bn * 4));
    let mut buf = SysTilingTempBufSize {
        ubSize: 7,
        l1Size: 1 << 30,
        l0cSize: 0,
    };
    assert_eq!(matmul_get_tmp_buf_size(&t, &mut buf), 0);
    assert_eq!(buf.l1Size, 1 << 30);
    assert_eq!(buf.l0cSize, t.shareL0CSize);
    assert_eq!(buf.ubSize, t.shareUbSize.max(2 * t.transLength));
}

#[test]
fn impossible_requests_fail_with_the_reason() {
    type Edit = Box<dyn Fn(&mut MatmulTilingRequest)>;
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "A2",
            Box::new(|r| {
                r.set_shape(0, 16, 16);
            }),
            "SetShape",
        ),
        (
            "A2",
            Box::new(|r| {
                r.set_fix_split(24, -1, -1);
            }),
            "multiple of 16",
        ),
        (
            "A2",
            Box::new(|r| {
                r.set_shape(1024, 1024, 256).set_fix_split(512, 512, -1);
            }),
            "L0C",
        ),
        (
            "A2",
            Box::new(|r| {
                r.set_fix_split(2048, -1, -1);
            }),
            "single-core size",
        ),
        (
            "A2",
            Box::new(|r| {
                r.set_dim(100);
                r.kind = 1;
            }),
            "SetDim(100)",
        ),
        (
            "A2",
            Box::new(|r| {
                r.set_buffer_space(1024 * 1024, -1, -1, -1);
            }),
            "SetBufferSpace",
        ),
        (
            "A2",
            Box::new(|r| {
                r.set_buffer_space(1024, -1, -1, -1);
            }),
            "L1",
        ),
        (
            "A2",
            Box::new(|r| {
                r.set_b_type(P::GM, CubeFormat::ND, D::Int8, false);
            }),
            "input pair",
        ),
        (
            "A2",
            Box::new(|r| {
                r.set_c_type(P::GM, CubeFormat::ND, D::Int32);
            }),
            "not an output",
        ),
        (
            "310P",
            Box::new(|r| {
                r.set_a_type(P::GM, CubeFormat::ND, D::Float, false)
                    .set_b_type(P::GM, CubeFormat::ND, D::Float, false)
                    .set_c_type(P::GM, CubeFormat::ND, D::Float);
            }),
            "not supported on this product",
        ),
        (
            "310P",
            Box::new(|r| {
                r.set_a_type(P::GM, CubeFormat::ND, D::Int8, true)
                    .set_b_type(P::GM, CubeFormat::ND, D::Int8, false)
                    .set_c_type(P::GM, CubeFormat::ND, D::Int32);
            }),
            "transposed int8",
        ),
        (
            "A2",
            Box::new(|r| {
                r.kind = 1;
                r.set_dim(2).set_single_shape(16, 16, -1);
            }),
            "needs",
        ),
        (
            "A2",
            Box::new(|r| {
                r.batch_num = 64;
                r.set_shape(512, 512, 512);
            }),
            "batches",
        ),
    ];
    for (prod, f, want) in cases {
        let p = ChipProfile::by_name(prod).unwrap();
        let mut r = MatmulTilingRequest::new(p, TilingKind::Single);
        r.set_a_type(P::GM, CubeFormat::ND, D::Float16, false)
            .set_b_type(P::GM, CubeFormat::ND, D::Float16, false)
            .set_c_type(P::GM, CubeFormat::ND, D::Float)
            .set_shape(256, 256, 256);
        f(&mut r);
        let e = r.get_tiling().expect_err(want);
        assert!(
            e.contains("MatmulApi Tiling") && e.contains(want),
            "{want}: {e}"
        );
    }
}

#[test]
fn batch_tiling_keeps_the_layout_and_checks_l1() {
    for (name, p) in products() {
        let mut r = MatmulTilingRequest::new(p, TilingKind::Batch);
        r.set_a_type(P::GM, CubeFormat::ND, D::Float16, false)
            .set_b_type(P::GM, CubeFormat::ND, D::Float16, false)
            .set_c_type(P::GM, CubeFormat::ND, D::Float)
            .set_bias_type(P::GM, CubeFormat::ND, D::Float)
            .enable_bias(true)
            .set_shape(64, 48, 32)
            .set_org_shape(64, 48, 32, 32);
        // SetBatchInfoForNormal(2, 2, 64, 48, 32) and SetBatchNum(2), as the usage page.
        r.a_layout = [2, 64, 1, 1, 32];
        r.b_layout = [2, 48, 1, 1, 32];
        r.c_layout = [2, 64, 1, 1, 48];
        r.batch_num = 2;
        let t = r.get_tiling().unwrap_or_else(|e| panic!("{name}: {e}"));
        check(p, &r, &t, D::Float16, D::Float16, Some(D::Float), name);
        assert_eq!(t.BatchNum, 2);
        assert_eq!(
            [
                t.ALayoutInfoB,
                t.ALayoutInfoS,
                t.ALayoutInfoD,
                t.BLayoutInfoS,
                t.CLayoutInfoS2
            ],
            [2, 64, 32, 48, 48]
        );
        assert_eq!((t.baseM, t.baseN), (64, 48));
    }
}
