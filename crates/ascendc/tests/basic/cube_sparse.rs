//! 4:2 sparse matmul: `LoadDataWithSparse` + `MmadWithSparse` against a plain product with the
//! original sparse B (the sample's 128 × 64 × 128 with two non-zeros in every group of four, and
//! every row of the pages' selection table: one non-zero in each position, none, and two), the
//! accumulating form, and the validation errors.

use crate::common;
use ascendc::api::cube::layout::{nd_to_zn, nd_to_zz};
use ascendc::api::cube::sparse::{load_data_with_sparse, mmad_with_sparse};
use ascendc::chip::ASCEND310B;
use ascendc::prelude::*;
use ascendc::Category;
use common::*;

/// A small deterministic generator.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Densifies the `k × n` sparse B (at most two non-zeros in every four rows of a column) as the
/// pages define it: the dense `k/2 × n` matrix in ZN fractals and the index matrix, one 2-bit
/// index per dense element, in 128-byte fractals laid out like B's.
fn densify(b: &[i8], k: usize, n: usize) -> (Vec<i8>, Vec<u8>) {
    let kd = k / 2;
    let mut dense = vec![0i8; kd * n];
    let mut index = vec![0u8; kd * n];
    for j in 0..n {
        for t in 0..k / 4 {
            let g: Vec<i8> = (0..4).map(|q| b[(4 * t + q) * n + j]).collect();
            let nz: Vec<usize> = (0..4).filter(|&q| g[q] != 0).collect();
            let (i0, i1, d0, d1) = match nz.as_slice() {
                [] => (0, 0, 0, 0),
                [3] => (0, 2, 0, g[3]),
                [p] => (*p, 0, g[*p], 0),
                [p0, p1] => (*p0, *p1 - 1, g[*p0], g[*p1]),
                _ => panic!("more than two non-zeros"),
            };
            dense[2 * t * n + j] = d0;
            dense[(2 * t + 1) * n + j] = d1;
            index[2 * t * n + j] = i0 as u8;
            index[(2 * t + 1) * n + j] = i1 as u8;
        }
    }
    let n1 = n.div_ceil(16);
    let mut idx = vec![0u8; kd.div_ceil(32) * n1 * 128];
    for r in 0..kd {
        for j in 0..n {
            let at = ((r / 32) * n1 + j / 16) * 128 + (j % 16) * 8 + (r % 32) / 4;
            idx[at] |= index[r * n + j] << (2 * (r % 4));
        }
    }
    (nd_to_zn(&dense, kd, n, 32), idx)
}

/// Writes `v` into a new tensor at `pos` / `addr`.
fn put<T: Element>(pos: TPosition, addr: u32, v: &[T]) -> Result<LocalTensor<T>> {
    let t = LocalTensor::<T>::new_at(pos, addr, v.len() as u32)?;
    for (i, &x) in v.iter().enumerate() {
        t.set_value(i as u32, x)?;
    }
    Ok(t)
}

/// `C = A × B` through the sparse path, starting from `c_init` when given; returns C (ND).
fn sparse_product(
    a: &[i8],
    b: &[i8],
    (m, n, k): (usize, usize, usize),
    c_init: Option<&[i32]>,
) -> Vec<i32> {
    let (dense, idx) = densify(b, k, n);
    let zz = nd_to_zz(a, m, k, 32);
    let (m1, n1) = (m.div_ceil(16), n.div_ceil(16));
    let out = Slot::new();
    run(|| {
        let a1 = put(TPosition::A1, 0, &zz)?;
        let b1 = put(TPosition::B1, 256 * 1024, &dense)?;
        let i1 = put(TPosition::B1, 384 * 1024, &idx)?;
        let a2 = LocalTensor::<i8>::new_at(TPosition::A2, 0, zz.len() as u32)?;
        let b2 = LocalTensor::<i8>::new_at(TPosition::B2, 0, dense.len() as u32)?;
        let c = LocalTensor::<i32>::new_at(TPosition::CO1, 0, (m1 * n1 * 256) as u32)?;
        load_data(
            &a2,
            &a1,
            LoadData2DParams::new(0, (zz.len() / 512) as u8, 1, 0, 0, false, 0),
        )?;
        load_data_with_sparse(
            &b2,
            &b1,
            &i1,
            LoadData2DParams::new(0, (dense.len() / 512) as u8, 0, 0, 0, false, 0),
        )?;
        let mut p = MmadParams::new(m as u16, n as u16, k as u16, false);
        if let Some(init) = c_init {
            for i in 0..m {
                for j in 0..n {
                    c.set_value(
                        ((j / 16 * m1 + i / 16) * 256 + i % 16 * 16 + j % 16) as u32,
                        init[i * n + j],
                    )?;
                }
            }
            p.cmatrix_init_val = false;
        }
        mmad_with_sparse(&c, &a2, &b2, p)?;
        let v = c.to_vec()?;
        out.put(
            (0..m * n)
                .map(|x| {
                    let (i, j) = (x / n, x % n);
                    v[(j / 16 * m1 + i / 16) * 256 + i % 16 * 16 + j % 16]
                })
                .collect::<Vec<i32>>(),
        );
        Ok(())
    });
    out.get()
}

