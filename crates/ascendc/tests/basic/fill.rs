//! Brcb and CreateVecIndex: the pages' worked examples, strides and validation.

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

fn h(x: f32) -> f16 {
    f16::from_f32(x)
}

#[test]
fn brcb_matches_the_page() {
    // src [1 .. 16] halves, repeat 2, {1, 8}: 16 blocks, block i all i+1.
    let v = ok(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f16>(16, 0)?;
        let dst = b.get_with_offset::<f16>(256, 1024)?;
        for i in 0..16 {
            src.set_value(i, h(i as f32 + 1.0))?;
        }
        duplicate(&dst, h(0.0), 256)?;
        brcb(&dst, &src, 2, BrcbRepeatParams::new(1, 8))?;
        Ok(dst.to_vec()?.iter().map(|x| x.to_f32()).collect::<Vec<_>>())
    });
    let want: Vec<f32> = (0..256).map(|i| (i / 16 + 1) as f32).collect();
    assert_eq!(v, want);
}

#[test]
fn brcb_with_gaps_and_float() {
    // float, {2, 16}: blocks at even block positions, odd ones untouched.
    let v = ok(&ASCEND310P, |b| {
        let src = b.get_with_offset::<f32>(16, 0)?;
        let dst = b.get_with_offset::<f32>(256, 1024)?;
        for i in 0..16 {
            src.set_value(i, -(i as f32))?;
        }
        duplicate(&dst, 7.5f32, 256)?;
        brcb(&dst, &src, 2, BrcbRepeatParams::new(2, 16))?;
        dst.to_vec()
    });
    for blk in 0..32 {
        let want = if blk % 2 == 0 {
            -((blk / 2) as f32)
        } else {
            7.5
        };
        assert!(
            v[blk * 8..blk * 8 + 8].iter().all(|&x| x == want),
            "block {blk}"
        );
    }
}

#[test]
fn brcb_validation() {
    let e = err(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f16>(16, 0)?;
        let dst = b.get_with_offset::<f16>(256, 1024)?;
        brcb(&dst, &src, 1, BrcbRepeatParams::new(0, 8))
    });
    assert!(e.message.contains("dstBlkStride"), "{e}");
    let e = err(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f16>(8, 0)?;
        let dst = b.get_with_offset::<f16>(256, 1024)?;
        brcb(&dst, &src, 2, BrcbRepeatParams::new(1, 8))
    });
    assert_eq!(e.category, Category::Size);
    assert!(e.message.contains("`src`"), "{e}");
    let e = err(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f16>(16, 0)?;
        let dst = b.get_with_offset::<f16>(128, 1024)?;
        brcb(&dst, &src, 2, BrcbRepeatParams::new(1, 8))
    });
    assert!(e.message.contains("`dst`"), "{e}");
    for p in [&ASCEND910, &ASCEND310B] {
        let e = err(p, |b| {
            let src = b.get_with_offset::<f16>(16, 0)?;
            let dst = b.get_with_offset::<f16>(256, 1024)?;
            brcb(&dst, &src, 1, BrcbRepeatParams::new(1, 8))
        });
        assert_eq!(e.category, Category::Unsupported);
    }
}

#[test]
fn create_vec_index_matches_the_page() {
    for form in 0..3 {
        let v = ok(&ASCEND910B, move |b| {
            let dst = b.get_with_offset::<i16>(128, 0)?;
            match form {
                0 => create_vec_index(&dst, 0i16, 128)?,
                1 => create_vec_index_l0(&dst, 0i16, 128u64, 1, 1, 8)?,
                _ => create_vec_index_l0(&dst, 0i16, [u64::MAX, u64::MAX], 1, 1, 8)?,
            }
            dst.to_vec()
        });
        assert_eq!(v, (0..128).collect::<Vec<i16>>(), "form {form}");
    }
}

