//! `DataCopy` from L0C with `DataCopyCO12DstParams` and the Fixpipe registers it reads: the
//! pages' examples (scalar DEQF16 with ReLU and NZ → ND, vector VDEQF16 from the Fixpipe buffer
//! into NZ), L0C → L1, int8 channel merge, the unit-flag reset of `SetFixPipeConfig`, the
//! Atlas 200I/500 A2 ClipReLU and element-wise steps, and the validation errors. Expected values
//! are computed here from the documented conversions.

use crate::common;
use ascendc::api::cube::copy_out::DataCopyCO12DstParams;
use ascendc::api::cube::fixpipe_regs::*;
use ascendc::chip::{ASCEND310B, ASCEND310P};
use ascendc::core::trace::InstrKind;
use ascendc::prelude::*;
use ascendc::{Category, ChipProfile, LaunchReport};
use common::*;

/// The quantisation word of a float multiplier (bits 0–31).
fn word(m: f32) -> u64 {
    m.to_bits() as u64
}

/// Puts the `m × n` int32 (or float bits) matrix `f(r, c)` into CO1 at L0C address 0 in NZ with
/// `m` rows per column group (`srcStride = m`).
fn l0c<T: Element>(m: u32, n: u32, f: &dyn Fn(u32, u32) -> T) -> Result<LocalTensor<T>> {
    let c = LocalTensor::<T>::new_at(TPosition::CO1, 0, m.div_ceil(16) * 16 * n.div_ceil(16) * 16)?;
    for r in 0..m {
        for col in 0..n {
            c.set_value(((col / 16) * m + r) * 16 + col % 16, f(r, col))?;
        }
    }
    Ok(c)
}

fn value(r: u32, c: u32) -> i32 {
    (r as i32 * 37 - c as i32 * 11) % 201 - 50
}

/// Runs a kernel on `profile` that writes `len` elements of GM; returns them and the report.
fn to_gm<D: Element>(
    profile: &'static ChipProfile,
    len: usize,
    f: impl Fn(&GlobalTensor<D>) -> Result<()> + Sync,
) -> (Vec<D>, LaunchReport) {
    let g = GmBuffer::zeroed(len * D::SIZE);
    let a = g.addr();
    let report = run_on(profile, || {
        let mut t = GlobalTensor::<D>::new();
        t.set_global_buffer(a.clone());
        f(&t)
    });
    (g.to_vec(), report)
}

fn ops(report: &LaunchReport, api: &str) -> Vec<Pipe> {
    report.blocks[0]
        .trace
        .instructions()
        .iter()
        .filter(|i| i.api == api && i.kind == InstrKind::Op)
        .map(|i| i.pipe)
        .collect()
}

#[test]
fn scalar_deqf16_relu_nz2nd_page_example() {
    // Example one: int32 → half with the scalar 2.0, ReLU, NZ → ND (n = 48, m = 20).
    let (m, n) = (20u32, 48u32);
    let (out, report) = to_gm::<f16>(ChipProfile::default_profile(), (m * n) as usize, |g| {
        let c = l0c::<i32>(m, n, &value)?;
        set_fixpipe_pre_quant_flag(word(2.0))?;
        set_fixpipe_nz2nd_flag(1, 0, 0)?;
        let mut p = DataCopyCO12DstParams::new(
            n as u16,
            m as u16,
            n,
            32,
            QuantMode::DEQF16,
            1,
            false,
            true,
        );
        p.src_stride = m as u16;
        data_copy(g, &c, p)
    });
    for r in 0..m {
        for c in 0..n {
            let want = f16::from_f32(value(r, c).max(0) as f32 * 2.0);
            assert_eq!(out[(r * n + c) as usize], want, "({r}, {c})");
        }
    }
    assert_eq!(ops(&report, "DataCopy"), vec![Pipe::FIX]);
    assert_eq!(ops(&report, "SetFixpipePreQuantFlag"), vec![Pipe::S]);
    assert_eq!(ops(&report, "SetFixpipeNz2ndFlag"), vec![Pipe::S]);
}

