//! The kernel-side Matmul on cube cores, tiled by the host tiling library as a user would:
//! results bit-exact against the documented accumulation order (C = bias or 0, then one fp32
//! rounding per 16-wide K fractal, in increasing K), int8 exact; tails in every dimension,
//! transposed operands, bias, the hazard checker on.

use ascendc::adv::matmul::{
    CubeFormat, MatmulConfig, MatmulCore, MatmulSpec, MatmulTilingRequest, MmDataType as D,
    MmInput, MmPosition as P, TCubeTiling, TilingKind,
};
use ascendc::api::cube::mode::round_hf32;
use ascendc::chip::ChipProfile;
use ascendc::prelude::*;
use ascendc::{DType, LaunchError, LaunchReport, Severity, TPosition};

/// Deterministic inputs: small multiples of 1/32 (exact in half).
fn halves(n: usize, seed: u32) -> Vec<f16> {
    (0..n)
        .map(|i| {
            let x = (i as u32).wrapping_mul(2_654_435_761).wrapping_add(seed) >> 20;
            f16::from_f32(((x % 257) as f32 - 128.0) / 32.0)
        })
        .collect()
}

fn int8s(n: usize, seed: u32) -> Vec<i8> {
    (0..n)
        .map(|i| ((i as u32).wrapping_mul(2_246_822_519).wrapping_add(seed) >> 13) as u8 as i8)
        .collect()
}

/// A (m × k) as stored: row-major, or its transpose when `trans`.
fn get<T: Copy>(v: &[T], rows: usize, cols: usize, r: usize, c: usize, trans: bool) -> T {
    if trans {
        v[c * rows + r]
    } else {
        v[r * cols + c]
    }
}

/// The documented order: per output, start from the bias (or 0); each 16-wide K fractal's exact
/// products are added to the fp32 accumulator with one rounding.
#[allow(clippy::too_many_arguments)]
fn reference(
    a: &[f16],
    b: &[f16],
    bias: Option<&[f32]>,
    (m, n, k): (usize, usize, usize),
    ta: bool,
    tb: bool,
) -> Vec<f32> {
    let mut c = vec![0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut acc = bias.map_or(0.0, |b| b[j]);
            for f in (0..k).step_by(16) {
                let mut s = acc as f64;
                for kk in f..(f + 16).min(k) {
                    s += get(a, m, k, i, kk, ta).to_f64() * get(b, k, n, kk, j, tb).to_f64();
                }
                acc = s as f32;
            }
            c[i * n + j] = acc;
        }
    }
    c
}

fn tiling(
    p: &ChipProfile,
    (m, n, k): (u32, u32, u32),
    dtypes: (D, D),
    (ta, tb): (bool, bool),
    bias: bool,
    base: Option<(i32, i32)>,
) -> TCubeTiling {
    let mut r = MatmulTilingRequest::new(p, TilingKind::MultiCore);
    r.set_a_type(P::GM, CubeFormat::ND, dtypes.0, ta)
        .set_b_type(P::GM, CubeFormat::ND, dtypes.0, tb)
        .set_c_type(P::GM, CubeFormat::ND, dtypes.1)
        .set_bias_type(P::GM, CubeFormat::ND, dtypes.1)
        .set_shape(m as i32, n as i32, k as i32)
        .set_org_shape(m as i32, n as i32, k as i32, k as i32)
        .set_dim(p.ai_cores as i32)
        .enable_bias(bias);
    if let Some((bm, bn)) = base {
        r.set_dim(1).set_fix_split(bm, bn, -1);
    }
    r.get_tiling().unwrap_or_else(|e| panic!("{e}"))
}

/// Each core takes its singleCoreM × singleCoreN window of C (tails by SetTail), as the
/// vendor's samples compute their offsets.
#[allow(clippy::too_many_arguments)]
fn run<A: MmInput, C: Element>(
    t: &TCubeTiling,
    spec: MatmulSpec,
    (a, b, bias, c): (&GmAddr, &GmAddr, Option<&GmAddr>, &GmAddr),
    (ta, tb): (bool, bool),
) -> std::result::Result<LaunchReport, LaunchError> {
    let t = *t;
    Launch::new(t.usedCoreNum as u32)
        .kernel_mode(KernelMode::Aic)
        .check_hazards(true)
        .run(|| {
            let blk = get_block_idx() as i32;
            let m_blocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
            let (mi, ni) = (blk % m_blocks, blk / m_blocks);
            let off_a = if ta {
                mi * t.singleCoreM
            } else {
                mi * t.singleCoreM * t.Ka
            };
            let off_b = if tb {
                ni * t.singleCoreN * t.Kb
            } else {
                ni * t.singleCoreN
            };
            let off_c = mi * t.singleCoreM * t.N + ni * t.singleCoreN;
            let mut pipe = TPipe::new();
            let mut mm = MatmulCore::<A, C, C>::new(spec);
            mm.init(&mut pipe, &t)?;
            let tail_m = (t.M - mi * t.singleCoreM).min(t.singleCoreM);
            let tail_n = (t.N - ni * t.singleCoreN).min(t.singleCoreN);
            mm.set_tail(tail_m, tail_n, -1)?;
            let mut ga = GlobalTensor::<A>::new();
            ga.set_global_buffer(a.clone());
            let mut gb = GlobalTensor::<A>::new();
            gb.set_global_buffer(b.clone());
            let mut gc = GlobalTensor::<C>::new();
            gc.set_global_buffer(c.clone());
            mm.set_tensor_a(&ga.at(off_a as u64)?, ta)?;
            mm.set_tensor_b(&gb.at(off_b as u64)?, tb)?;
            if let Some(bias) = bias {
                let mut g = GlobalTensor::<C>::new();
                g.set_global_buffer(bias.clone());
                mm.set_bias(&g.at((ni * t.singleCoreN) as u64)?)?;
            }
            mm.iterate_all(&gc.at(off_c as u64)?, 0)?;
            mm.end()
        })
}

