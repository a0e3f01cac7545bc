//! Broadcast: every path (copy, one element, axis 0, axis 1 aligned and padded, chunked) on A2
//! and 310P for 1-, 2- and 4-byte elements against the expanded source, the host helper, errors.

use crate::ub_harness;

use ascendc::adv::common::Tmp;
use ascendc::adv::pad::broadcast::{broadcast, broadcast_max_min_tmp_size};
use ascendc::{bf16, f16, Element};
use ub_harness::*;

/// `dst[i, j] = src[i or 0, j or 0]` for a `[m, n]` result.
fn expand<T: Copy>(src: &[T], src_shape: &[u32], dst_shape: &[u32]) -> Vec<T> {
    let (m, n) = (dst_shape[0], dst_shape.get(1).copied().unwrap_or(1));
    let (sm, sn) = (src_shape[0], src_shape.get(1).copied().unwrap_or(1));
    let mut out = Vec::new();
    for i in 0..m {
        for j in 0..n {
            let (a, b) = (if sm == 1 { 0 } else { i }, if sn == 1 { 0 } else { j });
            out.push(src[(a * sn + b) as usize]);
        }
    }
    out
}

fn values<T: Element>(n: u32) -> Vec<T> {
    (0..n)
        .map(|i| T::from_f64(((i * 37 + 11) % 101) as f64 - 50.0))
        .collect()
}

/// Runs one broadcast and compares bit for bit (the elements past the result stay as filled).
fn case<T: Element + PartialEq + std::fmt::Debug>(
    product: &str,
    src_shape: &[u32],
    dst_shape: &[u32],
    axis: u32,
    tmp: Option<u32>,
) {
    // None: the host helper's maximum.
    let tmp = tmp.unwrap_or_else(|| {
        let (max, _) =
            broadcast_max_min_tmp_size(src_shape, dst_shape, T::SIZE as u32, product == "310P")
                .unwrap();
        max.max(32).div_ceil(32) * 32
    });
    let ss: u32 = src_shape.iter().product();
    let ds: u32 = dst_shape.iter().product();
    let src = values::<T>(ss);
    let fill = T::from_f64(99.0);
    let got = run_p(product, |ub| {
        // Tensors are whole 32-byte blocks, as InitBuffer sizes them (Brcb reads 8 at a time).
        let s = ub.tensor::<T>(
            (ss * T::SIZE as u32).div_ceil(32) * 32 / T::SIZE as u32,
            fill,
        );
        for (i, v) in src.iter().enumerate() {
            s.set_value(i as u32, *v).unwrap();
        }
        let d = ub.tensor::<T>(ds + 32, fill);
        let t = ub.tensor::<u8>(tmp, 0);
        broadcast(&d, &s, dst_shape, src_shape, axis, Tmp::Shared(&t))?;
        d.to_vec()
    });
    let mut want = expand(&src, src_shape, dst_shape);
    want.extend(std::iter::repeat_n(fill, 32));
    assert_eq!(
        got,
        want,
        "{product} {} {src_shape:?} → {dst_shape:?} axis {axis}",
        T::DTYPE
    );
}

fn all_paths<T: Element + PartialEq + std::fmt::Debug>(product: &str) {
    let blk = 32 / T::SIZE as u32;
    let blk16 = 32 / T::SIZE.max(2) as u32;
    // Same size, one element, 1-D.
    // (310P copies equal sizes with DataCopy: whole 32-byte blocks.)
    let same = if product == "310P" { 48 } else { 40 };
    case::<T>(product, &[same], &[same], 0, None);
    case::<T>(product, &[1], &[72], 0, Some(1024));
    case::<T>(product, &[1, 1], &[3, 32], 0, Some(1024));
    // Axis 0: small, and rows of 255 blocks or more (a row an instruction).
    case::<T>(product, &[1, 2 * blk16], &[11, 2 * blk16], 0, Some(1024));
    case::<T>(product, &[1, 256 * blk16], &[3, 256 * blk16], 0, None);
    // Axis 1: rows of whole blocks; several chunks with the smallest buffer.
    let m = 4 * blk16;
    case::<T>(product, &[m, 1], &[m, 2 * blk16], 1, None);
    let (max, min) =
        broadcast_max_min_tmp_size(&[m, 1], &[m, 2 * blk16], T::SIZE as u32, product == "310P")
            .unwrap();
    if product != "310P" {
        // Chunks of a block of rows at the minimum.
        case::<T>(
            product,
            &[m, 1],
            &[m, 2 * blk16],
            1,
            Some(min.div_ceil(32) * 32),
        );
        // A2/A3 only: any row count, padded rows packed by GatherMask.
        case::<T>(product, &[13, 1], &[13, 2 * blk16], 1, None);
        case::<T>(product, &[40, 1], &[40, blk16 + 3], 1, None);
        let min = broadcast_max_min_tmp_size(&[300, 1], &[300, 5], T::SIZE as u32, false)
            .unwrap()
            .1;
        case::<T>(
            product,
            &[300, 1],
            &[300, 5],
            1,
            Some(min.div_ceil(32) * 32),
        );
    } else {
        // 310P: the maximum (the whole result) works; see broadcast_errors for the minimum.
        case::<T>(
            product,
            &[m, 1],
            &[m, 2 * blk16],
            1,
            Some(max.div_ceil(32) * 32),
        );
    }
    let _ = blk;
}