#[test]
fn vector_vdeqf16_from_the_fixpipe_buffer_into_nz() {
    // Example two: one word per column staged GM → L1 → Fixpipe buffer, SetFixPipeConfig, NZ
    // output with dstStride m · 32 / 32.
    let (m, n) = (32u32, 32u32);
    let scales: Vec<u64> = (0..n).map(|c| word(0.25 * (c as f32 + 1.0))).collect();
    let sg = GmBuffer::from_slice(&scales);
    let sa = sg.addr();
    let (out, report) = to_gm::<f16>(ChipProfile::default_profile(), (m * n) as usize, |g| {
        let c = l0c::<i32>(m, n, &value)?;
        let mut st = GlobalTensor::<u64>::new();
        st.set_global_buffer(sa.clone());
        let l1 = LocalTensor::<u64>::new_at(TPosition::C1, 0, n)?;
        data_copy(&l1, &st, n)?;
        let fb = LocalTensor::<u64>::new_at(TPosition::C2PIPE2GM, 0, n)?;
        data_copy(&fb, &l1, DataCopyParams::new(1, (n * 8 / 128) as u16, 0, 0))?;
        set_fix_pipe_config(&fb, false, false)?;
        let p = DataCopyCO12DstParams::new(
            n as u16,
            m as u16,
            m,
            m as u16,
            QuantMode::VDEQF16,
            0,
            false,
            false,
        );
        data_copy(g, &c, p)
    });
    for r in 0..m {
        for c in 0..n {
            let want = f16::from_f32(value(r, c) as f32 * 0.25 * (c as f32 + 1.0));
            assert_eq!(out[((c / 16) * m * 16 + r * 16 + c % 16) as usize], want);
        }
    }
    assert_eq!(ops(&report, "SetFixPipeConfig"), vec![Pipe::S]);
}

#[test]
fn float_to_l1_in_nz_and_int8_channel_merge() {
    let (m, n) = (16u32, 64u32);
    let out = Slot::new();
    run(|| {
        let c = l0c::<f32>(m, n, &|r, c| value(r, c) as f32 * 0.5 - 0.125)?;
        let l1 = LocalTensor::<f16>::new_at(TPosition::A1, 0, m * n)?;
        let p = DataCopyCO12DstParams::new(
            n as u16,
            m as u16,
            m,
            m as u16,
            QuantMode::F322F16,
            0,
            false,
            false,
        );
        data_copy(&l1, &c, p)?;
        // int32 → int8 with REQ8 (scalar 1.0, signed): 16 × 32 fractals, two of them.
        let ci = l0c::<i32>(m, n, &value)?;
        let l8 = LocalTensor::<i8>::new_at(TPosition::B1, 4096, m * n)?;
        set_fixpipe_pre_quant_flag(word(1.0) | 1 << 46)?;
        let p = DataCopyCO12DstParams::new(
            n as u16,
            m as u16,
            m,
            m as u16,
            QuantMode::REQ8,
            0,
            false,
            false,
        );
        data_copy(&l8, &ci, p)?;
        out.put((l1.to_vec()?, l8.to_vec()?));
        Ok(())
    });
    let (h, b) = out.get();
    for r in 0..m {
        for c in 0..n {
            let want = f16::from_f32(value(r, c) as f32 * 0.5 - 0.125);
            assert_eq!(h[((c / 16) * m * 16 + r * 16 + c % 16) as usize], want);
            let sat = value(r, c).clamp(-128, 127) as i8;
            assert_eq!(b[((c / 32) * m * 32 + r * 32 + c % 32) as usize], sat);
        }
    }
}

#[test]
fn fixpipe_nz_int8_merges_channel_pairs() {
    let (m, n) = (32u32, 32u32);
    let (out, _) = to_gm::<u8>(ChipProfile::default_profile(), (m * n) as usize, |g| {
        let c = l0c::<f32>(m, n, &|r, c| (r * 3 + c) as f32 * 0.5)?;
        let mut p = FixpipeParamsV220::new(n as u16, m as u16, m as u16, m, false);
        p.quant_pre = QuantMode::QF322B8_PRE;
        p.deq_scalar = word(1.0);
        fixpipe(g, &c, None, p, CFG_NZ)
    });
    for r in 0..m {
        for c in 0..n {
            let want = ((r * 3 + c) as f32 * 0.5).round_ties_even() as u8;
            assert_eq!(out[(r * 32 + c) as usize], want);
        }
    }
}