fn half_case(
    shape: (u32, u32, u32),
    trans: (bool, bool),
    with_bias: bool,
    base: Option<(i32, i32)>,
) {
    let p = ChipProfile::by_name("A2").unwrap();
    let (m, n, k) = shape;
    let t = tiling(p, shape, (D::Float16, D::Float), trans, with_bias, base);
    let a = halves((m * k) as usize, 1);
    let b = halves((k * n) as usize, 2);
    let bias: Vec<f32> = (0..n).map(|j| (j % 7) as f32 - 3.25).collect();
    let (ga, gb, gbias) = (
        GmBuffer::from_slice(&a),
        GmBuffer::from_slice(&b),
        GmBuffer::from_slice(&bias),
    );
    let gc = GmBuffer::zeroed((m * n * 4) as usize);
    let spec = MatmulSpec::gm(DType::Half, DType::Float, DType::Float);
    let report = run::<f16, f32>(
        &t,
        spec,
        (
            &ga.addr(),
            &gb.addr(),
            with_bias.then(|| gbias.addr()).as_ref(),
            &gc.addr(),
        ),
        trans,
    )
    .unwrap_or_else(|e| panic!("{shape:?} {trans:?}: {e}"));
    let warnings: Vec<_> = report
        .diagnostics()
        .filter(|d| d.severity == Severity::Warning)
        .collect();
    assert!(warnings.is_empty(), "{shape:?}: {warnings:?}");
    let want = reference(
        &a,
        &b,
        with_bias.then_some(&bias[..]),
        (m as usize, n as usize, k as usize),
        trans.0,
        trans.1,
    );
    let got = gc.to_vec::<f32>();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(
            g.to_bits(),
            w.to_bits(),
            "{shape:?} {trans:?} bias {with_bias}: C[{}][{}] {g} != {w}",
            i / n as usize,
            i % n as usize
        );
    }
}

#[test]
fn half_to_float_bit_exact_with_tails_transposes_and_bias() {
    half_case((128, 256, 64), (false, false), true, None);
    half_case((1, 1, 1), (false, false), false, None);
    half_case((1, 40, 70), (false, false), true, None);
    half_case((37, 53, 71), (false, false), true, None);
    half_case((37, 53, 71), (true, true), true, None);
    half_case((100, 70, 300), (false, true), false, Some((32, 48)));
    half_case((300, 130, 200), (true, false), true, Some((64, 32)));
}

#[test]
fn int8_to_int32_exact() {
    let p = ChipProfile::by_name("A2").unwrap();
    for (m, n, k, tb) in [
        (32u32, 32u32, 32u32, true),
        (32u32, 32u32, 32u32, false),
        (64u32, 64u32, 64u32, false),
        (45, 70, 100, true),
        (33, 64, 96, false),
    ] {
        let t = tiling(p, (m, n, k), (D::Int8, D::Int32), (false, tb), false, None);
        let a = int8s((m * k) as usize, 3);
        let b = int8s((k * n) as usize, 4);
        let (ga, gb) = (GmBuffer::from_slice(&a), GmBuffer::from_slice(&b));
        let gc = GmBuffer::zeroed((m * n * 4) as usize);
        let spec = MatmulSpec::gm(DType::Int8, DType::Int32, DType::Int32);
        run::<i8, i32>(
            &t,
            spec,
            (&ga.addr(), &gb.addr(), None, &gc.addr()),
            (false, tb),
        )
        .unwrap_or_else(|e| panic!("{m}x{n}x{k}: {e}"));
        let got = gc.to_vec::<i32>();
        for i in 0..m as usize {
            for j in 0..n as usize {
                let want: i32 = (0..k as usize)
                    .map(|kk| {
                        a[i * k as usize + kk] as i32
                            * get(&b, k as usize, n as usize, kk, j, tb) as i32
                    })
                    .sum();
                assert_eq!(got[i * n as usize + j], want, "{m}x{n}x{k} C[{i}][{j}]");
            }
        }
    }
}

