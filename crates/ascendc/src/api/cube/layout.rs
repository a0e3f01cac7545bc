//! Fractal layouts of the cube buffers and host-side converters for tests and hosts.
//!
//! A fractal is 512 bytes. In L1 (NZ) and L0A (ZZ) it is `16 × C0` elements, `C0` = the elements
//! in 32 bytes (16 for half/bfloat16, 32 for int8, 64 for int4b_t, 8 for float/int32), stored
//! row-major; in L0B (ZN) it is `C0 × 16`, stored column-major (the 16 columns one after
//! another, each `C0` elements of K). L0C (NZ) fractals are always 16 × 16 elements of the accumulator type.
//!
//! Fractal order: NZ puts fractals column-major (down the rows first, then the next group of
//! `C0` columns), ZZ and ZN put them row-major.

use crate::dtype::DType;
use crate::position::Hardware;

/// Bytes of one L1/L0A/L0B fractal.
pub const FRACTAL_BYTES: u32 = 512;
/// Rows (M or N) of a fractal.
pub const BLOCK_CUBE: u32 = 16;

/// `C0`: elements of `dtype` in 32 bytes (the short side of a fractal; 64 for `int4b_t`).
pub const fn c0(dtype: DType) -> u32 {
    256 / dtype.bits()
}

/// Fractal shape (rows, columns) of `dtype` in `buffer`: 16 × C0 in L1/L0A, C0 × 16 in L0B,
/// 16 × 16 in L0C.
pub fn fractal_shape(dtype: DType, buffer: Hardware) -> (u32, u32) {
    match buffer {
        Hardware::L0B => (c0(dtype), BLOCK_CUBE),
        Hardware::L0C => (BLOCK_CUBE, BLOCK_CUBE),
        _ => (BLOCK_CUBE, c0(dtype)),
    }
}

fn ceil(a: usize, b: usize) -> usize {
    a.div_ceil(b) * b
}

/// ND (row-major `rows × cols`) → NZ: rows padded to a multiple of `row_align`, columns to a
/// multiple of `c0`; column groups of `c0` one after another, each `rows` (padded) × `c0`
/// row-major. Padding is `T::default()`. This is the L1 layout `DataCopy` with `Nd2NzParams`
/// produces (`row_align` 16; 32 for an int8 B matrix loaded with `LoadDataWithTranspose`), and
/// with `c0 = 16` the L0C layout.
pub fn nd_to_nz<T: Copy + Default>(
    nd: &[T],
    rows: usize,
    cols: usize,
    row_align: usize,
    c0: usize,
) -> Vec<T> {
    assert_eq!(nd.len(), rows * cols, "nd_to_nz: data length");
    let (pr, pc) = (ceil(rows, row_align), ceil(cols, c0));
    let mut out = vec![T::default(); pr * pc];
    for r in 0..rows {
        for c in 0..cols {
            out[(c / c0) * pr * c0 + r * c0 + c % c0] = nd[r * cols + c];
        }
    }
    out
}

/// NZ → ND, the inverse of [`nd_to_nz`] (padding dropped).
pub fn nz_to_nd<T: Copy + Default>(
    nz: &[T],
    rows: usize,
    cols: usize,
    row_align: usize,
    c0: usize,
) -> Vec<T> {
    let pr = ceil(rows, row_align);
    (0..rows * cols)
        .map(|i| {
            let (r, c) = (i / cols, i % cols);
            nz[(c / c0) * pr * c0 + r * c0 + c % c0]
        })
        .collect()
}

/// ND `m × k` → ZZ (the L0A layout of A): fractals of 16 × `c0`, row-major, each row-major.
pub fn nd_to_zz<T: Copy + Default>(nd: &[T], m: usize, k: usize, c0: usize) -> Vec<T> {
    assert_eq!(nd.len(), m * k, "nd_to_zz: data length");
    let (k1, pm) = (k.div_ceil(c0), ceil(m, 16));
    let mut out = vec![T::default(); pm * k1 * c0];
    for r in 0..m {
        for c in 0..k {
            out[((r / 16) * k1 + c / c0) * 16 * c0 + (r % 16) * c0 + c % c0] = nd[r * k + c];
        }
    }
    out
}

/// ND `k × n` → ZN (the L0B layout of B): fractals of `c0` (K) × 16 (N), row-major, each
/// column-major.
pub fn nd_to_zn<T: Copy + Default>(nd: &[T], k: usize, n: usize, c0: usize) -> Vec<T> {
    assert_eq!(nd.len(), k * n, "nd_to_zn: data length");
    let (k1, n1) = (k.div_ceil(c0), n.div_ceil(16));
    let mut out = vec![T::default(); k1 * n1 * 16 * c0];
    for r in 0..k {
        for c in 0..n {
            out[((r / c0) * n1 + c / 16) * 16 * c0 + (c % 16) * c0 + r % c0] = nd[r * n + c];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_per_type() {
        assert_eq!(fractal_shape(DType::Half, Hardware::L0A), (16, 16));
        assert_eq!(fractal_shape(DType::Int8, Hardware::L0A), (16, 32));
        assert_eq!(fractal_shape(DType::Int8, Hardware::L0B), (32, 16));
        assert_eq!(fractal_shape(DType::Int4, Hardware::L0A), (16, 64));
        assert_eq!(fractal_shape(DType::Float, Hardware::L1), (16, 8));
        assert_eq!(fractal_shape(DType::Float, Hardware::L0C), (16, 16));
    }

    #[test]
    fn nz_round_trip_and_padding() {
        // The vendor's 20 × 28 example: 2 × 2 fractals of 16 × 16, padded with zeros.
        let nd: Vec<u16> = (0..20 * 28).collect();
        let nz = nd_to_nz(&nd, 20, 28, 16, 16);
        assert_eq!(nz.len(), 32 * 32);
        assert_eq!(&nz[..3], &[0, 1, 2]);
        assert_eq!(nz[16], 28); // second row of the first fractal
        assert_eq!(nz[20 * 16], 0); // padding row
        assert_eq!(nz[32 * 16], 16); // first row of the second column group
        assert_eq!(nz_to_nd(&nz, 20, 28, 16, 16), nd);
    }

    #[test]
    fn zz_and_zn_orders() {
        let nd: Vec<u32> = (0..32 * 32).collect();
        let zz = nd_to_zz(&nd, 32, 32, 16);
        assert_eq!(zz[256], 16); // fractal (0, 1) starts at column 16
        assert_eq!(zz[512], 16 * 32); // fractal (1, 0)
        let zn = nd_to_zn(&nd, 32, 32, 16);
        assert_eq!(&zn[..2], &[0, 32]); // column 0 of B, K contiguous
        assert_eq!(zn[16], 1);
        assert_eq!(zn[256], 16); // fractal (K 0, N 1)
    }
}
