//! `int4b_t` end to end: tensor handles of packed nibbles, Cast half ↔ int4b_t (every rounding
//! mode, level 2 and level 0, masks, saturation) and the cube path GM → L1 (ND→NZ) → L0A/L0B
//! (LoadData, LoadDataWithTranspose) → Mmad int4b_t × int4b_t → int32_t, all against goldens
//! computed here with plain loops.

use crate::common;
use ascendc::chip::{ASCEND310P, ASCEND910, ASCEND910B};
use ascendc::prelude::*;
use ascendc::{set_saturation_flag_mode, Hardware, LocalMemAllocator, SaturationMode};
use common::*;

/// Halves in [-9.5, 8.75] in quarter steps: ties, saturation on both sides and exact integers.
fn halves(n: usize, seed: u32) -> Vec<f16> {
    (0..n)
        .map(|i| {
            let x = (i as u32).wrapping_mul(2_654_435_761).wrapping_add(seed) >> 16;
            f16::from_f32((x % 74) as f32 / 4.0 - 9.5)
        })
        .collect()
}

/// int4 values in [-8, 7].
fn nibbles(n: usize, seed: u32) -> Vec<i8> {
    (0..n)
        .map(|i| (((i as u32).wrapping_mul(2_246_822_519).wrapping_add(seed) >> 13) % 16) as i8 - 8)
        .collect()
}

/// Two values to a byte, the first in the low four bits.
fn pack(v: &[i8]) -> Vec<u8> {
    v.chunks(2)
        .map(|p| (p[0] as u8 & 0xF) | (p[1] as u8 & 0xF) << 4)
        .collect()
}

/// The value in the low (`high` false) or high four bits of `b`, sign-extended.
fn nibble(b: u8, high: bool) -> i8 {
    let v = if high { b >> 4 } else { b & 0xF } as i8;
    if v >= 8 {
        v - 16
    } else {
        v
    }
}

/// half → int4b_t as the documentation describes it: rounded with the mode, saturated.
fn to_int4(x: f16, mode: RoundMode) -> i8 {
    let x = x.to_f64();
    let r = match mode {
        RoundMode::CAST_FLOOR => x.floor(),
        RoundMode::CAST_CEIL => x.ceil(),
        RoundMode::CAST_ROUND => x.round(),
        RoundMode::CAST_TRUNC => x.trunc(),
        _ => x.round_ties_even(),
    };
    r.clamp(-8.0, 7.0) as i8
}

/// Runs a one-block vector kernel: `n` halves from GM into UB, `body(dst, src)` with `dst` an
/// int4b_t view of `n / 2` bytes filled with `fill` first, the bytes back to GM.
fn half_to_int4_kernel(
    x: &[f16],
    fill: u8,
    body: impl Fn(&LocalTensor<Int4>, &LocalTensor<f16>) -> Result<()> + Sync,
) -> Vec<u8> {
    let n = x.len();
    let gx = GmBuffer::from_slice(x);
    let gy = GmBuffer::from_slice(&vec![fill; n / 2]);
    let (xa, ya) = (gx.addr(), gy.addr());
    run(|| {
        let mut ub = LocalMemAllocator::new(Hardware::UB)?;
        let xl = ub.alloc::<f16>(n as u32)?;
        let yl = ub.alloc::<u8>((n / 2) as u32)?;
        let mut xg = GlobalTensor::<f16>::new();
        xg.set_global_buffer(xa.clone());
        let mut yg = GlobalTensor::<u8>::new();
        yg.set_global_buffer(ya.clone());
        data_copy(&xl, &xg, n as u32)?;
        data_copy(&yl, &yg, (n / 2) as u32)?;
        body(&yl.reinterpret_cast::<Int4>(), &xl)?;
        data_copy(&yg, &yl, (n / 2) as u32)
    });
    gy.to_vec::<u8>()
}

#[test]
fn half_to_int4_in_every_rounding_mode() {
    let x = halves(1024, 3);
    for mode in [
        RoundMode::CAST_NONE,
        RoundMode::CAST_RINT,
        RoundMode::CAST_FLOOR,
        RoundMode::CAST_CEIL,
        RoundMode::CAST_ROUND,
        RoundMode::CAST_TRUNC,
    ] {
        let got = half_to_int4_kernel(&x, 0, |d, s| cast(d, s, mode, 1024));
        let want = pack(&x.iter().map(|v| to_int4(*v, mode)).collect::<Vec<_>>());
        assert_eq!(got, want, "{mode}");
    }
}