#[test]
fn mdl_config_gives_the_same_bits() {
    let p = ChipProfile::by_name("A2").unwrap();
    let (m, n, k) = (96, 80, 200);
    let t = tiling(
        p,
        (m, n, k),
        (D::Float16, D::Float),
        (false, false),
        false,
        None,
    );
    let a = halves((m * k) as usize, 5);
    let b = halves((k * n) as usize, 6);
    let (ga, gb) = (GmBuffer::from_slice(&a), GmBuffer::from_slice(&b));
    let gc = GmBuffer::zeroed((m * n * 4) as usize);
    let mut spec = MatmulSpec::gm(DType::Half, DType::Float, DType::Float);
    spec.cfg = MatmulConfig::MDL;
    run::<f16, f32>(
        &t,
        spec,
        (&ga.addr(), &gb.addr(), None, &gc.addr()),
        (false, false),
    )
    .unwrap();
    let want = reference(
        &a,
        &b,
        None,
        (m as usize, n as usize, k as usize),
        false,
        false,
    );
    assert_eq!(gc.to_vec::<f32>(), want);
}

#[test]
fn missing_operands_and_bad_tails_are_errors() {
    let p = ChipProfile::by_name("A2").unwrap();
    let t = tiling(
        p,
        (32, 32, 32),
        (D::Float16, D::Float),
        (false, false),
        false,
        None,
    );
    let e = Launch::new(1)
        .kernel_mode(KernelMode::Aic)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut mm = MatmulCore::<f16, f32, f32>::new(MatmulSpec::gm(
                DType::Half,
                DType::Float,
                DType::Float,
            ));
            mm.init(&mut pipe, &t)?;
            mm.iterate().map(drop)
        })
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("SetTensorA and SetTensorB must come before Iterate"),
        "{e}"
    );
    let e = Launch::new(1)
        .kernel_mode(KernelMode::Aic)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut mm = MatmulCore::<f16, f32, f32>::new(MatmulSpec::gm(
                DType::Half,
                DType::Float,
                DType::Float,
            ));
            mm.init(&mut pipe, &t)?;
            mm.set_tail(0, 5, -1)
        })
        .unwrap_err();
    assert!(e.to_string().contains("tailM is 0"), "{e}");
}

/// A mixed kernel as real ones are written: every core runs the same code; the cube core serves
/// inside REGIST_MATMUL_OBJ, each vector core computes its half of M through its client, one
/// IterateAll to GM and one block by Iterate + GetTensorC into UB then GM.
#[test]
fn mixed_kernel_vector_cores_drive_the_cube_core() {
    use ascendc::adv::matmul::{GmOperand, Kernel, MatmulHandle};
    let p = ChipProfile::by_name("A2").unwrap();
    let (m, n, k) = (64u32, 48u32, 80u32);
    let mut r = MatmulTilingRequest::new(p, TilingKind::Single);
    r.set_a_type(P::GM, CubeFormat::ND, D::Float16, false)
        .set_b_type(P::GM, CubeFormat::ND, D::Float16, false)
        .set_c_type(P::GM, CubeFormat::ND, D::Float)
        .set_bias_type(P::GM, CubeFormat::ND, D::Float)
        .set_shape((m / 2) as i32, n as i32, k as i32)
        .set_org_shape(m as i32, n as i32, k as i32, k as i32)
        .enable_bias(true);
    let t = r.get_tiling().unwrap();
    let a = halves((m * k) as usize, 7);
    let b = halves((k * n) as usize, 8);
    let bias: Vec<f32> = (0..n).map(|j| j as f32 * 0.5 - 7.0).collect();
    let (ga, gb, gbias) = (
        GmBuffer::from_slice(&a),
        GmBuffer::from_slice(&b),
        GmBuffer::from_slice(&bias),
    );
    let gc = GmBuffer::zeroed((m * n * 4) as usize);
    let gd = GmBuffer::zeroed((m * n * 4) as usize);
    let (aa, ba, biasa, ca, da) = (ga.addr(), gb.addr(), gbias.addr(), gc.addr(), gd.addr());
    let spec = MatmulSpec::gm(DType::Half, DType::Float, DType::Float);
    Launch::new(1)
        .kernel_mode(KernelMode::Mix)
        .check_hazards(true)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut mm = MatmulHandle::new(spec);
            if MatmulHandle::register(&mut pipe, Kernel::Mixed, &mut [(&mut mm, Some(t))])? {
                return Ok(());
            }
            let half = get_block_idx() % 2;
            let row0 = (half * m / 2) as u64;
            let g = |addr: &GmAddr, at: u64, dtype: DType| GmOperand {
                addr: addr.add_bytes(at as usize * dtype.size()),
                size: 0,
                dtype,
            };
            mm.set_tensor_a(g(&aa, row0 * k as u64, DType::Half), false)?;
            mm.set_tensor_b(g(&ba, 0, DType::Half), false)?;
            mm.set_bias(g(&biasa, 0, DType::Float))?;
            mm.iterate_all(g(&ca, row0 * n as u64, DType::Float), 0)?;
            // Again block by block through UB.
            let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
            pipe.init_buffer(&mut q, 1, t.baseM as u32 * t.baseN as u32 * 4)?;
            mm.set_tensor_a(g(&aa, row0 * k as u64, DType::Half), false)?;
            mm.set_bias(g(&biasa, 0, DType::Float))?;
            let mut gout = GlobalTensor::<f32>::new();
            gout.set_global_buffer(da.clone());
            let mut blocks = 0;
            while mm.iterate(true)? {
                let ub = q.alloc_tensor::<f32>()?;
                mm.get_tensor_c_ub(&ub.reinterpret_cast::<u8>(), true)?;
                q.enque(&ub)?;
                let ub = q.deque::<f32>()?;
                // One block per tiling (the whole half): rows of n values.
                data_copy(&gout.at(row0 * n as u64)?, &ub, (m / 2) * n)?;
                q.free_tensor(&ub)?;
                blocks += 1;
            }
            mm.end()?;
            assert_eq!(blocks, 1, "one block per vector core with this tiling");
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let want = reference(
        &a,
        &b,
        Some(&bias),
        (m as usize, n as usize, k as usize),
        false,
        false,
    );
    assert_eq!(gc.to_vec::<f32>(), want);
    assert_eq!(gd.to_vec::<f32>(), want);
}

