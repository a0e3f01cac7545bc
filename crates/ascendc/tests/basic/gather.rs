//! GatherMask, Gather, Gatherb and Scatter: the pages' worked examples and the validation rules.

use ascendc::chip::{ASCEND310B, ASCEND310P, ASCEND910, ASCEND910B};
use ascendc::prelude::*;
use ascendc::{Category, ChipProfile, LaunchReport, SimError};
use std::sync::Mutex;

type Buf = TBuf<QuePosition::VECCALC>;

fn run<R: Send>(
    p: &'static ChipProfile,
    f: impl Fn(&Buf) -> Result<R> + Sync,
) -> std::result::Result<(R, LaunchReport), ascendc::LaunchError> {
    let out = Mutex::new(None);
    let report = Launch::new(1).profile(p).run(|| {
        let mut pipe = TPipe::new();
        let mut buf = Buf::new();
        pipe.init_buffer(&mut buf, 1, 64 * 1024)?;
        *out.lock().unwrap() = Some(f(&buf)?);
        Ok(())
    })?;
    Ok((out.into_inner().unwrap().unwrap(), report))
}

fn ok<R: Send>(p: &'static ChipProfile, f: impl Fn(&Buf) -> Result<R> + Sync) -> R {
    run(p, f).unwrap_or_else(|e| panic!("{e}")).0
}

fn err<R: Send + std::fmt::Debug>(
    p: &'static ChipProfile,
    f: impl Fn(&Buf) -> Result<R> + Sync,
) -> SimError {
    run(p, f).expect_err("the call must fail").errors[0].clone()
}

fn load<T: Element>(t: &LocalTensor<T>, v: &[T]) -> Result<()> {
    for (i, x) in v.iter().enumerate() {
        t.set_value(i as u32, *x)?;
    }
    Ok(())
}

#[test]
fn gather_mask_builtin_pattern_in_place_matches_the_page() {
    // uint32 [1 .. 256], pattern 2 (odd elements), normal mode, {1, 4, 8, 0}, dst = src0.
    let (v, n, again) = ok(&ASCEND910B, |b| {
        let x = b.get_with_offset::<u32>(256, 0)?;
        load(&x, &(1..=256).collect::<Vec<u32>>())?;
        let n = gather_mask(&x, &x, 2, false, 0, GatherMaskParams::new(1, 4, 8, 0))?;
        Ok((x.to_vec()?, n, get_gather_mask_remain_count()?))
    });
    assert_eq!(n, 128);
    assert_eq!(again, 128);
    assert_eq!(v[..128], (1..=128).map(|i| 2 * i).collect::<Vec<u32>>()[..]);
    // The rest of the buffer is untouched.
    assert_eq!(v[128..], (129..=256).collect::<Vec<u32>>()[..]);
}

#[test]
fn gather_mask_every_builtin_pattern() {
    for p in 1..=7u8 {
        let v = ok(&ASCEND910B, move |b| {
            let x = b.get_with_offset::<u16>(128, 0)?;
            let d = b.get_with_offset::<u16>(128, 1024)?;
            load(&x, &(0..128).collect::<Vec<u16>>())?;
            let n = gather_mask(&d, &x, p, false, 0, GatherMaskParams::new(1, 1, 8, 0))?;
            Ok(d.to_vec()?[..n as usize].to_vec())
        });
        let want: Vec<u16> = (0..128u16)
            .filter(|k| match p {
                1 => k % 2 == 0,
                2 => k % 2 == 1,
                3..=6 => k % 4 == (p - 3) as u16,
                _ => true,
            })
            .collect();
        assert_eq!(v, want, "pattern {p}");
    }
}