#[test]
fn half_to_int4_level0_as_the_vendor_example_calls_it() {
    // mask 128, 4 repeats, {dstBlk 1, srcBlk 1, dstRep 2, srcRep 8}: 512 elements contiguous.
    let x = halves(512, 11);
    let got = half_to_int4_kernel(&x, 0, |d, s| {
        cast_l0(
            d,
            s,
            RoundMode::CAST_CEIL,
            128u64,
            4,
            UnaryRepeatParams::new(1, 1, 2, 8),
        )
    });
    let want = pack(
        &x.iter()
            .map(|v| to_int4(*v, RoundMode::CAST_CEIL))
            .collect::<Vec<_>>(),
    );
    assert_eq!(got, want);
}

#[test]
fn a_bitwise_mask_enables_whole_bytes_and_the_rest_stays() {
    // Lanes 0–3, 8–11, … of each repeat (pairs of equal bits); two repeats.
    let mask = [0x0F0F_0F0F_0F0F_0F0F, 0x00FF_00FF_00FF_00FF];
    let x = halves(256, 5);
    let got = half_to_int4_kernel(&x, 0xAA, |d, s| {
        cast_l0(
            d,
            s,
            RoundMode::CAST_RINT,
            mask,
            2,
            UnaryRepeatParams::new(1, 1, 2, 8),
        )
    });
    let on = |lane: usize| (mask[lane / 64] >> (lane % 64)) & 1 == 1;
    for (j, b) in got.iter().enumerate() {
        let lane = (2 * j) % 128;
        let want = if on(lane) {
            pack(&[
                to_int4(x[2 * j], RoundMode::CAST_RINT),
                to_int4(x[2 * j + 1], RoundMode::CAST_RINT),
            ])[0]
        } else {
            0xAA
        };
        assert_eq!(*b, want, "byte {j}");
    }
}

#[test]
fn int4_to_half_is_exact_and_low_nibble_first() {
    let v = nibbles(512, 9);
    let bytes = pack(&v);
    let gx = GmBuffer::from_slice(&bytes);
    let gy = GmBuffer::zeroed(512 * 2);
    let (xa, ya) = (gx.addr(), gy.addr());
    run(|| {
        let mut ub = LocalMemAllocator::new(Hardware::UB)?;
        let xl = ub.alloc::<u8>(256)?;
        let yl = ub.alloc::<f16>(512)?;
        let mut xg = GlobalTensor::<u8>::new();
        xg.set_global_buffer(xa.clone());
        let mut yg = GlobalTensor::<f16>::new();
        yg.set_global_buffer(ya.clone());
        data_copy(&xl, &xg, 256u32)?;
        let x4 = xl.reinterpret_cast::<Int4>();
        assert_eq!(x4.get_size(), 512);
        cast(&yl, &x4, RoundMode::CAST_NONE, 512)?;
        data_copy(&yg, &yl, 512u32)
    });
    let got = gy.to_vec::<f16>();
    for (i, h) in got.iter().enumerate() {
        let want = nibble(bytes[i / 2], i % 2 == 1);
        assert_eq!(h.to_f64(), want as f64, "element {i}");
    }
}

#[test]
fn saturation_off_keeps_the_low_four_bits() {
    let x: Vec<f16> = [9.0, -9.0, 7.0, 100.0]
        .iter()
        .cycle()
        .take(128)
        .map(|v| f16::from_f32(*v))
        .collect();
    let got = half_to_int4_kernel(&x, 0, |d, s| {
        set_saturation_flag_mode(SaturationMode::CAST, false)?;
        cast(d, s, RoundMode::CAST_RINT, 128)
    });
    // 9 → 0b1001 = -7, -9 → 0b0111 = 7, 7 → 7, 100 → 0b0100 = 4.
    assert_eq!(&got[..2], &pack(&[-7, 7, 7, 4])[..]);
}