/// A vector core's Matmul without a cube core to serve it is refused with what to do.
#[test]
fn a_vector_only_launch_cannot_serve_a_mixed_matmul() {
    use ascendc::adv::matmul::{Kernel, MatmulHandle};
    let spec = MatmulSpec::gm(DType::Half, DType::Float, DType::Float);
    let e = Launch::new(1)
        .kernel_mode(KernelMode::Aiv)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut mm = MatmulHandle::new(spec);
            MatmulHandle::register(&mut pipe, Kernel::Mixed, &mut [(&mut mm, None)])?;
            mm.end()
        })
        .unwrap_err();
    assert!(
        e.to_string().contains("needs a cube core in its AI Core"),
        "{e}"
    );
}

/// IterateBatch over NORMAL-layout batches: three A against one B (repeat-each broadcast), a
/// shared bias.
#[test]
fn batch_matmul_normal_layout_broadcasts_and_shares_the_bias() {
    let p = ChipProfile::by_name("A2").unwrap();
    let (m, n, k, batch) = (32u32, 48u32, 64u32, 3u32);
    let t = tiling(
        p,
        (m, n, k),
        (D::Float16, D::Float),
        (false, false),
        true,
        None,
    );
    let a = halves((batch * m * k) as usize, 9);
    let b = halves((k * n) as usize, 10);
    let bias: Vec<f32> = (0..n).map(|j| 1.0 - j as f32 / 8.0).collect();
    let (ga, gb, gbias) = (
        GmBuffer::from_slice(&a),
        GmBuffer::from_slice(&b),
        GmBuffer::from_slice(&bias),
    );
    let gc = GmBuffer::zeroed((batch * m * n * 4) as usize);
    let mut spec = MatmulSpec::gm(DType::Half, DType::Float, DType::Float);
    spec.a.layout = 4;
    spec.b.layout = 4;
    spec.c.layout = 4;
    spec.cfg.bias_batch = false;
    let (aa, ba, biasa, ca) = (ga.addr(), gb.addr(), gbias.addr(), gc.addr());
    let mut t1 = t;
    t1.usedCoreNum = 1;
    t1.singleCoreM = m as i32;
    t1.singleCoreN = n as i32;
    Launch::new(1)
        .kernel_mode(KernelMode::Aic)
        .check_hazards(true)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut mm = MatmulCore::<f16, f32, f32>::new(spec);
            mm.init(&mut pipe, &t1)?;
            let tensor = |addr: &GmAddr| {
                let mut g = GlobalTensor::<f16>::new();
                g.set_global_buffer(addr.clone());
                g
            };
            mm.set_tensor_a(&tensor(&aa), false)?;
            mm.set_tensor_b(&tensor(&ba), false)?;
            let mut gbias = GlobalTensor::<f32>::new();
            gbias.set_global_buffer(biasa.clone());
            mm.set_bias(&gbias)?;
            let mut gc = GlobalTensor::<f32>::new();
            gc.set_global_buffer(ca.clone());
            mm.iterate_batch(&gc, batch, 1, false)?;
            mm.end()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let got = gc.to_vec::<f32>();
    let mk = (m * k) as usize;
    let mn = (m * n) as usize;
    for i in 0..batch as usize {
        let want = reference(
            &a[i * mk..(i + 1) * mk],
            &b,
            Some(&bias),
            (m as usize, n as usize, k as usize),
            false,
            false,
        );
        assert_eq!(&got[i * mn..(i + 1) * mn], &want[..], "batch {i}");
    }
}