#[test]
fn broadcast_every_path_on_a2() {
    all_paths::<f32>("A2");
    all_paths::<f16>("A2");
    all_paths::<bf16>("A2");
    all_paths::<i8>("A2");
    all_paths::<u8>("A2");
    all_paths::<i32>("A2");
}

#[test]
fn broadcast_every_path_on_310p() {
    all_paths::<f32>("310P");
    all_paths::<f16>("310P");
    all_paths::<i8>("310P");
}

/// The page's example: float [16, 1] → [16, 3]... uses the documented call shape: a column
/// spread along axis 1.
#[test]
fn broadcast_page_example_shape() {
    case::<f32>("A2", &[16, 1], &[16, 3], 1, Some(4096));
    case::<f16>("A2", &[1, 16], &[5, 16], 0, Some(1024));
}

#[test]
fn broadcast_errors() {
    let go = |p: &'static str, ss: &'static [u32], ds: &'static [u32], axis: u32, tmp: u32| {
        error_on(p, move |ub| {
            let s = ub.tensor::<f32>(64, 1.0);
            let d = ub.tensor::<f32>(1024, 0.0);
            let t = ub.tensor::<u8>(tmp, 0);
            broadcast(&d, &s, ds, ss, axis, Tmp::Shared(&t))
        })
    };
    assert!(go("A2", &[2, 3], &[4, 3], 0, 1024)
        .message
        .contains("can not broadcast"));
    assert!(go("A2", &[1, 1, 1], &[2, 2, 2], 0, 1024)
        .message
        .contains("dim = 3"));
    assert!(go("A2", &[1, 12], &[4, 12], 0, 1024)
        .message
        .contains("whole 32-byte blocks"));
    assert!(go("A2", &[16, 1], &[16, 8], 1, 64)
        .message
        .contains("too small"));
    assert!(go("310P", &[12, 1], &[12, 8], 1, 4096)
        .message
        .contains("dstShape[0] = 12"));
    assert!(go("A2", &[16, 1], &[64, 16], 1, 4096)
        .message
        .contains("can not broadcast"));
    // 310P, axis 1 at the vendor's minimum (32 + 8 · ⌈16/8⌉ · 4 bytes): its chunks would overrun.
    let e = go("310P", &[32, 1], &[32, 16], 1, 96);
    assert!(e.message.contains("built as 16 rows"), "{e}");
    let e = error_on("A2", |ub| {
        let s = ub.tensor::<i64>(4, 1);
        let d = ub.tensor::<i64>(16, 0);
        let t = ub.tensor::<u8>(1024, 0);
        broadcast(&d, &s, &[4, 4], &[4, 1], 1, Tmp::Shared(&t))
    });
    assert!(e.message.contains("T = int64_t"), "{e}");
}

#[test]
fn broadcast_host_helper() {
    // Same size / one element: nothing, 32 bytes + the half copies for 1-byte types.
    assert_eq!(
        broadcast_max_min_tmp_size(&[16, 8], &[16, 8], 4, false),
        Some((0, 0))
    );
    assert_eq!(
        broadcast_max_min_tmp_size(&[1], &[32], 1, false),
        Some(((16 + 32) * 2 + 32, (16 + 32) * 2 + 32))
    );
    // Axis 0: one block.
    assert_eq!(
        broadcast_max_min_tmp_size(&[1, 16], &[8, 16], 4, false),
        Some((32, 32))
    );
    assert_eq!(
        broadcast_max_min_tmp_size(&[1, 12], &[8, 12], 4, false),
        None
    );
    // Axis 1 on A2, aligned rows: 8 × 8 floats, up to ⌈m/8⌉·8 blocks.
    assert_eq!(
        broadcast_max_min_tmp_size(&[20, 1], &[20, 16], 4, false),
        (Some((24 * 8 * 4, 8 * 8 * 4)))
    );
    // Padded rows: plus the padded copy.
    assert_eq!(
        broadcast_max_min_tmp_size(&[20, 1], &[20, 5], 4, false),
        Some((24 * 8 * 4 + 20 * 8 * 4, 8 * 8 * 4 + 8 * 8 * 4))
    );
    // 310P: whole blocks of rows needed.
    assert_eq!(
        broadcast_max_min_tmp_size(&[16, 1], &[16, 16], 4, true),
        Some((32 + 16 * 16 * 4, 32 + 8 * 2 * 4))
    );
    assert_eq!(
        broadcast_max_min_tmp_size(&[12, 1], &[12, 16], 4, true),
        None
    );
}