#[test]
fn products_and_rules() {
    let x = halves(128, 1);
    // Atlas inference series: half → int4b_t with CAST_NONE only; no int4b_t → half.
    let gx = GmBuffer::from_slice(&x);
    let xa = gx.addr();
    let on_310p = |mode: RoundMode, back: bool| {
        let xa = xa.clone();
        move || -> Result<()> {
            let mut ub = LocalMemAllocator::new(Hardware::UB)?;
            let xl = ub.alloc::<f16>(128)?;
            let yl = ub.alloc::<u8>(64)?.reinterpret_cast::<Int4>();
            let mut xg = GlobalTensor::<f16>::new();
            xg.set_global_buffer(xa.clone());
            data_copy(&xl, &xg, 128u32)?;
            if back {
                cast(&xl, &yl, mode, 128)
            } else {
                cast(&yl, &xl, mode, 128)
            }
        }
    };
    run_on(&ASCEND310P, on_310p(RoundMode::CAST_NONE, false));
    let e = fail_on(&ASCEND310P, on_310p(RoundMode::CAST_CEIL, false));
    assert_mentions(&e, &["Cast", "roundMode", "CAST_CEIL", "half → int4b_t"]);
    let e = fail_on(&ASCEND310P, on_310p(RoundMode::CAST_NONE, true));
    assert_mentions(&e, &["int4b_t → half", "not supported"]);
    let e = fail_on(&ASCEND910, on_310p(RoundMode::CAST_NONE, false));
    assert_mentions(&e, &["half → int4b_t", "not supported"]);
}

#[test]
fn counts_and_masks_must_fill_whole_bytes() {
    let x = halves(128, 2);
    let gx = GmBuffer::from_slice(&x);
    let xa = gx.addr();
    let kernel = |f: fn(&LocalTensor<Int4>, &LocalTensor<f16>) -> Result<()>| {
        let xa = xa.clone();
        move || -> Result<()> {
            let mut ub = LocalMemAllocator::new(Hardware::UB)?;
            let xl = ub.alloc::<f16>(128)?;
            let yl = ub.alloc::<u8>(64)?.reinterpret_cast::<Int4>();
            let mut xg = GlobalTensor::<f16>::new();
            xg.set_global_buffer(xa.clone());
            data_copy(&xl, &xg, 128u32)?;
            f(&yl, &xl)
        }
    };
    let e = fail(kernel(|d, s| cast(d, s, RoundMode::CAST_RINT, 127)));
    assert_mentions(&e, &["Cast", "`count` = 127", "even"]);
    let e = fail(kernel(|d, s| {
        cast_l0(
            d,
            s,
            RoundMode::CAST_RINT,
            63u64,
            1,
            UnaryRepeatParams::new(1, 1, 2, 8),
        )
    }));
    assert_mentions(&e, &["`mask` = 63", "even"]);
    let e = fail(kernel(|d, s| {
        let m = [0b0110u64, 0];
        cast_l0(
            d,
            s,
            RoundMode::CAST_RINT,
            m,
            1,
            UnaryRepeatParams::new(1, 1, 2, 8),
        )
    }));
    assert_mentions(&e, &["mask bits 0 and 1 differ", "int4b_t"]);
}

#[test]
fn int4_tensor_handles_count_elements() {
    run(|| {
        let mut ub = LocalMemAllocator::new(Hardware::UB)?;
        let t = ub.alloc::<Int4>(128)?;
        assert_eq!((t.get_size(), t.get_length()), (128, 64));
        assert_eq!(t.at(64)?.get_phy_addr(), t.get_phy_addr() + 32);
        t.set_value(6, Int4::new(6))?;
        t.set_value(7, Int4::new(-1))?;
        t.set_value(8, Int4::new(-8))?;
        assert_eq!(t.get_value(7)?.value(), -1);
        assert_eq!(t.get_value(6)?.value(), 6);
        let bytes = t.reinterpret_cast::<u8>();
        assert_eq!(bytes.get_value(3)?, 0xF6);
        assert_eq!(bytes.get_value(4)? & 0xF, 0x8);
        let mut u = t;
        u.set_size(34)?;
        assert_eq!((u.get_size(), u.get_length()), (34, 17));
        Ok(())
    });
    let e = fail(|| {
        let t = LocalMemAllocator::new(Hardware::UB)?.alloc::<Int4>(128)?;
        t.at(3).map(|_| ())
    });
    assert_mentions(&e, &["LocalTensor::operator[]", "offset = 3", "int4b_t"]);
    let e = fail(|| {
        let mut t = LocalMemAllocator::new(Hardware::UB)?.alloc::<Int4>(128)?;
        t.set_size(33)
    });
    assert_mentions(&e, &["SetSize", "size = 33", "int4b_t"]);
    let e = fail(|| {
        LocalMemAllocator::new(Hardware::UB)?
            .alloc::<Int4>(63)
            .map(|_| ())
    });
    assert_mentions(&e, &["tileSize = 63", "int4b_t"]);
}