/// The page's user-pattern example (configuration 1): uint32, pattern words 0x7E7C00A5, mask 70
/// per repeat, {1, 2, 4, 0}; repeat r reads 70 elements from element 32 r.
#[test]
fn gather_mask_tensor_pattern_counter_per_repeat() {
    let src: Vec<u32> = (0..256).map(|i| i * 7 + 3).collect();
    let (got, n) = ok(&ASCEND910B, |b| {
        let x = b.get_with_offset::<u32>(256, 0)?;
        let pat = b.get_with_offset::<u32>(32, 1024)?;
        let d = b.get_with_offset::<u32>(256, 2048)?;
        load(&x, &src)?;
        load(&pat, &[0x7E7C_00A5; 32])?;
        duplicate(&d, 0u32, 256)?;
        let n = gather_mask_tensor(&d, &x, &pat, true, 70, GatherMaskParams::new(1, 2, 4, 0))?;
        Ok((d.to_vec()?, n))
    });
    let bits: Vec<bool> = (0..70)
        .map(|k| 0x7E7C_00A5u32.to_le_bytes()[(k / 8) % 4] >> (k % 8) & 1 == 1)
        .collect();
    let mut want = Vec::new();
    for r in 0..2 {
        for k in 0..70 {
            if bits[k] {
                want.push(src[r * 32 + k]);
            }
        }
    }
    assert_eq!(n as usize, want.len());
    assert_eq!(got[..want.len()], want[..]);
    assert!(got[want.len()..].iter().all(|&x| x == 0));
}

#[test]
fn gather_mask_counter_total_on_310p_and_product_rules() {
    // 310P: mask = 70 elements in total: 64 from repeat 0 and 6 from repeat 1 (at element 32).
    let (got, n) = ok(&ASCEND310P, |b| {
        let x = b.get_with_offset::<f32>(256, 0)?;
        let d = b.get_with_offset::<f32>(128, 2048)?;
        load(&x, &(0..256).map(|i| i as f32).collect::<Vec<_>>())?;
        let n = gather_mask(&d, &x, 1, true, 70, GatherMaskParams::new(1, 9, 4, 0))?;
        Ok((d.to_vec()?, n))
    });
    let want: Vec<f32> = (0..64)
        .step_by(2)
        .chain((32..38).step_by(2))
        .map(|i| i as f32)
        .collect();
    assert_eq!(n as usize, want.len());
    assert_eq!(got[..want.len()], want[..]);
    let e = err(&ASCEND310P, |b| {
        let x = b.get_with_offset::<f32>(64, 0)?;
        gather_mask(&x, &x, 7, false, 0, GatherMaskParams::new(1, 1, 8, 0))
    });
    assert!(e.message.contains("[1, 6]"), "{e}");
    let e = err(&ASCEND910, |b| {
        let x = b.get_with_offset::<f32>(64, 0)?;
        gather_mask(&x, &x, 1, false, 0, GatherMaskParams::new(1, 1, 8, 0))
    });
    assert_eq!(e.category, Category::Unsupported);
    // bfloat16: A2 yes, 310B no.
    let e = err(&ASCEND310B, |b| {
        let x = b.get_with_offset::<bf16>(128, 0)?;
        gather_mask(&x, &x, 1, false, 0, GatherMaskParams::new(1, 1, 8, 0))
    });
    assert_eq!(e.category, Category::Type);
    // Pattern tensor of the wrong width, too short a destination, counter mask 0.
    let e = err(&ASCEND910B, |b| {
        let x = b.get_with_offset::<f32>(64, 0)?;
        let pat = b.get_with_offset::<u16>(16, 1024)?;
        gather_mask_tensor(&x, &x, &pat, false, 0, GatherMaskParams::new(1, 1, 8, 0))
    });
    assert!(e.message.contains("uint32"), "{e}");
    let e = err(&ASCEND910B, |b| {
        let x = b.get_with_offset::<f32>(64, 0)?;
        let d = b.get_with_offset::<f32>(8, 1024)?;
        gather_mask(&d, &x, 7, false, 0, GatherMaskParams::new(1, 1, 8, 0))
    });
    assert_eq!(e.category, Category::Size);
    assert!(e.message.contains("64 kept elements"), "{e}");
    let e = err(&ASCEND910B, |b| {
        let x = b.get_with_offset::<f32>(64, 0)?;
        gather_mask(&x, &x, 7, true, 0, GatherMaskParams::new(1, 1, 8, 0))
    });
    assert_eq!(e.api, "GatherMask");
    assert!(e.message.contains("mask"), "{e}");
}

