//! Scalar compute: the pages' worked examples and the product table.

use ascendc::chip::{ASCEND310B, ASCEND310P, ASCEND910, ASCEND910B};
use ascendc::prelude::*;
use ascendc::{Category, ChipProfile, SimError};
use std::sync::Mutex;

fn on<R: Send>(
    p: &'static ChipProfile,
    f: impl Fn() -> Result<R> + Sync,
) -> std::result::Result<R, SimError> {
    let out = Mutex::new(None);
    Launch::new(1)
        .profile(p)
        .run(|| {
            *out.lock().unwrap() = Some(f()?);
            Ok(())
        })
        .map_err(|e| e.errors[0].clone())?;
    Ok(out.into_inner().unwrap().unwrap())
}

#[test]
fn bit_operations_match_the_pages() {
    let v = on(&ASCEND910B, || {
        Ok(vec![
            get_bit_count(1, 0xFFFF)?,
            get_bit_count(0, 0xFFFF)?,
            count_leading_zero(0xFFFF)?,
            count_leading_zero(0)?,
            count_leading_zero(u64::MAX)?,
            count_bits_cnt_same_as_sign_bit(0)?,
            count_bits_cnt_same_as_sign_bit(-1)?,
            count_bits_cnt_same_as_sign_bit(i64::MAX)?,
            count_bits_cnt_same_as_sign_bit(i64::MIN)?,
            count_bits_cnt_same_as_sign_bit(1)?,
            count_bits_cnt_same_as_sign_bit(0x00F0_0000_0000_0000)?,
            get_sff_value(0, u64::MAX)?,
            get_sff_value(1, 0)?,
            get_sff_value(0, 0xFF00)?,
            get_sff_value(1, 0xFF00)?,
            get_sff_value(0, 0x00FF)?,
            get_sff_value(1, 0x00FF)?,
            count_bits_cnt_same_as_sign_bit(-2)?,
        ])
    })
    .unwrap();
    assert_eq!(
        v,
        [16, 48, 48, 64, 0, -1, -1, 0, 0, 62, 7, -1, -1, 0, 8, 8, 0, 62]
    );
}

#[test]
#[allow(clippy::approx_constant)] // 3.14159 is the pages' example value
fn casts_match_the_pages() {
    use RoundMode::*;
    let (h, ints, b, back) = on(&ASCEND910B, || {
        let h = scalar_cast_to_half(3.14159, CAST_ODD)?;
        let mut ints = Vec::new();
        for x in [1.5f32, 2.5, -2.5, 3.0e10, f32::NAN] {
            for m in [CAST_ROUND, CAST_CEIL, CAST_FLOOR, CAST_RINT] {
                ints.push(scalar_cast_to_int32(x, m)?);
            }
        }
        let b = scalar_cast_to_bf16(3.14159)?;
        Ok((h, ints, b, scalar_cast_from_bf16(b)?))
    })
    .unwrap();
    // 3.14159 lies between the halves 3.140625 and 3.142578125: round to odd takes the odd one.
    assert_eq!(h.to_bits(), 0x4249); // 3.142578125
    assert_eq!(
        ints,
        [
            2,
            2,
            1,
            2,
            3,
            3,
            2,
            2,
            -3,
            -2,
            -3,
            -2,
            i32::MAX,
            i32::MAX,
            i32::MAX,
            i32::MAX,
            0,
            0,
            0,
            0
        ]
    );
    assert_eq!(b.to_f32(), 3.140625);
    assert_eq!(back, 3.140625);
    let e = on(&ASCEND910B, || scalar_cast_to_half(1.0, CAST_RINT)).unwrap_err();
    assert!(e.message.contains("CAST_ODD"), "{e}");
    let e = on(&ASCEND910B, || scalar_cast_to_int32(1.0, CAST_TRUNC)).unwrap_err();
    assert!(e.message.contains("CAST_TRUNC"), "{e}");
}

#[test]
fn product_table() {
    assert_eq!(on(&ASCEND310P, || count_leading_zero(1)).unwrap(), 63);
    for p in [&ASCEND910, &ASCEND310B] {
        let e = on(p, || get_bit_count(1, 1)).unwrap_err();
        assert_eq!(e.category, Category::Unsupported);
    }
    let e = on(&ASCEND310P, || scalar_cast_to_bf16(1.0)).unwrap_err();
    assert_eq!(e.category, Category::Unsupported);
    let e = on(&ASCEND910B, || get_bit_count(2, 1)).unwrap_err();
    assert!(e.message.contains("countValue"), "{e}");
}