#[test]
fn datacopy_of_int4_other_than_nd2nz_is_refused() {
    let g = GmBuffer::zeroed(64);
    let ga = g.addr();
    let e = fail(|| {
        let mut ub = LocalMemAllocator::new(Hardware::UB)?;
        let t = ub.alloc::<Int4>(128)?;
        let mut gt = GlobalTensor::<Int4>::new();
        gt.set_global_buffer(ga.clone());
        data_copy(&t, &gt, 128u32)
    });
    assert_mentions(&e, &["DataCopy", "int4b_t", "ReinterpretCast"]);
}

fn ceil(a: u32, b: u32) -> u32 {
    a.div_ceil(b) * b
}

/// C (m × n, int32) = A (m × k) × Bᵀ where `bt` is B transposed (n × k), both packed int4b_t
/// rows in GM; `transposed_load`: B is given k × n instead and reaches L0B through
/// LoadDataWithTranspose.
fn int4_matmul(
    (m, n, k): (u32, u32, u32),
    a: &[i8],
    b_rows: &[i8],
    transposed_load: bool,
) -> Vec<i32> {
    let ga = GmBuffer::from_slice(&pack(a));
    let gb = GmBuffer::from_slice(&pack(b_rows));
    let gc = GmBuffer::zeroed((m * n * 4) as usize);
    let (aa, ba, ca) = (ga.addr(), gb.addr(), gc.addr());
    let (m16, n16, k64) = (ceil(m, 16), ceil(n, 16), ceil(k, 64));
    let (m1, n1, k1) = (m16 / 16, n16 / 16, k64 / 64);
    const FRACTAL: u32 = 1024; // int4b_t elements in 512 bytes
    Launch::new(1)
        .kernel_mode(KernelMode::Aic)
        .run(|| {
            let mut gat = GlobalTensor::<Int4>::new();
            gat.set_global_buffer(aa.clone());
            let mut gbt = GlobalTensor::<Int4>::new();
            gbt.set_global_buffer(ba.clone());
            let mut gct = GlobalTensor::<i32>::new();
            gct.set_global_buffer(ca.clone());
            let a1 = LocalTensor::<Int4>::new_at(TPosition::A1, 0, m16 * k64)?;
            let b1_at = m16 * k64 / 2;
            // ND → NZ: two int4b_t to a byte, so dValue and srcDValue count bytes.
            let p = Nd2NzParams::new(
                1,
                m as u16,
                (k / 2) as u16,
                0,
                (k / 2) as u16,
                m16 as u16,
                1,
                0,
            );
            data_copy(&a1, &gat, p)?;
            let a2 = LocalTensor::<Int4>::new_at(TPosition::A2, 0, m16 * k64)?;
            let b2 = LocalTensor::<Int4>::new_at(TPosition::B2, 0, k64 * n16)?;
            if transposed_load {
                // B is k × n: NZ with 64-row (k) groups, then 64 × 64 squares transposed.
                let n64 = ceil(n, 64);
                let b1 = LocalTensor::<Int4>::new_at(TPosition::B1, b1_at, k64 * n64)?;
                let p = Nd2NzParams::new(
                    1,
                    k as u16,
                    (n / 2) as u16,
                    0,
                    (n / 2) as u16,
                    k64 as u16,
                    1,
                    0,
                );
                data_copy(&b1, &gbt, p)?;
                pipe_barrier(PIPE_ALL)?;
                for kb in 0..k1 {
                    let p =
                        LoadData2dTransposeParams::new(0, (n64 / 64) as u8, k1 as u16, 3, 0, false);
                    load_data_with_transpose(
                        &b2.at(kb * n1 * FRACTAL)?,
                        &b1.at(kb * 4 * FRACTAL)?,
                        p,
                    )?;
                }
            } else {
                // Bᵀ is n × k: its NZ layout is L0B's ZN fractal order already.
                let b1 = LocalTensor::<Int4>::new_at(TPosition::B1, b1_at, n16 * k64)?;
                let p = Nd2NzParams::new(
                    1,
                    n as u16,
                    (k / 2) as u16,
                    0,
                    (k / 2) as u16,
                    n16 as u16,
                    1,
                    0,
                );
                data_copy(&b1, &gbt, p)?;
                pipe_barrier(PIPE_ALL)?;
                let p = LoadData2DParams::new(0, (n1 * k1) as u8, 1, 0, 0, false, 0);
                load_data(&b2, &b1, p)?;
            }
            // NZ → ZZ: one row of fractals of A per call.
            for i in 0..m1 {
                let p = LoadData2DParams::new(0, k1 as u8, m1 as u16, 0, 0, false, 0);
                load_data(&a2.at(i * k1 * FRACTAL)?, &a1.at(i * FRACTAL)?, p)?;
            }
            pipe_barrier(PIPE_ALL)?;
            let c = LocalTensor::<i32>::new_at(TPosition::CO1, 0, m16 * n16)?;
            mmad(
                &c,
                &a2,
                &b2,
                (),
                MmadParams::new(m as u16, n as u16, k as u16, false),
            )?;
            pipe_barrier(PIPE_ALL)?;
            let p = FixpipeParamsV220::new(n as u16, m as u16, m16 as u16, n, false);
            fixpipe(&gct, &c, None, p, CFG_ROW_MAJOR)
        })
        .unwrap_or_else(|e| panic!("{e}"));
    gc.to_vec::<i32>()
}