#[test]
fn gather_mask_leaves_normal_mode() {
    let st = ok(&ASCEND910B, |b| {
        let x = b.get_with_offset::<f32>(64, 0)?;
        set_mask_count()?;
        gather_mask(&x, &x, 1, true, 10, GatherMaskParams::new(1, 1, 8, 0))?;
        // Normal mode again: a level-2 Duplicate of 64 elements runs over one full repeat.
        duplicate(&x, 1.0f32, 64)?;
        x.to_vec()
    });
    assert!(st.iter().all(|&x| x == 1.0));
}

#[test]
fn gather_reverses_with_byte_offsets() {
    // The page's example: offsets [254, 252, …, 0] over 128 halves 0 … 127 → 127 … 0.
    for form in 0..3 {
        let v = ok(&ASCEND910B, move |b| {
            let src = b.get_with_offset::<f16>(128, 0)?;
            let off = b.get_with_offset::<u32>(128, 1024)?;
            let dst = b.get_with_offset::<f16>(128, 2048)?;
            load(
                &src,
                &(0..128)
                    .map(|i| f16::from_f32(i as f32))
                    .collect::<Vec<_>>(),
            )?;
            load(&off, &(0..128).map(|i| 254 - 2 * i).collect::<Vec<u32>>())?;
            match form {
                0 => gather(&dst, &src, &off, 0, 128)?,
                1 => gather_l0(&dst, &src, &off, 0, 128u64, 1, 8)?,
                _ => gather_l0(&dst, &src, &off, 0, [u64::MAX, u64::MAX], 1, 8)?,
            }
            Ok(dst.to_vec()?.iter().map(|x| x.to_f32()).collect::<Vec<_>>())
        });
        assert_eq!(
            v,
            (0..128).rev().map(|i| i as f32).collect::<Vec<_>>(),
            "form {form}"
        );
    }
    // srcBaseAddr shifts every offset; level 0 with a half mask writes only the enabled lanes.
    let v = ok(&ASCEND910B, |b| {
        let src = b.get_with_offset::<i32>(128, 0)?;
        let off = b.get_with_offset::<u32>(128, 1024)?;
        let dst = b.get_with_offset::<i32>(128, 2048)?;
        load(&src, &(0..128).collect::<Vec<i32>>())?;
        load(&off, &(0..128).map(|i| 4 * (i % 64)).collect::<Vec<u32>>())?;
        duplicate(&dst, -1, 128)?;
        gather_l0(&dst, &src, &off, 256, [0xFFFF_FFFF, 0], 2, 8)?;
        dst.to_vec()
    });
    let want: Vec<i32> = (0..128)
        .map(|i| if i % 64 < 32 { 64 + i % 64 } else { -1 })
        .collect();
    assert_eq!(v, want);
}

#[test]
fn gather_validates_offsets() {
    let e = err(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f16>(128, 0)?;
        let off = b.get_with_offset::<u32>(128, 1024)?;
        let dst = b.get_with_offset::<f16>(128, 2048)?;
        load(&off, &[0, 3])?;
        gather(&dst, &src, &off, 0, 2)
    });
    assert_eq!(e.category, Category::Align);
    assert!(e.message.contains("srcOffset[1] = 3"), "{e}");
    let e = err(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f16>(16, 0)?;
        let off = b.get_with_offset::<u32>(8, 1024)?;
        let dst = b.get_with_offset::<f16>(16, 2048)?;
        load(&off, &[0, 32])?;
        gather(&dst, &src, &off, 0, 2)
    });
    assert_eq!(e.category, Category::Size);
    assert!(e.message.contains("srcOffset[1] = 32"), "{e}");
    // A failing call writes nothing (the launch still fails with the call's error).
    let seen = Mutex::new(0.0f32);
    let e = err(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f16>(16, 0)?;
        let off = b.get_with_offset::<u32>(8, 1024)?;
        let dst = b.get_with_offset::<f16>(16, 2048)?;
        duplicate(&dst, f16::from_f32(9.0), 16)?;
        load(&off, &[0, 2, 4, 999])?;
        let r = gather(&dst, &src, &off, 0, 4);
        *seen.lock().unwrap() = dst.get_value(0)?.to_f32();
        r
    });
    assert!(e.message.contains("srcOffset[3] = 999"), "{e}");
    assert_eq!(*seen.lock().unwrap(), 9.0);
    let e = err(&ASCEND910, |b| {
        let src = b.get_with_offset::<f16>(16, 0)?;
        let off = b.get_with_offset::<u32>(8, 1024)?;
        gather(&src, &src, &off, 0, 2)
    });
    assert_eq!(e.category, Category::Unsupported);
}