#[test]
fn fixpipe_sets_the_registers_datacopy_reads() {
    let (m, n) = (16u32, 16u32);
    let (out, _) = to_gm::<f16>(ChipProfile::default_profile(), 2 * (m * n) as usize, |g| {
        let c = l0c::<i32>(m, n, &value)?;
        let mut p = FixpipeParamsV220::new(n as u16, m as u16, m as u16, n, false);
        p.quant_pre = QuantMode::DEQF16;
        p.deq_scalar = word(-3.0);
        fixpipe(g, &c, None, p, CFG_ROW_MAJOR)?;
        // The same word and ND parameters, now from the registers.
        let q = DataCopyCO12DstParams::new(
            n as u16,
            m as u16,
            n,
            m as u16,
            QuantMode::DEQF16,
            0,
            false,
            true,
        );
        data_copy(&g.at((m * n) as u64)?, &c, q)
    });
    let (a, b) = out.split_at((m * n) as usize);
    assert_eq!(a, b);
    assert_eq!(a[1], f16::from_f32(value(0, 1) as f32 * -3.0));
}

#[test]
fn set_fix_pipe_config_resets_the_unit_flags() {
    let e = fail(|| {
        let a2 = LocalTensor::<f16>::new_at(TPosition::A2, 0, 256)?;
        let b2 = LocalTensor::<f16>::new_at(TPosition::B2, 0, 256)?;
        let c = LocalTensor::<f32>::new_at(TPosition::CO1, 0, 256)?;
        let mut p = MmadParams::new(16, 16, 16, false);
        p.unit_flag = 3;
        mmad(&c, &a2, &b2, (), p)?;
        mmad(&c, &a2, &b2, (), p)
    });
    assert_eq!(e.category, Category::Sync);
    run(|| {
        let a2 = LocalTensor::<f16>::new_at(TPosition::A2, 0, 256)?;
        let b2 = LocalTensor::<f16>::new_at(TPosition::B2, 0, 256)?;
        let c = LocalTensor::<f32>::new_at(TPosition::CO1, 0, 256)?;
        let mut p = MmadParams::new(16, 16, 16, false);
        p.unit_flag = 3;
        mmad(&c, &a2, &b2, (), p)?;
        set_fix_pipe_config(&c, false, true)?;
        mmad(&c, &a2, &b2, (), p)
    });
}

#[test]
fn clip_relu_and_elementwise_on_the_200i_500_a2() {
    let (m, n) = (16u32, 16u32);
    let clip = f16::from_f32(40.0).to_bits() as u64;
    let (out, _) = to_gm::<f16>(&ASCEND310B, 3 * (m * n) as usize, |g| {
        let c = l0c::<i32>(m, n, &value)?;
        set_fixpipe_pre_quant_flag(word(0.5))?;
        set_fixpipe_nz2nd_flag(1, 0, 0)?;
        set_fix_pipe_clip_relu(clip)?;
        let mut p = DataCopyCO12DstParams::new(
            n as u16,
            m as u16,
            n,
            m as u16,
            QuantMode::DEQF16,
            1,
            false,
            true,
        );
        p.clip_relu_pre = 1;
        data_copy(g, &c, p)?;
        // The element-wise operand: row r, column c holds r - c / 4 (one 16-column group).
        let e = LocalTensor::<f16>::new_at(TPosition::C1, 0, m * n)?;
        for r in 0..m {
            for col in 0..n {
                e.set_value(r * 16 + col, f16::from_f32(r as f32 - col as f32 / 4.0))?;
            }
        }
        set_fix_pipe_addr(&e, 1)?;
        p.clip_relu_pre = 0;
        p.relu_pre = 0;
        for op in [1u8, 2] {
            p.elt_wise_op = op;
            data_copy(&g.at((op as u32 * m * n) as u64)?, &c, p)?;
        }
        Ok(())
    });
    for r in 0..m {
        for col in 0..n {
            let i = (r * n + col) as usize;
            let q = value(r, col) as f32 * 0.5;
            assert_eq!(out[i], f16::from_f32(q.clamp(0.0, 40.0)));
            let e = r as f32 - col as f32 / 4.0;
            assert_eq!(out[256 + i], f16::from_f32(q + e));
            assert_eq!(out[512 + i], f16::from_f32(q - e));
        }
    }
}