/// TrianUpperMatmulPolicy: every block is computed, only those on or above the diagonal of the
/// core's window (block m <= block n) are written; the rest of C keeps what it held.
#[test]
fn upper_triangular_policy_writes_the_blocks_on_and_above_the_diagonal() {
    let p = ChipProfile::by_name("A2").unwrap();
    let (m, n, k) = (64u32, 64u32, 32u32);
    let mut t = tiling(
        p,
        (m, n, k),
        (D::Float16, D::Float),
        (false, false),
        false,
        Some((16, 16)),
    );
    t.usedCoreNum = 1;
    t.singleCoreM = m as i32;
    t.singleCoreN = n as i32;
    let a = halves((m * k) as usize, 11);
    let b = halves((k * n) as usize, 12);
    let (ga, gb) = (GmBuffer::from_slice(&a), GmBuffer::from_slice(&b));
    let sentinel = vec![-7.5f32; (m * n) as usize];
    let gc = GmBuffer::from_slice(&sentinel);
    let mut spec = MatmulSpec::gm(DType::Half, DType::Float, DType::Float);
    spec.cfg.policy = 2;
    run::<f16, f32>(
        &t,
        spec,
        (&ga.addr(), &gb.addr(), None, &gc.addr()),
        (false, false),
    )
    .unwrap();
    let want = reference(
        &a,
        &b,
        None,
        (m as usize, n as usize, k as usize),
        false,
        false,
    );
    let got = gc.to_vec::<f32>();
    for i in 0..m as usize {
        for j in 0..n as usize {
            let (bm, bn) = (i / t.baseM as usize, j / t.baseN as usize);
            let expect = if bm <= bn {
                want[i * n as usize + j]
            } else {
                -7.5
            };
            assert_eq!(
                got[i * n as usize + j],
                expect,
                "C[{i}][{j}] block ({bm}, {bn})"
            );
        }
    }
}

/// Copy callbacks are not run: registering a Matmul declared with them warns, naming what the
/// Matmul does instead.
#[test]
fn copy_callbacks_are_not_run_and_say_so() {
    use ascendc::adv::matmul::{Kernel, MatmulHandle};
    let mut spec = MatmulSpec::gm(DType::Half, DType::Float, DType::Float);
    spec.cfg.callbacks = true;
    let report = Launch::new(1)
        .kernel_mode(KernelMode::Aic)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut mm = MatmulHandle::new(spec);
            MatmulHandle::register(&mut pipe, Kernel::CubeOnly, &mut [(&mut mm, None)]).map(drop)
        })
        .unwrap();
    let w: Vec<String> = report.diagnostics().map(|d| d.message.clone()).collect();
    assert!(
        w.iter().any(|m| m.contains("copy functions are not run")),
        "{w:?}"
    );
}

/// `rows × cols` of a row-major matrix as NZ: columns in groups of 16, each group `h_al` rows.
fn to_nz(v: &[f16], rows: usize, cols: usize, h_al: usize) -> Vec<f16> {
    let w_al = cols.div_ceil(16) * 16;
    let mut out = vec![f16::ZERO; h_al * w_al];
    for r in 0..rows {
        for c in 0..cols {
            out[(c / 16) * h_al * 16 + r * 16 + c % 16] = v[r * cols + c];
        }
    }
    out
}