#[test]
fn gatherb_reverses_blocks_as_the_page() {
    let v = ok(&ASCEND910B, |b| {
        let src = b.get_with_offset::<u16>(128, 0)?;
        let off = b.get_with_offset::<u32>(8, 1024)?;
        let dst = b.get_with_offset::<u16>(128, 2048)?;
        load(&src, &(0..128).collect::<Vec<u16>>())?;
        load(&off, &[224, 192, 160, 128, 96, 64, 32, 0])?;
        gatherb(&dst, &src, &off, 1, GatherRepeatParams::new(1, 8))?;
        dst.to_vec()
    });
    let want: Vec<u16> = (0..8)
        .rev()
        .flat_map(|blk| blk * 16..blk * 16 + 16)
        .collect();
    assert_eq!(v, want);
    let e = err(&ASCEND910B, |b| {
        let src = b.get_with_offset::<u16>(128, 0)?;
        let off = b.get_with_offset::<u32>(8, 1024)?;
        let dst = b.get_with_offset::<u16>(128, 2048)?;
        load(&off, &[16, 0, 0, 0, 0, 0, 0, 0])?;
        gatherb(&dst, &src, &off, 1, GatherRepeatParams::new(1, 8))
    });
    assert_eq!(e.category, Category::Align);
    let e = err(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f16>(128, 0)?;
        let off = b.get_with_offset::<u32>(8, 1024)?;
        gatherb(&src, &src, &off, 1, GatherRepeatParams::new(1, 8))
    });
    assert_eq!(e.category, Category::Type);
}

#[test]
fn scatter_reverses_and_rejects_duplicates() {
    let v = ok(&ASCEND310P, |b| {
        let src = b.get_with_offset::<f16>(128, 0)?;
        let off = b.get_with_offset::<u32>(128, 1024)?;
        let dst = b.get_with_offset::<f16>(128, 2048)?;
        load(
            &src,
            &(0..128)
                .map(|i| f16::from_f32(i as f32))
                .collect::<Vec<_>>(),
        )?;
        load(&off, &(0..128).map(|i| 254 - 2 * i).collect::<Vec<u32>>())?;
        scatter(&dst, &src, &off, 0, 128)?;
        Ok(dst.to_vec()?.iter().map(|x| x.to_f32()).collect::<Vec<_>>())
    });
    assert_eq!(v, (0..128).rev().map(|i| i as f32).collect::<Vec<_>>());
    let e = err(&ASCEND310B, |b| {
        let src = b.get_with_offset::<f32>(64, 0)?;
        let off = b.get_with_offset::<u32>(64, 1024)?;
        let dst = b.get_with_offset::<f32>(64, 2048)?;
        load(&off, &[0, 4, 8, 4])?;
        scatter_l0(&dst, &src, &off, 0, 4u64, 1, 8)
    });
    assert_eq!(e.category, Category::Overlap);
    assert!(e.message.contains("dstOffset[1] and dstOffset[3]"), "{e}");
    let e = err(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f32>(64, 0)?;
        let off = b.get_with_offset::<u32>(64, 1024)?;
        let dst = b.get_with_offset::<f32>(64, 2048)?;
        scatter(&dst, &src, &off, 0, 4)
    });
    assert_eq!(e.category, Category::Unsupported);
}