#[test]
fn registers_must_be_set_before_use() {
    for (mode, nz2nd, what) in [
        (QuantMode::DEQF16, false, "SetFixpipePreQuantFlag"),
        (QuantMode::VDEQF16, false, "SetFixPipeConfig"),
        (QuantMode::NoQuant, true, "SetFixpipeNz2ndFlag"),
    ] {
        let g = GmBuffer::zeroed(1024);
        let ga = g.addr();
        let e = fail(|| {
            let c = LocalTensor::<i32>::new_at(TPosition::CO1, 0, 256)?;
            let p = DataCopyCO12DstParams::new(16, 16, 16, 16, mode, 0, false, nz2nd);
            if mode == QuantMode::NoQuant {
                let mut t = GlobalTensor::<i32>::new();
                t.set_global_buffer(ga.clone());
                data_copy(&t, &c, p)
            } else {
                let mut t = GlobalTensor::<f16>::new();
                t.set_global_buffer(ga.clone());
                data_copy(&t, &c, p)
            }
        });
        assert_eq!(e.category, Category::Sync, "{e}");
        assert_mentions(&e, &[what]);
    }
}

#[test]
fn paths_products_and_parameters_are_checked() {
    // L0C → L1 always converts.
    let e = fail(|| {
        let c = LocalTensor::<f32>::new_at(TPosition::CO1, 0, 256)?;
        let l1 = LocalTensor::<f32>::new_at(TPosition::A1, 0, 256)?;
        data_copy(
            &l1,
            &c,
            DataCopyCO12DstParams::new(16, 16, 16, 16, QuantMode::NoQuant, 0, false, false),
        )
    });
    assert_eq!(e.category, Category::Type);
    assert_mentions(&e, &["L0C → L1 converts"]);
    // An odd number of 16-column groups of an 8-bit NZ result.
    let e = fail(|| {
        let c = LocalTensor::<i32>::new_at(TPosition::CO1, 0, 768)?;
        let l1 = LocalTensor::<i8>::new_at(TPosition::A1, 0, 768)?;
        set_fixpipe_pre_quant_flag(word(1.0))?;
        data_copy(
            &l1,
            &c,
            DataCopyCO12DstParams::new(48, 16, 16, 16, QuantMode::REQ8, 0, false, false),
        )
    });
    assert_eq!(e.category, Category::Range);
    assert_mentions(&e, &["nSize", "multiple of 32"]);
    let e = fail_on(&ASCEND310P, || set_fixpipe_pre_quant_flag(1));
    assert_eq!(e.category, Category::Unsupported);
    let e = fail(|| set_fix_pipe_clip_relu(0x3c00));
    assert_eq!(e.category, Category::Unsupported);
    let e = fail_on(&ASCEND310B, || set_fix_pipe_clip_relu(0xbc00));
    assert_eq!(e.category, Category::Range);
    let e = fail(|| set_fixpipe_nz2nd_flag(2, 0, 16));
    assert_mentions(&e, &["srcNdStride", "[1, 512]"]);
    let e = fail(|| set_fixpipe_nz2nd_flag(0, 0, 0));
    assert_mentions(&e, &["ndNum"]);
    let e = fail(|| {
        let fb = LocalTensor::<u64>::new_at(TPosition::C2PIPE2GM, 0, 16)?;
        set_fix_pipe_config(&fb, true, false)
    });
    assert_mentions(&e, &["setRelu"]);
    let e = fail(|| {
        let ub = LocalTensor::<u64>::new_at(TPosition::VECCALC, 0, 16)?;
        set_fix_pipe_config(&ub, false, false)
    });
    assert_eq!(e.category, Category::Position);
    let e = fail(|| {
        let fb = LocalTensor::<u32>::new_at(TPosition::C2PIPE2GM, 0, 16)?;
        set_fix_pipe_config(&fb, false, false)
    });
    assert_eq!(e.category, Category::Type);
    // ClipReLU and the element-wise step exist only on the Atlas 200I/500 A2.
    let e = fail(|| {
        let c = LocalTensor::<i32>::new_at(TPosition::CO1, 0, 256)?;
        let g = GmBuffer::zeroed(512);
        let mut t = GlobalTensor::<f16>::new();
        t.set_global_buffer(g.addr());
        set_fixpipe_pre_quant_flag(word(1.0))?;
        let mut p = DataCopyCO12DstParams::new(16, 16, 16, 16, QuantMode::DEQF16, 0, false, false);
        p.clip_relu_pre = 1;
        data_copy(&t, &c, p)
    });
    assert_eq!(e.category, Category::Unsupported);
}