#[test]
fn mmad_int4_as_the_vendor_example_lays_it_out() {
    // M 30, N 40, K 70 (the vendor sample's shape): A m × k, B given transposed (n × k).
    let (m, n, k) = (30, 40, 70);
    let a = nibbles((m * k) as usize, 21);
    let bt = nibbles((n * k) as usize, 22);
    let c = int4_matmul((m, n, k), &a, &bt, false);
    let (m, n, k) = (m as usize, n as usize, k as usize);
    for i in 0..m {
        for j in 0..n {
            let want: i32 = (0..k)
                .map(|kk| a[i * k + kk] as i32 * bt[j * k + kk] as i32)
                .sum();
            assert_eq!(c[i * n + j], want, "C[{i}][{j}]");
        }
    }
}

#[test]
fn mmad_int4_with_b_through_load_data_with_transpose() {
    let (m, n, k) = (16, 128, 128);
    let a = nibbles((m * k) as usize, 31);
    let b = nibbles((k * n) as usize, 32);
    let c = int4_matmul((m, n, k), &a, &b, true);
    let (m, n, k) = (m as usize, n as usize, k as usize);
    for i in 0..m {
        for j in 0..n {
            let want: i32 = (0..k)
                .map(|kk| a[i * k + kk] as i32 * b[kk * n + j] as i32)
                .sum();
            assert_eq!(c[i * n + j], want, "C[{i}][{j}]");
        }
    }
}

#[test]
fn mmad_int4_rules() {
    let cube = |profile: &'static ascendc::chip::ChipProfile, k: u16, with_bias: bool| {
        let launch = Launch::new(1).profile(profile);
        let launch = if std::ptr::eq(profile, &ASCEND910) {
            launch
        } else {
            launch.kernel_mode(KernelMode::Aic)
        };
        launch.run(move || {
            let a = LocalTensor::<Int4>::new_at(TPosition::A2, 0, 1024)?;
            let b = LocalTensor::<Int4>::new_at(TPosition::B2, 0, 1024)?;
            let c = LocalTensor::<i32>::new_at(TPosition::CO1, 0, 256)?;
            let p = MmadParams::new(16, 16, k, false);
            if with_bias {
                let bias = LocalTensor::<i32>::new_at(TPosition::C2, 0, 16)?;
                mmad(&c, &a, &b, &bias, p)
            } else {
                mmad(&c, &a, &b, (), p)
            }
        })
    };
    assert!(cube(&ASCEND910B, 64, false).is_ok());
    let e = cube(&ASCEND910B, 63, false).expect_err("odd k");
    assert_mentions(&e.errors[0], &["Mmad", "`k`", "even"]);
    let e = cube(&ASCEND910B, 64, true).expect_err("no bias form");
    assert_mentions(&e.errors[0], &["bias", "int4b_t"]);
    let e = cube(&ASCEND910, 64, false).expect_err("not on the training series");
    assert_mentions(
        &e.errors[0],
        &["int4b_t×int4b_t→int32_t", "not a cube type combination"],
    );
}