fn product(a: &[i8], b: &[i8], (m, n, k): (usize, usize, usize)) -> Vec<i32> {
    (0..m * n)
        .map(|x| {
            let (i, j) = (x / n, x % n);
            (0..k)
                .map(|q| a[i * k + q] as i32 * b[q * n + j] as i32)
                .sum()
        })
        .collect()
}

#[test]
fn sample_128x64x128_two_nonzeros_in_every_four() {
    let (m, n, k) = (128, 128, 64);
    let mut g = Lcg(7);
    let a: Vec<i8> = (0..m * k).map(|_| 1 + g.next(9) as i8).collect();
    let mut b = vec![0i8; k * n];
    for j in 0..n {
        for t in 0..k / 4 {
            let p0 = g.next(4) as usize;
            let p1 = (p0 + 1 + g.next(3) as usize) % 4;
            b[(4 * t + p0) * n + j] = 1 + g.next(9) as i8;
            b[(4 * t + p1) * n + j] = -1 - g.next(9) as i8;
        }
    }
    assert_eq!(
        sparse_product(&a, &b, (m, n, k), None),
        product(&a, &b, (m, n, k))
    );
}

#[test]
fn every_row_of_the_selection_table() {
    // Column j of B uses pattern j % 11: two non-zeros at each of the six pairs, one at each of
    // the four positions, none. A has distinct values so a wrong pick shows.
    let (m, n, k) = (16, 32, 64);
    let patterns: [&[usize]; 11] = [
        &[2, 3],
        &[1, 3],
        &[0, 3],
        &[1, 2],
        &[0, 2],
        &[0, 1],
        &[3],
        &[2],
        &[1],
        &[0],
        &[],
    ];
    let a: Vec<i8> = (0..m * k).map(|x| (x % 23) as i8 - 11).collect();
    let mut b = vec![0i8; k * n];
    for j in 0..n {
        for t in 0..k / 4 {
            for (q, &p) in patterns[(j + t) % 11].iter().enumerate() {
                b[(4 * t + p) * n + j] = 3 + q as i8 + (t % 5) as i8;
            }
        }
    }
    assert_eq!(
        sparse_product(&a, &b, (m, n, k), None),
        product(&a, &b, (m, n, k))
    );
}

#[test]
fn cmatrix_init_val_false_accumulates() {
    let (m, n, k) = (32, 16, 32);
    let a: Vec<i8> = (0..m * k).map(|x| (x % 7) as i8 - 3).collect();
    let mut b = vec![0i8; k * n];
    for j in 0..n {
        for t in 0..k / 4 {
            b[(4 * t + j % 4) * n + j] = 5;
        }
    }
    let init: Vec<i32> = (0..m * n).map(|x| x as i32 * 1000 - 77).collect();
    let want: Vec<i32> = product(&a, &b, (m, n, k))
        .iter()
        .zip(&init)
        .map(|(p, c)| p + c)
        .collect();
    assert_eq!(sparse_product(&a, &b, (m, n, k), Some(&init)), want);
}

