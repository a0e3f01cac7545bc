//! The sorting family: the pages' worked examples, ordering rules (ties, suspension, counts),
//! per-product support, validation, instruction footprints, and property tests against a
//! reference stable sort in both layouts.

use ascendc::chip::{ASCEND310B, ASCEND310P, ASCEND910, ASCEND910B, ASCEND910_93};
use ascendc::prelude::*;
use ascendc::{Category, ChipProfile, LaunchReport, SimError};
use proptest::prelude::*;
use std::sync::Mutex;

type Buf = TBuf<QuePosition::VECCALC>;

fn run<R: Send>(
    p: &'static ChipProfile,
    f: impl Fn(&Buf) -> Result<R> + Sync,
) -> std::result::Result<(R, LaunchReport), ascendc::LaunchError> {
    let out = Mutex::new(None);
    let report = Launch::new(1).profile(p).record_trace(true).run(|| {
        let mut pipe = TPipe::new();
        let mut buf = Buf::new();
        pipe.init_buffer(&mut buf, 1, 96 * 1024)?;
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
    let e = run(p, f).expect_err("the call must fail").errors[0].clone();
    assert!(e.location.is_some(), "{e}");
    e
}

fn mentions(e: &SimError, parts: &[&str]) {
    let t = e.to_string();
    for p in parts {
        assert!(t.contains(p), "`{t}` does not mention `{p}`");
    }
}

fn h(x: f32) -> f16 {
    f16::from_f32(x)
}

/// A tensor of `v` at byte `at` of the buffer.
fn put<T: Element>(b: &Buf, at: u32, v: &[T]) -> Result<LocalTensor<T>> {
    let t = b.get_with_offset::<T>(v.len() as u32, at)?;
    for (i, x) in v.iter().enumerate() {
        t.set_value(i as u32, *x)?;
    }
    Ok(t)
}

/// A zeroed tensor of `n` elements at byte `at`.
fn zeros<T: Element>(b: &Buf, at: u32, n: u32) -> Result<LocalTensor<T>> {
    put(b, at, &vec![T::default(); n as usize])
}

/// (score, index) pairs of a float pair tensor.
fn pairs_f32(t: &LocalTensor<f32>, n: usize) -> Result<Vec<(f32, u32)>> {
    let w = t.reinterpret_cast::<u32>().to_vec()?;
    Ok((0..n)
        .map(|i| (f32::from_bits(w[2 * i]), w[2 * i + 1]))
        .collect())
}

/// (score, reserved bytes, index) of a half pair tensor.
fn pairs_f16(t: &LocalTensor<f16>, n: usize) -> Result<Vec<(f32, u16, u32)>> {
    let w = t.reinterpret_cast::<u16>().to_vec()?;
    Ok((0..n)
        .map(|i| {
            let q = &w[4 * i..4 * i + 4];
            (
                f16::from_bits(q[0]).to_f32(),
                q[1],
                q[2] as u32 | (q[3] as u32) << 16,
            )
        })
        .collect())
}

/// Reference: positions of `s` by descending score, ties in input order.
fn reference(s: &[f32]) -> Vec<usize> {
    let mut o: Vec<usize> = (0..s.len()).collect();
    o.sort_by(|&a, &b| s[b].partial_cmp(&s[a]).unwrap());
    o
}

fn info(lens: [u16; 4], susp: bool, valid: u16, rep: u16) -> MrgSort4Info {
    MrgSort4Info::new(lens, susp, valid, rep)
}

// ---------------------------------------------------------------- (score, index) pairs

#[test]
fn sort32_sorts_each_repeat_with_indices() {
    // 128 scores, repeat 4 (the page's call): each group of 32 sorted on its own.
    let s: Vec<f32> = (0..128).map(|i| ((i * 37) % 128) as f32 - 60.0).collect();
    let got = ok(&ASCEND910B, |b| {
        let src0 = put(b, 0, &s)?;
        let idx: Vec<u32> = (0..128).collect();
        let src1 = put(b, 512, &idx)?;
        let dst = zeros::<f32>(b, 1024, 256)?;
        sort32(&dst, &src0, &src1, 4)?;
        pairs_f32(&dst, 128)
    });
    for g in 0..4 {
        let part = &s[g * 32..g * 32 + 32];
        let want: Vec<(f32, u32)> = reference(part)
            .into_iter()
            .map(|i| (part[i], (g * 32 + i) as u32))
            .collect();
        assert_eq!(&got[g * 32..g * 32 + 32], &want[..], "group {g}");
    }
}

#[test]
fn sort32_half_layout_and_ties() {
    // Equal scores keep input order; half pairs: score in bytes 0-1, 0 in bytes 2-3.
    let s: Vec<f16> = (0..32).map(|i| h((i % 4) as f32)).collect();
    let got = ok(&ASCEND310B, |b| {
        let src0 = put(b, 0, &s)?;
        let idx: Vec<u32> = (0..32).map(|i| 1000 + i).collect();
        let src1 = put(b, 128, &idx)?;
        let dst = put(b, 256, &[h(-1.0); 128])?;
        sort32(&dst, &src0, &src1, 1)?;
        pairs_f16(&dst, 32)
    });
    let mut want = Vec::new();
    for v in [3u32, 2, 1, 0] {
        for i in (0..32).filter(|i| i % 4 == v) {
            want.push((v as f32, 0u16, 1000 + i));
        }
    }
    assert_eq!(got, want);
}

#[test]
fn sort32_negative_zero_ties_positive_zero() {
    let mut s = vec![-1.0f32; 32];
    s[3] = 0.0;
    s[1] = -0.0;
    s[7] = 0.0;
    let got = ok(&ASCEND910_93, |b| {
        let src0 = put(b, 0, &s)?;
        let src1 = put(b, 128, &(0..32).collect::<Vec<u32>>())?;
        let dst = zeros::<f32>(b, 256, 64)?;
        sort32(&dst, &src0, &src1, 1)?;
        pairs_f32(&dst, 3)
    });
    assert_eq!(
        got.iter().map(|p| p.1).collect::<Vec<_>>(),
        vec![1, 3, 7],
        "-0 and +0 compare equal: input order"
    );
}

/// Sort32 of `s` with indices `idx`, then MrgSort of the four 32-pair lists.
fn sort_and_merge(b: &Buf, s: &[f32], idx: &[u32], p: MrgSort4Info) -> Result<Vec<(f32, u32)>> {
    let n = s.len() as u32;
    let src0 = put(b, 0, s)?;
    let src1 = put(b, 4096, idx)?;
    let work = zeros::<f32>(b, 8192, 2 * n)?;
    sort32(&work, &src0, &src1, (n / 32) as i32)?;
    let dst = zeros::<f32>(b, 16384, 2 * n)?;
    let list = MrgSortSrcList::new(work, work.at(64)?, work.at(128)?, work.at(192)?);
    mrg_sort(&dst, &list, &p)?;
    pairs_f32(&dst, n as usize)
}

#[test]
fn get_mrg_sort_result_page_example() {
    // The page's data: scores 1..=128, index 0; Sort32 x4 then MrgSort 4 x 32.
    let s: Vec<f32> = (1..=128).map(|i| i as f32).collect();
    let zero = vec![0u32; 128];
    // Without suspension: the printed dstLocal, 128 0 127 0 ... 1 0.
    let full = ok(&ASCEND910B, |b| {
        sort_and_merge(b, &s, &zero, info([32; 4], false, 0b1111, 1))
    });
    let want: Vec<(f32, u32)> = (1..=128).rev().map(|v| (v as f32, 0)).collect();
    assert_eq!(full, want);
    // With ifExhaustedSuspension = true (the page's mrgSortInfo): list 4 holds 128..97 and is
    // exhausted first, so the merge stops after its 32 pairs and the counts say so. (The page
    // prints the full merge for this call; the documented stop rule gives 32 pairs.)
    let (got, counts) = ok(&ASCEND910B, |b| {
        let v = sort_and_merge(b, &s, &zero, info([32; 4], true, 0b1111, 1))?;
        Ok((v, get_mrg_sort_result()?))
    });
    assert_eq!(got[..32], want[..32]);
    assert!(
        got[32..].iter().all(|&p| p == (0.0, 0)),
        "nothing past the 32 pairs"
    );
    assert_eq!(counts, [0, 0, 0, 32]);
}

#[test]
fn mrg_sort_page_example_two_repeats() {
    // 8 sorted lists of 32 pairs, repeatTimes 2: two independent merges of 128.
    let s: Vec<f32> = (0..256).map(|i| ((i * 97) % 251) as f32 / 4.0).collect();
    let got = ok(&ASCEND910B, |b| {
        let src0 = put(b, 0, &s)?;
        let src1 = put(b, 1024, &(0..256).collect::<Vec<u32>>())?;
        let work = zeros::<f32>(b, 2048, 512)?;
        sort32(&work, &src0, &src1, 8)?;
        let dst = zeros::<f32>(b, 4096, 512)?;
        let list = MrgSortSrcList::new(work, work.at(64)?, work.at(128)?, work.at(192)?);
        mrg_sort(&dst, &list, &info([32; 4], false, 0b1111, 2))?;
        pairs_f32(&dst, 256)
    });
    for r in 0..2 {
        let part = &s[r * 128..r * 128 + 128];
        let want: Vec<(f32, u32)> = reference(part)
            .into_iter()
            .map(|i| (part[i], (r * 128 + i) as u32))
            .collect();
        assert_eq!(&got[r * 128..r * 128 + 128], &want[..], "repeat {r}");
    }
}

#[test]
fn mrg_sort_sample_scenarios() {
    // The devkit sample: 3 lists (validBit 0b111) and 1024 elements in three rounds.
    let s: Vec<f32> = (0..1024)
        .map(|i| ((i * 7919) % 1009) as f32 * 0.125)
        .collect();
    let idx: Vec<u32> = (0..1024).collect();
    let three = ok(&ASCEND910B, |b| {
        sort_and_merge(
            b,
            &s[..128],
            &idx[..128],
            info([32, 32, 32, 0], false, 0b111, 1),
        )
    });
    let want: Vec<(f32, u32)> = reference(&s[..96])
        .into_iter()
        .map(|i| (s[i], i as u32))
        .collect();
    assert_eq!(three[..96], want[..]);
    let all = ok(&ASCEND910B, |b| {
        let src0 = put(b, 0, &s)?;
        let src1 = put(b, 4096, &idx)?;
        let work = zeros::<f32>(b, 8192, 6144)?;
        sort32(&work, &src0, &src1, 32)?;
        pipe_barrier(PIPE_V)?;
        let (t1, t2) = (work.at(2048)?, work.at(4096)?);
        let l = |t: LocalTensor<f32>, n: u32| -> Result<MrgSortSrcList<f32>> {
            Ok(MrgSortSrcList::new(
                t,
                t.at(2 * n)?,
                t.at(4 * n)?,
                t.at(6 * n)?,
            ))
        };
        mrg_sort(&t1, &l(work, 32)?, &info([32; 4], false, 15, 8))?;
        mrg_sort(&t2, &l(t1, 128)?, &info([128; 4], false, 15, 2))?;
        let dst = zeros::<f32>(b, 40960, 2048)?;
        let two = MrgSortSrcList::new(
            t2,
            t2.at(1024)?,
            LocalTensor::default(),
            LocalTensor::default(),
        );
        mrg_sort(&dst, &two, &info([512, 512, 0, 0], false, 0b11, 1))?;
        pairs_f32(&dst, 1024)
    });
    let want: Vec<(f32, u32)> = reference(&s)
        .into_iter()
        .map(|i| (s[i], i as u32))
        .collect();
    assert_eq!(all, want);
}

#[test]
fn mrg_sort_ties_go_to_the_lower_list_and_suspension_counts() {
    // Lists of 4 pairs with equal scores across lists; indices name list and position.
    let got = ok(&ASCEND910B, |b| {
        let lists: [[f32; 4]; 4] = [
            [5.0, 3.0, 3.0, 1.0],
            [5.0, 4.0, 3.0, 0.0],
            [6.0, 3.0, 2.0, 2.0],
            [9.0, 9.0, 9.0, 9.0],
        ];
        let mut words = Vec::new();
        for (k, l) in lists.iter().enumerate() {
            for (i, v) in l.iter().enumerate() {
                words.push(v.to_bits());
                words.push((10 * k + i) as u32);
            }
        }
        let src = put(b, 0, &words)?.reinterpret_cast::<f32>();
        let list = MrgSortSrcList::new(src, src.at(8)?, src.at(16)?, src.at(24)?);
        let dst = zeros::<f32>(b, 1024, 32)?;
        mrg_sort(&dst, &list, &info([4, 4, 4, 0], false, 0b111, 1))?;
        let merged = pairs_f32(&dst, 12)?;
        // Suspension with all four lists: list 4 (all 9s) runs out first.
        let dst2 = zeros::<f32>(b, 2048, 32)?;
        mrg_sort(&dst2, &list, &info([4, 4, 4, 4], true, 15, 1))?;
        Ok((merged, pairs_f32(&dst2, 5)?, get_mrg_sort_result()?))
    });
    let idx: Vec<u32> = got.0.iter().map(|p| p.1).collect();
    assert_eq!(idx, vec![20, 0, 10, 11, 1, 2, 12, 21, 22, 23, 3, 13]);
    assert_eq!(
        got.1.iter().map(|p| p.1).collect::<Vec<_>>(),
        vec![30, 31, 32, 33, 0],
        "stops after list 4 is exhausted"
    );
    assert_eq!(got.1[4], (0.0, 0), "only four pairs written");
    assert_eq!(got.2, [0, 0, 0, 4]);
}

#[test]
fn get_mrg_sort_result_needs_a_suspending_merge() {
    let e = err(&ASCEND910B, |b| {
        let w = zeros::<f32>(b, 0, 256)?;
        let d = zeros::<f32>(b, 1024, 256)?;
        let l = MrgSortSrcList::new(w, w.at(64)?, w.at(128)?, w.at(192)?);
        mrg_sort(&d, &l, &info([32; 4], false, 15, 1))?;
        get_mrg_sort_result()
    });
    assert_eq!(e.category, Category::Range);
    mentions(&e, &["GetMrgSortResult", "ifExhaustedSuspension = false"]);
}

#[test]
fn mrg_sort_half_keeps_the_whole_pair() {
    // Half pairs move as 8 bytes, reserved bytes included.
    let got = ok(&ASCEND910B, |b| {
        let s: Vec<f16> = (0..64).map(|i| h(((i * 13) % 64) as f32)).collect();
        let src0 = put(b, 0, &s)?;
        let src1 = put(b, 256, &(0..64).map(|i| 7 * i).collect::<Vec<u32>>())?;
        let work = zeros::<f16>(b, 512, 256)?;
        sort32(&work, &src0, &src1, 2)?;
        let dst = zeros::<f16>(b, 1024, 256)?;
        let list = MrgSortSrcList::new(
            work,
            work.at(128)?,
            LocalTensor::default(),
            LocalTensor::default(),
        );
        mrg_sort(&dst, &list, &info([32, 32, 0, 0], false, 3, 1))?;
        Ok((pairs_f16(&dst, 64)?, s))
    });
    let s: Vec<f32> = got.1.iter().map(|x| x.to_f32()).collect();
    let want: Vec<(f32, u16, u32)> = reference(&s)
        .into_iter()
        .map(|i| (s[i], 0, 7 * i as u32))
        .collect();
    assert_eq!(got.0, want);
}

#[test]
fn pair_footprints_are_recorded() {
    let (_, r) = run(&ASCEND910B, |b| {
        let src0 = zeros::<f32>(b, 0, 128)?;
        let src1 = zeros::<u32>(b, 512, 128)?;
        let work = zeros::<f32>(b, 1024, 256)?;
        sort32(&work, &src0, &src1, 4)?;
        let dst = zeros::<f32>(b, 2048, 256)?;
        let list = MrgSortSrcList::new(work, work.at(64)?, work.at(128)?, work.at(192)?);
        mrg_sort(&dst, &list, &info([32, 32, 32, 20], false, 15, 1))
    })
    .unwrap();
    let t = &r.blocks[0].trace;
    let find = |api: &str| t.instructions().iter().find(|i| i.api == api).unwrap();
    let s = find("Sort32");
    assert_eq!(s.pipe, Pipe::V);
    let acc: Vec<_> = t
        .accesses(s)
        .iter()
        .map(|a| (a.write, a.base, a.len, a.repeats, a.repeat_stride))
        .collect();
    assert_eq!(
        acc,
        vec![
            (false, 0, 128, 4, 128),
            (false, 512, 128, 4, 128),
            (true, 1024, 256, 4, 256)
        ]
    );
    let m = find("MrgSort");
    let acc: Vec<_> = t
        .accesses(m)
        .iter()
        .map(|a| (a.write, a.base, a.len as u64 * a.repeats as u64))
        .collect();
    // Reads: the pairs taken from each list; writes: 116 pairs = 3 chunks of 256 + 160 bytes.
    assert_eq!(
        acc,
        vec![
            (false, 1024, 256),
            (false, 1280, 256),
            (false, 1536, 256),
            (false, 1792, 160),
            (true, 2048, 768),
            (true, 2816, 160)
        ]
    );
}

// ---------------------------------------------------------------- region proposals

const CONCAT_PAGE: [f32; 32] = [
    33.3, 67.56, 68.5, -11.914, 25.19, -72.8, 11.79, -49.47, 49.44, 84.4, -14.36, 45.97, 52.47,
    -5.387, -13.12, -88.9, 54., -51.62, -20.67, 59.56, 35.72, -6.12, -39.4, -11.46, -7.066, 30.23,
    -11.18, -35.84, -40.88, 60.9, -73.3, 38.47,
];

#[test]
fn proposal_concat_and_extract_page_examples() {
    for p in [&ASCEND910, &ASCEND310P] {
        let (props, back) = ok(p, |b| {
            let src = put(b, 0, &CONCAT_PAGE.map(h))?;
            let dst = zeros::<f16>(b, 1024, 256)?;
            proposal_concat(&dst, &src, 2, 4)?;
            let out = zeros::<f16>(b, 2048, 32)?;
            proposal_extract(&out, &dst, 2, 4)?;
            Ok((dst.to_vec()?, out.to_vec()?))
        });
        for (i, v) in props.iter().enumerate() {
            let want = if i % 8 == 4 {
                h(CONCAT_PAGE[i / 8])
            } else {
                h(0.0)
            };
            assert_eq!(v.to_bits(), want.to_bits(), "element {i} on {}", p.soc);
        }
        assert_eq!(back, CONCAT_PAGE.map(h).to_vec());
    }
}

#[test]
fn proposal_concat_keeps_the_other_fields() {
    let got = ok(&ASCEND310P, |b| {
        let src = put(b, 0, &(0..16).map(|i| i as f32).collect::<Vec<_>>())?;
        let dst = put(b, 1024, &[-2.0f32; 128])?;
        proposal_concat(&dst, &src, 1, 5)?;
        dst.to_vec()
    });
    for (i, v) in got.iter().enumerate() {
        let want = if i % 8 == 5 { (i / 8) as f32 } else { -2.0 };
        assert_eq!(*v, want, "element {i}");
    }
}

#[test]
fn rp_sort16_page_example() {
    let src: [f32; 32] = [
        -1.624, -42.3, -54.12, 91.25, -99.4, 36.72, 67.44, -66.3, -52.53, 3.377, -62.47, -15.85,
        -31.47, 3.143, 58.47, -83.75, 21.58, 63.47, 7.234, 35.16, -39.72, 37.8, 73.06, -98.7, 44.1,
        -77.2, 67.2, 19.62, -87.9, -14.875, 15.86, -77.75,
    ];
    let want: [f32; 32] = [
        91.25, 67.44, 58.47, 36.72, 3.377, 3.143, -1.624, -15.85, -31.47, -42.3, -52.53, -54.12,
        -62.47, -66.3, -83.75, -99.4, 73.06, 67.2, 63.47, 44.1, 37.8, 35.16, 21.58, 19.62, 15.86,
        7.234, -14.875, -39.72, -77.2, -77.75, -87.9, -98.7,
    ];
    let got = ok(&ASCEND910, |b| {
        let s = put(b, 0, &src.map(h))?;
        let d = zeros::<f16>(b, 1024, 256)?;
        proposal_concat(&d, &s, 2, 4)?;
        rp_sort16(&d, &d, 2)?;
        d.to_vec()
    });
    for (i, v) in got.iter().enumerate() {
        let w = if i % 8 == 4 { h(want[i / 8]) } else { h(0.0) };
        assert_eq!(v.to_bits(), w.to_bits(), "element {i}");
    }
}

const MRGSORT4_PAGE_IN: [f32; 64] = [
    -38.1, 82.7, -40.75, -54.62, 21.67, -58.53, 25.94, -79.5, -61.44, 26.7, -27.45, 48.78, 86.75,
    -18.1, -58.8, 62.38, 46.38, -78.94, -87.7, -13.81, -13.25, 46.94, -47.8, -50.44, 34.16, 20.3,
    80.1, -94.1, 52.4, -42.75, 83.4, 80.44, -66.8, -82.7, -91.44, -95.6, 66.2, -30.97, -36.53,
    61.66, 24.92, -45.1, 38.97, -34.62, -69.8, 59.1, 34.22, 11.695, -33.47, 52.1, -4.832, 46.88,
    56.78, 71.4, 13.29, -35.78, 52.44, -46.03, 83.8, 83.56, 71.3, -9.086, -65.06, 46.25,
];

const MRGSORT4_PAGE_OUT: [f32; 64] = [
    86.75, 83.8, 83.56, 83.4, 82.7, 80.44, 80.1, 71.4, 71.3, 66.2, 62.38, 61.66, 59.1, 56.78,
    52.44, 52.4, 52.1, 48.78, 46.94, 46.88, 46.38, 46.25, 38.97, 34.22, 34.16, 26.7, 25.94, 24.92,
    21.67, 20.3, 13.29, 11.695, -4.832, -9.086, -13.25, -13.81, -18.1, -27.45, -30.97, -33.47,
    -34.62, -35.78, -36.53, -38.1, -40.75, -42.75, -45.1, -46.03, -47.8, -50.44, -54.62, -58.53,
    -58.8, -61.44, -65.06, -66.8, -69.8, -78.94, -79.5, -82.7, -87.7, -91.44, -94.1, -95.6,
];

/// ProposalConcat + RpSort16 per 16 scores, MrgSort4 of the four lists, scores and labels out.
fn proposal_pipeline<T: Element>(
    b: &Buf,
    scores: &[T],
    labels: &[T],
    p: MrgSort4Info,
) -> Result<(Vec<T>, Vec<T>)> {
    let size = T::SIZE as u32;
    let src = put(b, 0, scores)?;
    let lab = put(b, 512, labels)?;
    let work = zeros::<T>(b, 1024, 512)?;
    proposal_concat(&work, &src, 4, 4)?;
    proposal_concat(&work, &lab, 4, 5)?;
    for g in 0..4 {
        let t = work.at(g * 128)?;
        rp_sort16(&t, &t, 1)?;
    }
    let out = zeros::<T>(b, 1024 + 512 * size, 512)?;
    let list = MrgSortSrcList::new(work, work.at(128)?, work.at(256)?, work.at(384)?);
    mrg_sort4(&out, &list, &p)?;
    let (s, l) = (
        zeros::<T>(b, 1024 + 1024 * size, 64)?,
        zeros::<T>(b, 1024 + 1024 * size + 64 * size, 64)?,
    );
    proposal_extract(&s, &out, 4, 4)?;
    proposal_extract(&l, &out, 4, 5)?;
    Ok((s.to_vec()?, l.to_vec()?))
}

#[test]
fn mrg_sort4_page_example() {
    let mut sorted = MRGSORT4_PAGE_IN.to_vec();
    sorted.sort_by(|a, b| b.partial_cmp(a).unwrap());
    assert_eq!(
        sorted,
        MRGSORT4_PAGE_OUT.to_vec(),
        "the page's output is its input sorted"
    );
    for p in [&ASCEND910, &ASCEND310P] {
        let labels: Vec<f16> = (0..64).map(|i| h(i as f32)).collect();
        let (s, _) = ok(p, |b| {
            proposal_pipeline(
                b,
                &MRGSORT4_PAGE_IN.map(h),
                &labels,
                info([16; 4], false, 15, 1),
            )
        });
        assert_eq!(s, MRGSORT4_PAGE_OUT.map(h).to_vec(), "{}", p.soc);
    }
}

#[test]
fn mrg_sort4_float_suspension_and_counts_on_310p() {
    let s: Vec<f32> = (0..64)
        .map(|i| (i % 16) as f32 + (i / 16) as f32 * 0.25)
        .collect();
    let labels: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let (got, counts) = ok(&ASCEND310P, |b| {
        let r = proposal_pipeline(b, &s, &labels, info([16; 4], true, 15, 1))?;
        Ok((r, get_mrg_sort_result()?))
    });
    // List k holds 15 ... 0 plus k/4: the lists advance together and list 4 runs out with its
    // 0.75, after 61 items; the 0.0, 0.25 and 0.5 of lists 1-3 are left.
    let order = reference(&s);
    let n = 61;
    assert_eq!(counts, [15, 15, 15, 16]);
    assert_eq!(
        got.1[..n],
        order[..n].iter().map(|&i| i as f32).collect::<Vec<_>>()[..]
    );
    assert!(got.0[n..].iter().all(|&x| x == 0.0));
}

// ---------------------------------------------------------------- validation

#[test]
fn products_and_types() {
    let e = err(&ASCEND310P, |b| {
        let t = zeros::<f32>(b, 0, 64)?;
        sort32(&t, &t.at(0)?, &t.reinterpret_cast::<u32>(), 1)
    });
    assert_eq!(e.category, Category::Unsupported);
    mentions(&e, &["Sort32", "not supported"]);
    let e = err(&ASCEND910B, |b| {
        let t = zeros::<f16>(b, 0, 256)?;
        rp_sort16(&t, &t, 1)
    });
    assert_eq!(e.category, Category::Unsupported);
    let e = err(&ASCEND910, |b| {
        let t = zeros::<f32>(b, 0, 128)?;
        rp_sort16(&t, &t, 1)
    });
    assert_eq!(e.category, Category::Type);
    mentions(&e, &["RpSort16", "float"]);
    let e = err(&ASCEND910B, |b| {
        let t = zeros::<i32>(b, 0, 128)?;
        sort32(&t, &t, &t.reinterpret_cast::<u32>(), 1)
    });
    assert_eq!(e.category, Category::Type);
    let e = err(&ASCEND910, |_| get_mrg_sort_result());
    assert_eq!(e.category, Category::Unsupported);
    mentions(&e, &["GetMrgSortResult"]);
    let e = err(&ASCEND310B, |_| get_mrg_sort_result());
    mentions(&e, &["no MrgSort"]);
}

#[test]
fn parameter_errors() {
    let sort = |rep: i32| {
        err(&ASCEND910B, move |b| {
            let s = zeros::<f32>(b, 0, 64)?;
            let i = zeros::<u32>(b, 1024, 64)?;
            let d = zeros::<f32>(b, 2048, 128)?;
            sort32(&d, &s, &i, rep)
        })
    };
    let e = sort(256);
    assert_eq!(e.category, Category::Range);
    mentions(&e, &["repeatTime", "256", "[0, 255]"]);
    let e = sort(-1);
    mentions(&e, &["repeatTime", "-1"]);
    let e = err(&ASCEND910B, |b| {
        let s = zeros::<f32>(b, 0, 72)?.at(4)?;
        let i = zeros::<u32>(b, 1024, 64)?;
        let d = zeros::<f32>(b, 2048, 128)?;
        sort32(&d, &s, &i, 1)
    });
    assert_eq!(e.category, Category::Align);
    mentions(&e, &["src0", "32"]);
    // 32-byte starts are enough (the vendor's TopK issues Sort32 on such buffers).
    ok(&ASCEND910B, |b| {
        let s = zeros::<f32>(b, 32, 32)?;
        let i = zeros::<u32>(b, 1056, 32)?;
        let d = zeros::<f32>(b, 2080, 64)?;
        sort32(&d, &s, &i, 1)
    });
    let e = sort(3);
    assert_eq!(e.category, Category::Size);
    mentions(&e, &["src0", "3 repeats of 32"]);
    let e = err(&ASCEND910B, |b| {
        let s = zeros::<f32>(b, 0, 32)?;
        s.set_value(5, f32::NAN)?;
        let i = zeros::<u32>(b, 1024, 32)?;
        let d = zeros::<f32>(b, 2048, 64)?;
        sort32(&d, &s, &i, 1)
    });
    mentions(&e, &["src0 item 5", "NaN"]);

    let merge = |p: MrgSort4Info, second: u32, dst_at: u32| {
        err(&ASCEND910B, move |b| {
            let w = zeros::<f32>(b, 0, 1024)?;
            let d = zeros::<f32>(b, dst_at / 32 * 32, 264)?.at(dst_at % 32 / 4)?;
            let l = MrgSortSrcList::new(w, w.at(second)?, w.at(128)?, w.at(192)?);
            mrg_sort(&d, &l, &p)
        })
    };
    let e = merge(info([32; 4], false, 5, 1), 64, 8192);
    mentions(&e, &["params.validBit", "5", "3 (0b11)"]);
    let e = merge(info([4096, 32, 32, 32], false, 15, 1), 64, 8192);
    mentions(&e, &["params.elementLengths[0]", "4096", "[0, 4095]"]);
    let e = merge(info([32; 4], false, 15, 256), 64, 8192);
    mentions(&e, &["params.repeatTimes", "256"]);
    let e = merge(info([32; 4], false, 15, 2), 66, 8192);
    mentions(
        &e,
        &[
            "repeatTimes",
            "list 2 starts at byte 264",
            "right after list 1",
        ],
    );
    let e = merge(info([32; 4], true, 15, 2), 64, 8192);
    mentions(&e, &["ifExhaustedSuspension = true"]);
    let e = merge(info([32, 32, 32, 16], false, 15, 2), 64, 8192);
    mentions(&e, &["elementLengths = [32, 32, 32, 16]"]);
    let e = merge(info([32; 4], false, 15, 1), 64, 512);
    assert_eq!(e.category, Category::Overlap);
    mentions(&e, &["overlaps source list 3"]);
    let e = merge(info([32; 4], false, 15, 1), 64, 8200);
    assert_eq!(e.category, Category::Align);

    let e = err(&ASCEND910, |b| {
        let s = zeros::<f16>(b, 0, 32)?;
        let d = zeros::<f16>(b, 1024, 256)?;
        proposal_concat(&d, &s, 1, 6)
    });
    mentions(&e, &["modeNumber", "6", "[0, 5]"]);
    let e = err(&ASCEND910, |b| {
        let s = zeros::<f16>(b, 0, 32)?;
        let d = zeros::<f16>(b, 1024, 128)?;
        proposal_concat(&d, &s, 2, 0)
    });
    assert_eq!(e.category, Category::Size);
    mentions(&e, &["dst", "32 region proposals"]);
    let e = err(&ASCEND310P, |b| {
        let w = zeros::<f32>(b, 0, 512)?;
        let d = zeros::<f32>(b, 4096, 512)?;
        let l = MrgSortSrcList::new(w, w.at(128)?, w.at(256)?, w.at(384)?);
        mrg_sort4(&d, &l, &info([16; 4], false, 15, 0))
    });
    mentions(&e, &["MrgSort4", "params.repeatTimes", "[1, 255]"]);
    let e = err(&ASCEND310P, |b| {
        let w = zeros::<f32>(b, 0, 512)?;
        let d = zeros::<f32>(b, 4096, 512)?;
        let l = MrgSortSrcList::new(w, w.at(124)?, w.at(256)?, w.at(384)?);
        mrg_sort4(&d, &l, &info([16; 4], false, 15, 1))
    });
    assert_eq!(e.category, Category::Align);
    mentions(&e, &["src.src2"]);
}

#[test]
fn zero_repeats_do_nothing_with_a_warning() {
    let (v, r) = run(&ASCEND910B, |b| {
        let s = zeros::<f32>(b, 0, 32)?;
        let i = zeros::<u32>(b, 1024, 32)?;
        let d = put(b, 2048, &[3.0f32; 64])?;
        sort32(&d, &s, &i, 0)?;
        let l = MrgSortSrcList::new(s, s.at(8)?, s.at(16)?, s.at(24)?);
        mrg_sort(&d, &l, &info([4; 4], false, 15, 0))?;
        d.to_vec()
    })
    .unwrap();
    assert_eq!(v, vec![3.0; 64]);
    let w: Vec<String> = r.diagnostics().map(|d| d.to_string()).collect();
    assert_eq!(
        w.iter().filter(|m| m.contains("does nothing")).count(),
        2,
        "{w:?}"
    );
}

// ---------------------------------------------------------------- properties

/// Scores from small integers (many ties) scaled into a float range.
fn scores_of(raw: &[i8]) -> Vec<f32> {
    raw.iter().map(|&v| v as f32 * 0.75).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn pairs_match_a_stable_reference_sort(raw in proptest::collection::vec(-20i8..20, 128), half in any::<bool>()) {
        let s = scores_of(&raw);
        let idx: Vec<u32> = (0..128).map(|i| i * 3 + 1).collect();
        let got: Vec<(f32, u32)> = if half {
            ok(&ASCEND910B, |b| {
                let src0 = put(b, 0, &s.iter().map(|&x| h(x)).collect::<Vec<_>>())?;
                let src1 = put(b, 512, &idx)?;
                let work = zeros::<f16>(b, 1024, 512)?;
                sort32(&work, &src0, &src1, 4)?;
                let dst = zeros::<f16>(b, 2048, 512)?;
                let l = MrgSortSrcList::new(work, work.at(128)?, work.at(256)?, work.at(384)?);
                mrg_sort(&dst, &l, &info([32; 4], false, 15, 1))?;
                Ok(pairs_f16(&dst, 128)?.into_iter().map(|p| (p.0, p.2)).collect())
            })
        } else {
            ok(&ASCEND310B, |b| sort_and_merge(b, &s, &idx, info([32; 4], false, 15, 1)))
        };
        let want: Vec<(f32, u32)> = reference(&s).into_iter().map(|i| (s[i], idx[i])).collect();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn partial_merges_and_suspension_match_a_reference(
        raw in proptest::collection::vec(-6i8..6, 128),
        lens in proptest::array::uniform4(0u16..=32),
        valid in prop_oneof![Just(3u16), Just(7), Just(15)],
        susp in any::<bool>(),
    ) {
        let s = scores_of(&raw);
        let idx: Vec<u32> = (0..128).collect();
        let (got, counts) = ok(&ASCEND910_93, |b| {
            let v = sort_and_merge(b, &s, &idx, info(lens, susp, valid, 1))?;
            Ok((v, if susp { Some(get_mrg_sort_result()?) } else { None }))
        });
        // Reference: each list is the sorted group's prefix; merge by heads.
        let n = match valid { 3 => 2, 7 => 3, _ => 4 };
        let lists: Vec<Vec<usize>> = (0..n)
            .map(|k| {
                let g = &s[k * 32..k * 32 + 32];
                reference(g).into_iter().take(lens[k] as usize).map(|i| k * 32 + i).collect()
            })
            .collect();
        let mut pos = vec![0usize; n];
        let mut want = Vec::new();
        loop {
            if susp && (0..n).any(|k| pos[k] == lists[k].len()) { break; }
            let mut best: Option<usize> = None;
            for k in 0..n {
                if pos[k] < lists[k].len()
                    && best.is_none_or(|b| s[lists[k][pos[k]]] > s[lists[b][pos[b]]]) {
                    best = Some(k);
                }
            }
            let Some(k) = best else { break };
            want.push((s[lists[k][pos[k]]], lists[k][pos[k]] as u32));
            pos[k] += 1;
        }
        prop_assert_eq!(&got[..want.len()], &want[..]);
        prop_assert!(got[want.len()..].iter().all(|p| *p == (0.0, 0)));
        if let Some(c) = counts {
            let mut w = [0u16; 4];
            for k in 0..n { w[k] = pos[k] as u16; }
            prop_assert_eq!(c, w);
        }
    }

    #[test]
    fn proposals_match_a_stable_reference_sort(raw in proptest::collection::vec(-20i8..20, 64), float in any::<bool>()) {
        let s = scores_of(&raw);
        let order = reference(&s);
        let want_labels: Vec<f32> = order.iter().map(|&i| i as f32).collect();
        let want_scores: Vec<f32> = order.iter().map(|&i| s[i]).collect();
        let labels: Vec<f32> = (0..64).map(|i| i as f32).collect();
        let (gs, gl) = if float {
            ok(&ASCEND310P, |b| proposal_pipeline(b, &s, &labels, info([16; 4], false, 15, 1)))
        } else {
            let hs: Vec<f16> = s.iter().map(|&x| h(x)).collect();
            let hl: Vec<f16> = labels.iter().map(|&x| h(x)).collect();
            let (a, c) = ok(&ASCEND910, |b| proposal_pipeline(b, &hs, &hl, info([16; 4], false, 15, 1)));
            (a.iter().map(|x| x.to_f32()).collect(), c.iter().map(|x| x.to_f32()).collect())
        };
        prop_assert_eq!(gs, want_scores);
        prop_assert_eq!(gl, want_labels);
    }
}

// ---------------------------------------------------------------- high-level API

/// Concat + Sort (+ full sort) + Extract of `v` with indices `idx` on `p`; (values, indices).
fn high_level<T: Element>(
    p: &'static ChipProfile,
    v: &[T],
    idx: &[u32],
    repeat: i32,
    full: bool,
) -> (Vec<T>, Vec<u32>) {
    ok(p, |b| {
        let n = v.len() as u32;
        let src = put(b, 0, v)?;
        let index = put(b, 8192, idx)?;
        let sorted = zeros::<T>(b, 16384, 8 * n)?;
        let tmp = zeros::<T>(b, 49152, 8 * n)?;
        let concat_tmp = zeros::<T>(b, 32768, 8 * n)?;
        let mut cat = LocalTensor::<T>::default();
        concat(&mut cat, &src, &concat_tmp, repeat)?;
        sort(&sorted, &cat, &index, &tmp, repeat, full)?;
        let values = zeros::<T>(b, 81920, n)?;
        let out_idx = zeros::<u32>(b, 86016, n)?;
        let per = if p.soc == "Ascend310P" { 16 } else { 32 };
        extract(&values, &out_idx, &sorted, (n / per) as i32)?;
        Ok((values.to_vec()?, out_idx.to_vec()?))
    })
}

#[test]
fn high_level_sort_page_examples() {
    // A2: 128 halves [31..0, 63..32, 95..64, 127..96], indices the same, full sort.
    let v: Vec<u32> = (0..128).map(|i| (i / 32) * 32 + 31 - i % 32).collect();
    let hv: Vec<f16> = v.iter().map(|&x| h(x as f32)).collect();
    let (vals, idx) = high_level(&ASCEND910B, &hv, &v, 4, true);
    assert_eq!(
        vals,
        (0..128).rev().map(|x| h(x as f32)).collect::<Vec<_>>()
    );
    assert_eq!(idx, (0..128).rev().collect::<Vec<u32>>());
    // 310P: 64 halves [15..0, 31..16, 47..32, 63..48], 16 per repeat.
    let v: Vec<u32> = (0..64).map(|i| (i / 16) * 16 + 15 - i % 16).collect();
    let hv: Vec<f16> = v.iter().map(|&x| h(x as f32)).collect();
    let (vals, idx) = high_level(&ASCEND310P, &hv, &v, 4, true);
    assert_eq!(vals, (0..64).rev().map(|x| h(x as f32)).collect::<Vec<_>>());
    assert_eq!(idx, (0..64).rev().collect::<Vec<u32>>());
}

#[test]
fn high_level_mrg_sort_page_examples() {
    for (p, n, per) in [(&ASCEND910B, 128u32, 32u32), (&ASCEND310P, 64, 16)] {
        let v: Vec<u32> = (0..n)
            .map(|i| (i / per) * per + per - 1 - i % per)
            .collect();
        let got = ok(p, |b| {
            let hv: Vec<f16> = v.iter().map(|&x| h(x as f32)).collect();
            let src = put(b, 0, &hv)?;
            let index = put(b, 8192, &v)?;
            let sorted = zeros::<f16>(b, 16384, 8 * n)?;
            let tmp = zeros::<f16>(b, 32768, 8 * n)?;
            let mut cat = LocalTensor::<f16>::default();
            concat(&mut cat, &src, &tmp, (n / 16) as i32)?;
            sort(&sorted, &cat, &index, &tmp, (n / per) as i32, false)?;
            let off = get_sort_offset::<f16>(n / 4)?;
            let list = MrgSortSrcList::new(
                sorted,
                sorted.at(off)?,
                sorted.at(2 * off)?,
                sorted.at(3 * off)?,
            );
            let merged = zeros::<f16>(b, 49152, 8 * n)?;
            let mut sorted_num = [7u32; 4];
            let q = (n / 4) as u16;
            mrg_sort_with_counts(&merged, &list, [q; 4], &mut sorted_num, 0b1111, 1, false)?;
            let values = zeros::<f16>(b, 81920, n)?;
            let out_idx = zeros::<u32>(b, 86016, n)?;
            extract(&values, &out_idx, &merged, (n / per) as i32)?;
            Ok((values.to_vec()?, out_idx.to_vec()?, sorted_num))
        });
        assert_eq!(
            got.0,
            (0..n).rev().map(|x| h(x as f32)).collect::<Vec<_>>(),
            "{}",
            p.soc
        );
        assert_eq!(got.1, (0..n).rev().collect::<Vec<u32>>(), "{}", p.soc);
        assert_eq!(got.2, [7; 4], "sortedNum untouched without suspension");
    }
}

#[test]
fn sort_offsets_and_lengths_per_product() {
    let a2 = ok(&ASCEND910B, |_| {
        Ok((
            get_sort_offset::<f16>(32)?,
            get_sort_offset::<f32>(32)?,
            get_sort_len::<f32>(100)?,
        ))
    });
    assert_eq!(a2, (128, 64, 200));
    let p = ok(&ASCEND310P, |_| {
        Ok((get_sort_offset::<f16>(32)?, get_sort_len::<f32>(3)?))
    });
    assert_eq!(p, (256, 24));
    let e = err(&ASCEND910, |_| get_sort_len::<f16>(1));
    assert_eq!(e.category, Category::Unsupported);
    let e = err(&ASCEND310B, |_| get_sort_offset::<f16>(1));
    assert_eq!(e.category, Category::Unsupported);
    let e = err(&ASCEND910B, |_| get_sort_offset::<i32>(1));
    assert_eq!(e.category, Category::Type);
}

#[test]
fn high_level_suspension_fills_sorted_num() {
    let got = ok(&ASCEND910_93, |b| {
        let s: Vec<f32> = (0..64)
            .map(|i| if i < 32 { 100.0 + i as f32 } else { i as f32 })
            .collect();
        let src = put(b, 0, &s)?;
        let index = put(b, 1024, &(0..64).collect::<Vec<u32>>())?;
        let sorted = zeros::<f32>(b, 2048, 128)?;
        let tmp = zeros::<f32>(b, 4096, 128)?;
        sort(&sorted, &src, &index, &tmp, 2, false)?;
        let list = MrgSortSrcList::new(
            sorted,
            sorted.at(64)?,
            LocalTensor::default(),
            LocalTensor::default(),
        );
        let mut n = [0u32; 4];
        mrg_sort_with_counts(&tmp, &list, [32, 32, 0, 0], &mut n, 0b11, 1, true)?;
        Ok(n)
    });
    assert_eq!(got, [32, 0, 0, 0]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn full_sort_matches_a_stable_reference(
        groups in 1usize..=9,
        raw in proptest::collection::vec(-8i8..8, 288),
        pairs in any::<bool>(),
        half in any::<bool>(),
    ) {
        let (p, per) = if pairs { (&ASCEND910B, 32) } else { (&ASCEND310P, 16) };
        let n = groups * per;
        let s = scores_of(&raw[..n]);
        let idx: Vec<u32> = (0..n as u32).map(|i| i * 5 + 2).collect();
        let order = reference(&s);
        let want_idx: Vec<u32> = order.iter().map(|&i| idx[i]).collect();
        let want_val: Vec<f32> = order.iter().map(|&i| s[i]).collect();
        let (vals, got_idx): (Vec<f32>, Vec<u32>) = if half {
            let hv: Vec<f16> = s.iter().map(|&x| h(x)).collect();
            let (v, i) = high_level(p, &hv, &idx, groups as i32, true);
            (v.iter().map(|x| x.to_f32()).collect(), i)
        } else {
            high_level(p, &s, &idx, groups as i32, true)
        };
        prop_assert_eq!(vals, want_val);
        prop_assert_eq!(got_idx, want_idx);
    }
}