#[test]
fn create_vec_index_rounding_and_repeats() {
    // half past 2048: 2040 + i rounds to nearest even (2049 → 2048, 2051 → 2052).
    let v = ok(&ASCEND310P, |b| {
        let dst = b.get_with_offset::<f16>(256, 0)?;
        create_vec_index(&dst, h(2040.0), 200)?;
        Ok(dst.to_vec()?[..12]
            .iter()
            .map(|x| x.to_f32())
            .collect::<Vec<_>>())
    });
    assert_eq!(
        v,
        [2040., 2041., 2042., 2043., 2044., 2045., 2046., 2047., 2048., 2048., 2050., 2052.]
    );
    // Level 0, float, 2 repeats with a 16-lane mask: repeat r lane k = -5 + 64 r + k.
    let v = ok(&ASCEND310B, |b| {
        let dst = b.get_with_offset::<f32>(128, 0)?;
        duplicate(&dst, 0.5f32, 128)?;
        create_vec_index_l0(&dst, -5.0f32, 16u64, 2, 1, 8)?;
        dst.to_vec()
    });
    for (i, x) in v.iter().enumerate() {
        let want = if i % 64 < 16 { -5.0 + i as f32 } else { 0.5 };
        assert_eq!(*x, want, "element {i}");
    }
    let e = err(&ASCEND910, |b| {
        let dst = b.get_with_offset::<f32>(64, 0)?;
        create_vec_index(&dst, 0.0f32, 64)
    });
    assert_eq!(e.category, Category::Unsupported);
    let e = err(&ASCEND910B, |b| {
        let dst = b.get_with_offset::<u16>(64, 0)?;
        create_vec_index(&dst, 0u16, 64)
    });
    assert_eq!(e.category, Category::Type);
}

#[test]
fn copy_with_mask_and_strides() {
    // The page's scenario 1: 512 int32, mask 64, 8 repeats, contiguous.
    let v = ok(&ASCEND910B, |b| {
        let src = b.get_with_offset::<i32>(512, 0)?;
        let dst = b.get_with_offset::<i32>(512, 4096)?;
        for i in 0..512 {
            src.set_value(i, i as i32 * 3 - 7)?;
        }
        copy(&dst, &src, 64u64, 8, CopyRepeatParams::new(1, 1, 8, 8))?;
        dst.to_vec()
    });
    assert_eq!(v, (0..512).map(|i| i * 3 - 7).collect::<Vec<i32>>());
    // Half mask and a source block stride of 2: every other source block, first 32 lanes.
    let v = ok(&ASCEND310B, |b| {
        let src = b.get_with_offset::<f32>(128, 0)?;
        let dst = b.get_with_offset::<f32>(64, 1024)?;
        for i in 0..128 {
            src.set_value(i, i as f32)?;
        }
        duplicate(&dst, -1.0f32, 64)?;
        copy(
            &dst,
            &src,
            [0xFFFF_FFFF, 0],
            1,
            CopyRepeatParams::new(1, 2, 8, 16),
        )?;
        dst.to_vec()
    });
    for (i, x) in v.iter().enumerate() {
        let want = if i < 32 {
            ((i / 8) * 16 + i % 8) as f32
        } else {
            -1.0
        };
        assert_eq!(*x, want, "element {i}");
    }
    let e = err(&ASCEND310P, |b| {
        let src = b.get_with_offset::<f32>(64, 0)?;
        copy(&src, &src, 64u64, 1, CopyRepeatParams::default())
    });
    assert_eq!(e.category, Category::Unsupported);
    let e = err(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f32>(64, 0)?;
        let dst = b.get_with_offset::<f32>(64, 1024)?;
        copy(&dst, &src, 64u64, 1, CopyRepeatParams::new(1, 1, 4096, 8))
    });
    assert!(e.message.contains("dstRepeatSize"), "{e}");
    let e = err(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f32>(64, 0)?;
        let dst = b.get_with_offset::<f32>(64, 1024)?;
        set_mask_count()?;
        copy(&dst, &src, MASK_PLACEHOLDER, 1, CopyRepeatParams::default())
    });
    assert!(e.message.contains("counter mode"), "{e}");
}