#[test]
fn indices_must_be_loaded_and_below_three() {
    let e = fail(|| {
        let a2 = LocalTensor::<i8>::new_at(TPosition::A2, 0, 16 * 64)?;
        let b2 = LocalTensor::<i8>::new_at(TPosition::B2, 0, 32 * 16)?;
        let c = LocalTensor::<i32>::new_at(TPosition::CO1, 0, 256)?;
        mmad_with_sparse(&c, &a2, &b2, MmadParams::new(16, 16, 64, false))
    });
    assert_eq!(e.category, Category::Sync);
    assert_mentions(
        &e,
        &["MmadWithSparse", "was not loaded", "LoadDataWithSparse"],
    );
    let e = fail(|| {
        let b1 = LocalTensor::<i8>::new_at(TPosition::B1, 0, 512)?;
        let i1 = put(TPosition::B1, 4096, &[0xC0u8; 128])?;
        let a2 = LocalTensor::<i8>::new_at(TPosition::A2, 0, 16 * 64)?;
        let b2 = LocalTensor::<i8>::new_at(TPosition::B2, 0, 512)?;
        let c = LocalTensor::<i32>::new_at(TPosition::CO1, 0, 256)?;
        load_data_with_sparse(
            &b2,
            &b1,
            &i1,
            LoadData2DParams::new(0, 1, 0, 0, 0, false, 0),
        )?;
        mmad_with_sparse(&c, &a2, &b2, MmadParams::new(16, 16, 64, false))
    });
    assert_eq!(e.category, Category::Range);
    assert_mentions(&e, &["index", "3 (dense row 3, column 0)", "0, 1 or 2"]);
}

#[test]
fn parameters_and_products_are_checked() {
    let mmad_case = |p: MmadParams| {
        fail(move || {
            let a2 = LocalTensor::<i8>::new_at(TPosition::A2, 0, 16 * 64)?;
            let b2 = LocalTensor::<i8>::new_at(TPosition::B2, 0, 512)?;
            let c = LocalTensor::<i32>::new_at(TPosition::CO1, 0, 256)?;
            mmad_with_sparse(&c, &a2, &b2, p)
        })
    };
    let e = mmad_case(MmadParams::new(1, 16, 64, false));
    assert_mentions(&e, &["GEMV"]);
    let e = mmad_case(MmadParams::new(16, 16, 63, false));
    assert_mentions(&e, &["k", "even"]);
    let mut p = MmadParams::new(16, 16, 64, false);
    p.k_direction_align = true;
    assert_mentions(&mmad_case(p), &["kDirectionAlign"]);
    let e = fail(|| {
        let b1 = LocalTensor::<i8>::new_at(TPosition::B1, 0, 512)?;
        let i1 = LocalTensor::<u8>::new_at(TPosition::B1, 4096, 128)?;
        let b2 = LocalTensor::<i8>::new_at(TPosition::B2, 0, 512)?;
        load_data_with_sparse(&b2, &b1, &i1, LoadData2DParams::new(0, 1, 0, 0, 0, true, 0))
    });
    assert_mentions(&e, &["ifTranspose"]);
    // The load reads the index fractals past a short index tensor: a warning.
    let r = run(|| {
        let b1 = LocalTensor::<i8>::new_at(TPosition::B1, 0, 1024)?;
        let i1 = LocalTensor::<u8>::new_at(TPosition::B1, 4096, 128)?;
        let b2 = LocalTensor::<i8>::new_at(TPosition::B2, 0, 1024)?;
        load_data_with_sparse(
            &b2,
            &b1,
            &i1,
            LoadData2DParams::new(0, 2, 0, 0, 0, false, 0),
        )
    });
    assert_warns(&r, &["idx", "256 bytes"]);
    let e = fail_on(&ASCEND310B, || {
        let a2 = LocalTensor::<i8>::new_at(TPosition::A2, 0, 16 * 64)?;
        let b2 = LocalTensor::<i8>::new_at(TPosition::B2, 0, 512)?;
        let c = LocalTensor::<i32>::new_at(TPosition::CO1, 0, 256)?;
        mmad_with_sparse(&c, &a2, &b2, MmadParams::new(16, 16, 64, false))
    });
    assert_eq!(e.category, Category::Unsupported);
}