#[test]
fn tscm_operands_are_read_where_they_are_in_l1() {
    // A (m × k) and a transposed B (n × k rows) arrive in GM as NZ; the kernel copies them into
    // TSCM through GM → TSCM queues and the Matmul reads both from L1, tiles of 32 × 32 × 32.
    let (m, n, k) = (80usize, 48usize, 96usize);
    let p = ChipProfile::by_name("A2").unwrap();
    let mut r = MatmulTilingRequest::new(p, TilingKind::MultiCore);
    r.set_a_type(P::TSCM, CubeFormat::NZ, D::Float16, false)
        .set_b_type(P::TSCM, CubeFormat::NZ, D::Float16, true)
        .set_c_type(P::GM, CubeFormat::ND, D::Float)
        .set_bias_type(P::GM, CubeFormat::ND, D::Float)
        .set_shape(m as i32, n as i32, k as i32)
        .set_org_shape(m as i32, n as i32, k as i32, k as i32)
        .set_dim(1)
        .set_fix_split(32, 32, 32)
        .enable_bias(true);
    let t = r.get_tiling().unwrap();
    let a = halves(m * k, 5);
    let b = halves(k * n, 6);
    let bt: Vec<f16> = (0..n * k).map(|x| b[(x % k) * n + x / k]).collect();
    let bias: Vec<f32> = (0..n).map(|j| j as f32 * 0.25 - 4.0).collect();
    let (a_nz, b_nz) = (to_nz(&a, m, k, 80), to_nz(&bt, n, k, 48));
    let (ga, gb, gbias) = (
        GmBuffer::from_slice(&a_nz),
        GmBuffer::from_slice(&b_nz),
        GmBuffer::from_slice(&bias),
    );
    let gc = GmBuffer::zeroed(m * n * 4);
    let mut spec = MatmulSpec::gm(DType::Half, DType::Float, DType::Float);
    spec.a.pos = TPosition::TSCM;
    spec.a.format = CubeFormat::NZ;
    spec.b = spec.a.transposable();
    let (aa, ba, biasa, ca) = (ga.addr(), gb.addr(), gbias.addr(), gc.addr());
    let (na, nb) = (a_nz.len(), b_nz.len());
    let report = Launch::new(1)
        .kernel_mode(KernelMode::Aic)
        .check_hazards(true)
        .run(move || {
            let mut pipe = TPipe::new();
            let mut mm = MatmulCore::<f16, f32, f32>::new(spec);
            mm.init(&mut pipe, &t)?;
            let mut qa = TQueBind::<QuePosition::GM, QuePosition::TSCM, 1>::new();
            let mut qb = TQueBind::<QuePosition::GM, QuePosition::TSCM, 1>::new();
            pipe.init_buffer(&mut qa, 1, (na * 2) as u32)?;
            pipe.init_buffer(&mut qb, 1, (nb * 2) as u32)?;
            let (mut x, mut y, mut bias, mut z) = (
                GlobalTensor::<f16>::new(),
                GlobalTensor::<f16>::new(),
                GlobalTensor::<f32>::new(),
                GlobalTensor::<f32>::new(),
            );
            x.set_global_buffer(aa.clone());
            y.set_global_buffer(ba.clone());
            bias.set_global_buffer(biasa.clone());
            z.set_global_buffer(ca.clone());
            let la = qa.alloc_tensor::<f16>()?;
            data_copy(&la, &x, na as u32)?;
            qa.enque(&la)?;
            let la = qa.deque::<f16>()?;
            let lb = qb.alloc_tensor::<f16>()?;
            data_copy(&lb, &y, nb as u32)?;
            qb.enque(&lb)?;
            let lb = qb.deque::<f16>()?;
            mm.set_tensor_l1(false, &la, false)?;
            mm.set_tensor_l1(true, &lb, true)?;
            mm.set_bias(&bias)?;
            mm.iterate_all(&z, 0)?;
            mm.end()?;
            qa.free_tensor(&la)?;
            qb.free_tensor(&lb)
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let diags: Vec<_> = report.diagnostics().collect();
    assert!(diags.is_empty(), "{diags:#?}");
    let want = reference(&a, &b, Some(&bias), (m, n, k), false, false);
    let got = gc.to_vec::<f32>();
    assert!(
        got.iter()
            .zip(&want)
            .all(|(g, w)| g.to_bits() == w.to_bits()),
        "TSCM operands differ from the documented order"
    );
}

#[test]
fn a_local_operand_needs_a_tscm_declaration() {
    let p = ChipProfile::by_name("A2").unwrap();
    let t = tiling(
        p,
        (32, 32, 32),
        (D::Float16, D::Float),
        (false, false),
        false,
        None,
    );
    let err = Launch::new(1)
        .kernel_mode(KernelMode::Aic)
        .run(move || {
            let mut pipe = TPipe::new();
            let mut mm = MatmulCore::<f16, f32, f32>::new(MatmulSpec::gm(
                DType::Half,
                DType::Float,
                DType::Float,
            ));
            mm.init(&mut pipe, &t)?;
            let mut q = TQue::<QuePosition::A1, 1>::new();
            pipe.init_buffer(&mut q, 1, 2048)?;
            let l = q.alloc_tensor::<f16>()?;
            mm.set_tensor_l1(false, &l, false)
        })
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("Matmul::SetTensorA") && err.contains("TPosition::TSCM"),
        "{err}"
    );
}

#[test]
fn int4_to_int32_exact_with_bias() {
    // int4b_t inputs (two to a byte, the even element in the low nibble), K in 64-wide
    // fractals, B transposed or not, an int32 bias started through the BiasTable.
    let p = ChipProfile::by_name("A2").unwrap();
    for (m, n, k, tb) in [
        (16u32, 16u32, 64u32, false),
        (40, 70, 130, false),
        (64, 96, 256, true),
        (33, 130, 128, false),
    ] {
        let (mu, nu, ku) = (m as usize, n as usize, k as usize);
        let t = tiling(p, (m, n, k), (D::Int4, D::Int32), (false, tb), true, None);
        let val = |i: usize, seed: u32| {
            (((i as u32).wrapping_mul(2_654_435_761).wrapping_add(seed) >> 16) % 16) as i32 - 8
        };
        let a: Vec<Int4> = (0..mu * ku).map(|i| Int4::new(val(i, 7))).collect();
        let b: Vec<Int4> = (0..ku * nu).map(|i| Int4::new(val(i, 9))).collect();
        let bias: Vec<i32> = (0..nu).map(|j| j as i32 * 3 - 100).collect();
        let (ga, gb, gbias) = (
            GmBuffer::from_bytes(Int4::pack(&a)),
            GmBuffer::from_bytes(Int4::pack(&b)),
            GmBuffer::from_slice(&bias),
        );
        let gc = GmBuffer::zeroed(mu * nu * 4);
        let mut spec = MatmulSpec::gm(DType::Int4, DType::Int32, DType::Int32);
        if tb {
            spec.b = spec.b.transposable();
        }
        run::<Int4, i32>(
            &t,
            spec,
            (&ga.addr(), &gb.addr(), Some(&gbias.addr()), &gc.addr()),
            (false, tb),
        )
        .unwrap_or_else(|e| panic!("{m}x{n}x{k}: {e}"));
        let got = gc.to_vec::<i32>();
        for i in 0..mu {
            for j in 0..nu {
                let want: i32 = bias[j]
                    + (0..ku)
                        .map(|kk| {
                            a[i * ku + kk].value() as i32
                                * get(&b, ku, nu, kk, j, tb).value() as i32
                        })
                        .sum::<i32>();
                assert_eq!(got[i * nu + j], want, "{m}x{n}x{k} tb {tb} C[{i}][{j}]");
            }
        }
    }
}

#[test]
fn float_matmul_with_hf32_rounds_the_inputs_first() {
    // SetHF32(true, transMode): every float input is rounded to HF32 (11 mantissa bits; ties to
    // even, or away from zero with transMode 1), then the cube's float order (8-wide fractals).
    // B is given transposed (n × k), as float B must be.
    let (m, n, k) = (40usize, 24usize, 50usize);
    let p = ChipProfile::by_name("A2").unwrap();
    let t = tiling(
        p,
        (m as u32, n as u32, k as u32),
        (D::Float, D::Float),
        (false, true),
        false,
        None,
    );
    let val = |i: usize, s: u32| {
        let x = (i as u32).wrapping_mul(2_654_435_761).wrapping_add(s);
        f32::from_bits(0x3f80_0000 | (x >> 9)) - 1.5
    };
    let a: Vec<f32> = (0..m * k).map(|i| val(i, 1)).collect();
    let b: Vec<f32> = (0..k * n).map(|i| val(i, 2)).collect();
    for (hf32, mode) in [(false, 0), (true, 0), (true, 1)] {
        let (ga, gb) = (GmBuffer::from_slice(&a), GmBuffer::from_slice(&b));
        let gc = GmBuffer::zeroed(m * n * 4);
        let (aa, ba, ca) = (ga.addr(), gb.addr(), gc.addr());
        Launch::new(1)
            .kernel_mode(KernelMode::Aic)
            .check_hazards(true)
            .run(move || {
                let mut pipe = TPipe::new();
                let mut spec = MatmulSpec::gm(DType::Float, DType::Float, DType::Float);
                spec.b = spec.b.transposable();
                let mut mm = MatmulCore::<f32, f32, f32>::new(spec);
                mm.init(&mut pipe, &t)?;
                mm.set_hf32(hf32, mode)?;
                let (mut x, mut y, mut z) = (
                    GlobalTensor::<f32>::new(),
                    GlobalTensor::<f32>::new(),
                    GlobalTensor::<f32>::new(),
                );
                x.set_global_buffer(aa.clone());
                y.set_global_buffer(ba.clone());
                z.set_global_buffer(ca.clone());
                mm.set_tensor_a(&x, false)?;
                mm.set_tensor_b(&y, true)?;
                mm.iterate_all(&z, 0)?;
                mm.end()
            })
            .unwrap_or_else(|e| panic!("{e}"));
        let r = |v: f32| {
            if hf32 {
                round_hf32(v, mode == 1) as f64
            } else {
                v as f64
            }
        };
        let got = gc.to_vec::<f32>();
        for i in 0..m {
            for j in 0..n {
                let mut acc = 0f32;
                for f in (0..k).step_by(8) {
                    let mut s = acc as f64;
                    for kk in f..(f + 8).min(k) {
                        s += r(a[i * k + kk]) * r(b[j * k + kk]);
                    }
                    acc = s as f32;
                }
                assert_eq!(
                    got[i * n + j].to_bits(),
                    acc.to_bits(),
                    "hf32 {hf32} mode {mode} C[{i}][{j}]"
                );
            }
        }
    }
}

#[test]
fn sparse_b_with_its_index_matrix_is_exact() {
    // A 4:2 sparse Bᵀ (n × k, two non-zeros in every 4) densified to n × k/2 with its index
    // matrix (2-bit positions, four to a byte, NZ fractals of 16 rows × 8 bytes), MDL, baseK 64.
    let (m, n, k) = (48usize, 40usize, 192usize);
    let p = ChipProfile::by_name("A2").unwrap();
    let mut r = MatmulTilingRequest::new(p, TilingKind::MultiCore);
    r.set_a_type(P::GM, CubeFormat::ND, D::Int8, false)
        .set_b_type(P::GM, CubeFormat::ND, D::Int8, true)
        .set_c_type(P::GM, CubeFormat::ND, D::Int32)
        .set_bias_type(P::GM, CubeFormat::ND, D::Int32)
        .set_shape(m as i32, n as i32, k as i32)
        .set_org_shape(m as i32, n as i32, k as i32, k as i32)
        .set_dim(1);
    r.sparse = 1;
    let t = r.get_tiling().unwrap();
    assert_eq!(t.baseK % 64, 0, "{t:?}");
    let a = int8s(m * k, 11);
    // Row j of Bᵀ: in each group of 4, positions (p0, p1) with p0 < p1, values from int8s.
    let vals = int8s(n * k / 2, 12);
    let mut dense = vec![0i8; n * k / 2];
    let mut idx = vec![0u8; n * k / 8];
    let mut bt = vec![0i32; n * k];
    for j in 0..n {
        for g in 0..k / 4 {
            let h = (j * 131 + g * 17) % 6;
            let (p0, p1) = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)][h];
            let (v0, v1) = (vals[j * k / 2 + 2 * g], vals[j * k / 2 + 2 * g + 1]);
            dense[j * k / 2 + 2 * g] = v0;
            dense[j * k / 2 + 2 * g + 1] = v1;
            bt[j * k + 4 * g + p0] = v0 as i32;
            bt[j * k + 4 * g + p1] = v1 as i32;
            // Indices: the first element's position, the second's minus one.
            let (i0, i1) = (p0 as u8, (p1 - 1) as u8);
            let e = 2 * g; // index number of the first element in the row
            idx[j * k / 8 + e / 4] |= i0 << (2 * (e % 4));
            idx[j * k / 8 + (e + 1) / 4] |= i1 << (2 * ((e + 1) % 4));
        }
    }
    // The index matrix in NZ: column groups of 8 bytes, align16(n) rows each.
    let rows = n.div_ceil(16) * 16;
    let mut idx_nz = vec![0u8; rows * (k / 8).div_ceil(8) * 8];
    for j in 0..n {
        for c in 0..k / 8 {
            idx_nz[(c / 8) * 8 * rows + j * 8 + c % 8] = idx[j * k / 8 + c];
        }
    }
    let (ga, gb, gi) = (
        GmBuffer::from_slice(&a),
        GmBuffer::from_slice(&dense),
        GmBuffer::from_slice(&idx_nz),
    );
    let gc = GmBuffer::zeroed(m * n * 4);
    let mut spec = MatmulSpec::gm(DType::Int8, DType::Int32, DType::Int32);
    spec.b.sparse = true;
    spec.cfg = MatmulConfig::MDL;
    let (aa, ba, ia, ca) = (ga.addr(), gb.addr(), gi.addr(), gc.addr());
    let report = Launch::new(1)
        .kernel_mode(KernelMode::Aic)
        .check_hazards(true)
        .run(move || {
            let mut pipe = TPipe::new();
            let mut mm = MatmulCore::<i8, i32, i32>::new(spec);
            mm.init(&mut pipe, &t)?;
            let (mut x, mut y, mut z) = (
                GlobalTensor::<i8>::new(),
                GlobalTensor::<i8>::new(),
                GlobalTensor::<i32>::new(),
            );
            let mut w = GlobalTensor::<u8>::new();
            x.set_global_buffer(aa.clone());
            y.set_global_buffer(ba.clone());
            z.set_global_buffer(ca.clone());
            w.set_global_buffer(ia.clone());
            mm.set_tensor_a(&x, false)?;
            mm.set_tensor_b(&y, true)?;
            mm.set_sparse_index(&w)?;
            mm.iterate_all(&z, 0)?;
            mm.end()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let diags: Vec<_> = report.diagnostics().collect();
    assert!(diags.is_empty(), "{diags:#?}");
    let got = gc.to_vec::<i32>();
    for i in 0..m {
        for j in 0..n {
            let want: i32 = (0..k).map(|kk| a[i * k + kk] as i32 * bt[j * k + kk]).sum();
            assert_eq!(got[i * n + j], want, "C[{i}][{j}]");
        }
    }
}
