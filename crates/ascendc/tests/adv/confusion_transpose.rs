//! ConfusionTranspose (Transpose) against a host permutation of the documented layouts: every
//! scene 1–7, every element type the page lists, shapes with H/N below, equal to, above and not a
//! multiple of 16 and S not a multiple of 16, the page's example, temporary-space sizes, products
//! and errors.

use crate::ub_harness;

use ascendc::adv::common::Tmp;
use ascendc::adv::transpose::confusion_transpose::{
    confusion_transpose, confusion_transpose_max_min_tmp_size, confusion_transpose_tiling_info,
    ConfusionTransposeTiling, TransposeType as Ty,
};
use ascendc::{f16, Category, Element};
use ub_harness::*;

fn up(x: usize) -> usize {
    x.div_ceil(16) * 16
}

/// A shape `[B, N, S, D]` (scenes 1–6) and the element offsets of the documented layouts.
#[derive(Clone, Copy, Debug)]
struct Shape {
    b: usize,
    n: usize,
    s: usize,
    d: usize,
}

impl Shape {
    fn sp(&self) -> usize {
        up(self.s)
    }
    fn dp(&self) -> usize {
        up(self.d)
    }
    fn hp(&self) -> usize {
        up(self.n * self.d)
    }
    /// `[B, N, S, H/N]` in NZ `[B, N, D'/16, S'/16, 16, 16]`.
    fn nz_bnsd(&self, b: usize, n: usize, s: usize, d: usize) -> usize {
        let (sp, dp) = (self.sp(), self.dp());
        b * self.n * sp * dp + n * sp * dp + (d / 16) * sp * 16 + s * 16 + d % 16
    }
    /// `[B, S, H]` in NZ `[B, H'/16, S'/16, 16, 16]`.
    fn nz_bsh(&self, b: usize, s: usize, h: usize) -> usize {
        let sp = self.sp();
        b * self.hp() * sp + (h / 16) * sp * 16 + s * 16 + h % 16
    }
    /// Scene 1: ND `[B, S', N, D']`.
    fn nd_bsnd(&self, b: usize, n: usize, s: usize, d: usize) -> usize {
        let (sp, dp) = (self.sp(), self.dp());
        b * sp * self.n * dp + s * self.n * dp + n * dp + d
    }
    /// Scene 2: per (b, s), the `[N, D']` matrix in fractal columns of N rows.
    fn nz_bsnd(&self, b: usize, n: usize, s: usize, d: usize) -> usize {
        let (sp, dp) = (self.sp(), self.dp());
        b * sp * self.n * dp + s * self.n * dp + (d / 16) * self.n * 16 + n * 16 + d % 16
    }
    /// Scene 4: ND `[B, N, S', D']`.
    fn nd_bnsd(&self, b: usize, n: usize, s: usize, d: usize) -> usize {
        let (sp, dp) = (self.sp(), self.dp());
        b * self.n * sp * dp + n * sp * dp + s * dp + d
    }
    /// Scene 5: ND `[B, S', H']`.
    fn nd_bsh(&self, b: usize, s: usize, h: usize) -> usize {
        b * self.sp() * self.hp() + s * self.hp() + h
    }
    fn dims(&self) -> [u32; 4] {
        [self.b as u32, self.n as u32, self.s as u32, self.d as u32]
    }
    /// (source elements, destination elements, (src offset, dst offset) of every valid element).
    fn scene(&self, scene: u32) -> (usize, usize, Vec<(usize, usize)>) {
        let per_head = self.b * self.n * self.sp() * self.dp();
        let merged = self.b * self.sp() * self.hp();
        let mut pairs = Vec::new();
        for b in 0..self.b {
            for n in 0..self.n {
                for s in 0..self.s {
                    for d in 0..self.d {
                        let h = n * self.d + d;
                        let (i, o) = match scene {
                            1 => (self.nz_bnsd(b, n, s, d), self.nd_bsnd(b, n, s, d)),
                            2 => (self.nz_bnsd(b, n, s, d), self.nz_bsnd(b, n, s, d)),
                            3 => (self.nz_bsh(b, s, h), self.nz_bnsd(b, n, s, d)),
                            4 => (self.nz_bsh(b, s, h), self.nd_bnsd(b, n, s, d)),
                            5 => (self.nz_bnsd(b, n, s, d), self.nd_bsh(b, s, h)),
                            _ => (self.nz_bnsd(b, n, s, d), self.nz_bsh(b, s, h)),
                        };
                        pairs.push((i, o));
                    }
                }
            }
        }
        match scene {
            1 | 2 | 5 | 6 => (per_head, if scene <= 2 { per_head } else { merged }, pairs),
            _ => (merged, per_head, pairs),
        }
    }
}

fn scene_type(scene: u32) -> Ty {
    Ty::from_u8(scene as u8).unwrap()
}

/// Elements identified by their bit pattern (index + 1, so a zero is never a match).
trait Tag: Element {
    fn tag(i: usize) -> Self;
}
macro_rules! tag16 {
    ($($t:ty),*) => {$(impl Tag for $t {
        fn tag(i: usize) -> Self { bytemuck::cast::<u16, $t>((i as u16).wrapping_add(1) & 0x7bff) }
    })*};
}
macro_rules! tag32 {
    ($($t:ty),*) => {$(impl Tag for $t {
        fn tag(i: usize) -> Self { bytemuck::cast::<u32, $t>((i as u32).wrapping_add(0x3f00_0001)) }
    })*};
}
tag16!(i16, u16, f16);
tag32!(i32, u32, f32);

/// Runs one scene on product `p` with a sharedTmpBuffer of `tmp` bytes (the stack-buffer
/// overload is run by the C++ test) and returns the destination.
fn run_scene<T: Tag>(
    p: &str,
    src: &[T],
    dst_len: usize,
    ty: Ty,
    tiling: &ConfusionTransposeTiling,
    tmp: u32,
) -> Vec<T> {
    run_p(p, |ub| {
        let s = ub.from(src);
        let d = ub.tensor(dst_len as u32, T::tag(usize::MAX - 1));
        let tb = ub.tensor::<u8>(tmp.max(32), 0);
        confusion_transpose(&d, &s, Tmp::Shared(&tb), ty, tiling)?;
        Ok((0..dst_len as u32)
            .map(|i| d.get_value(i).unwrap())
            .collect())
    })
}

fn check<T: Tag>(p: &str, sh: Shape, scene: u32, tmp_bytes: u32) {
    let ts = T::SIZE as u32;
    let (src_len, dst_len, pairs) = sh.scene(scene);
    let src: Vec<T> = (0..src_len).map(T::tag).collect();
    let t = confusion_transpose_tiling_info(&sh.dims(), tmp_bytes, ts, scene).unwrap();
    let got = run_scene(p, &src, dst_len, scene_type(scene), &t, tmp_bytes);
    for &(i, o) in &pairs {
        assert!(
            bytemuck::bytes_of(&got[o]) == bytemuck::bytes_of(&src[i]),
            "{p} scene {scene} {} {sh:?} tmp {tmp_bytes}: dst[{o}] should be src[{i}] ({:?}), is {:?}",
            T::DTYPE,
            src[i],
            got[o]
        );
    }
}

const SHAPES: [Shape; 6] = [
    // The page's example.
    Shape {
        b: 1,
        n: 2,
        s: 64,
        d: 32,
    },
    Shape {
        b: 2,
        n: 2,
        s: 32,
        d: 16,
    },
    // H/N > 16.
    Shape {
        b: 1,
        n: 3,
        s: 16,
        d: 48,
    },
    // H/N > 16, not a multiple of 16; H not a multiple of 16.
    Shape {
        b: 2,
        n: 3,
        s: 32,
        d: 20,
    },
    // H/N < 16; S not a multiple of 16.
    Shape {
        b: 1,
        n: 4,
        s: 24,
        d: 8,
    },
    Shape {
        b: 2,
        n: 5,
        s: 16,
        d: 12,
    },
];

fn all_scenes<T: Tag>(p: &str) {
    let ts = T::SIZE as u32;
    for sh in SHAPES {
        for scene in 1..=6u32 {
            let (max, min) = confusion_transpose_max_min_tmp_size(&sh.dims(), ts, scene).unwrap();
            check::<T>(p, sh, scene, min);
            if scene <= 2 {
                check::<T>(p, sh, scene, max);
                // A buffer between the two: whole passes and a tail pass.
                if max > 3 * min {
                    check::<T>(p, sh, scene, 3 * min);
                }
            }
        }
    }
}

#[test]
fn scenes_1_to_6_half_a2() {
    all_scenes::<f16>("a2");
}

#[test]
fn scenes_1_to_6_float_a2() {
    all_scenes::<f32>("a2");
}

#[test]
fn scenes_1_to_6_int16_uint16_int32_uint32_a2() {
    all_scenes::<i16>("a2");
    all_scenes::<u16>("a2");
    all_scenes::<i32>("a2");
    all_scenes::<u32>("a2");
}

#[test]
fn scenes_1_to_6_a3_and_310p() {
    for p in ["a3", "310p"] {
        all_scenes::<f16>(p);
        all_scenes::<f32>(p);
    }
}

fn scene7<T: Tag>(p: &str) {
    for (hh, ww) in [(16usize, 16usize), (32, 48), (48, 32), (64, 16)] {
        let src: Vec<T> = (0..hh * ww).map(T::tag).collect();
        let dims = [hh as u32, ww as u32];
        assert_eq!(
            confusion_transpose_max_min_tmp_size(&dims, T::SIZE as u32, 7).unwrap(),
            (0, 0)
        );
        let t = confusion_transpose_tiling_info(&dims, 0, T::SIZE as u32, 7).unwrap();
        let got = run_scene(p, &src, hh * ww, Ty::TRANSPOSE_ND2ND_ONLY, &t, 0);
        for r in 0..hh {
            for c in 0..ww {
                assert!(
                    bytemuck::bytes_of(&got[c * hh + r]) == bytemuck::bytes_of(&src[r * ww + c]),
                    "{p} scene 7 {} [{hh}, {ww}] at ({r}, {c})",
                    T::DTYPE
                );
            }
        }
    }
}

#[test]
fn scene_7_all_types_all_products() {
    for p in ["a2", "a3", "310p"] {
        scene7::<f16>(p);
        scene7::<f32>(p);
        scene7::<i16>(p);
        scene7::<u16>(p);
        scene7::<i32>(p);
        scene7::<u32>(p);
    }
}

#[test]
fn page_example_half_values() {
    // B = 1, N = 2, S = 64, H/N = 32, half: out[b][s][n][d] = in[b][n][s][d].
    let sh = Shape {
        b: 1,
        n: 2,
        s: 64,
        d: 32,
    };
    let mut x = vec![f16::ZERO; 4096];
    for n in 0..2 {
        for s in 0..64 {
            for d in 0..32 {
                x[sh.nz_bnsd(0, n, s, d)] = h((n * 1000 + s * 10 + d) as f32 / 8.0);
            }
        }
    }
    let (_, min) = confusion_transpose_max_min_tmp_size(&sh.dims(), 2, 1).unwrap();
    assert_eq!(min, 512);
    let t = confusion_transpose_tiling_info(&sh.dims(), min, 2, 1).unwrap();
    let got = run_scene("a2", &x, 4096, Ty::TRANSPOSE_NZ2ND_0213, &t, min);
    for s in 0..64 {
        for n in 0..2 {
            for d in 0..32 {
                assert_eq!(
                    got[s * 64 + n * 32 + d],
                    h((n * 1000 + s * 10 + d) as f32 / 8.0)
                );
            }
        }
    }
}

#[test]
fn tmp_sizes() {
    let sh = [2u32, 3, 40, 20];
    // Scenes 1/2: one fractal minimum, a column of S'/16 fractals maximum.
    assert_eq!(
        confusion_transpose_max_min_tmp_size(&sh, 2, 1).unwrap(),
        (48 * 16 * 2, 512)
    );
    assert_eq!(
        confusion_transpose_max_min_tmp_size(&sh, 4, 2).unwrap(),
        (48 * 16 * 4, 1024)
    );
    for scene in 3..=6 {
        assert_eq!(
            confusion_transpose_max_min_tmp_size(&sh, 2, scene).unwrap(),
            (1024, 1024)
        );
        assert_eq!(
            confusion_transpose_max_min_tmp_size(&sh, 4, scene).unwrap(),
            (2048, 2048)
        );
    }
    assert_eq!(
        confusion_transpose_max_min_tmp_size(&[32, 32], 4, 7).unwrap(),
        (0, 0)
    );
    // The tiling of scenes 1/2 follows the buffer: 3 fractals of a 4-fractal column.
    let t = confusion_transpose_tiling_info(&[1, 2, 64, 32], 3 * 512 + 100, 2, 1).unwrap();
    assert_eq!(&t.param[6..11], &[768, 48, 1024, 1, 256]);
}

#[test]
fn host_errors() {
    let sh = [1u32, 2, 32, 16];
    for scene in 13..=16 {
        let e = confusion_transpose_tiling_info(&sh, 1024, 2, scene).unwrap_err();
        assert_eq!(e.category, Category::Unsupported);
        assert!(e.to_string().contains(&format!("scene {scene}")), "{e}");
        assert!(e.to_string().contains("950"), "{e}");
        assert!(confusion_transpose_max_min_tmp_size(&sh, 2, scene).is_err());
    }
    for scene in [0, 8, 12, 17] {
        assert!(confusion_transpose_tiling_info(&sh, 1024, 2, scene).is_err());
    }
    let e = confusion_transpose_tiling_info(&sh, 1024, 1, 1).unwrap_err();
    assert!(e.to_string().contains("typeSize = 1"), "{e}");
    assert!(confusion_transpose_tiling_info(&[32, 32], 1024, 2, 1).is_err());
    assert!(confusion_transpose_tiling_info(&sh, 1024, 2, 7).is_err());
    let e = confusion_transpose_tiling_info(&sh, 100, 2, 1).unwrap_err();
    assert!(e.to_string().contains("stackBufferSize = 100"), "{e}");
}

fn kernel_error(
    p: &str,
    ty: Ty,
    t: ConfusionTransposeTiling,
    tmp: u32,
    int8: bool,
) -> ascendc::SimError {
    error_on(p, move |ub| {
        let tb = ub.tensor::<u8>(tmp.max(32), 0);
        if int8 {
            let (s, d) = (ub.tensor::<i8>(1024, 0), ub.tensor::<i8>(1024, 0));
            return confusion_transpose(&d, &s, Tmp::Shared(&tb), ty, &t);
        }
        let (s, d) = (ub.tensor(2048, h(0.0)), ub.tensor(2048, h(0.0)));
        confusion_transpose(&d, &s, Tmp::Shared(&tb), ty, &t)
    })
}

#[test]
fn kernel_errors() {
    let t1 = confusion_transpose_tiling_info(&[1, 2, 32, 16], 512, 2, 1).unwrap();
    // Products the page does not list.
    for p in ["310b", "910"] {
        let e = kernel_error(p, Ty::TRANSPOSE_NZ2ND_0213, t1, 512, false);
        assert_eq!(e.category, Category::Unsupported, "{e}");
        assert!(e.to_string().contains("not available"), "{e}");
    }
    // Ascend 950 scenes, and the values the API does not take.
    for ty in [
        Ty::TRANSPOSE_ND2ND_021,
        Ty::TRANSPOSE_ND2ND_102,
        Ty::TRANSPOSE_ND2ND_210,
        Ty::TRANSPOSE_ND2NZ_WITH_INTLV,
    ] {
        let e = kernel_error("a2", ty, t1, 512, false);
        assert_eq!(e.category, Category::Unsupported);
        let m = e.to_string();
        assert!(
            m.contains(&format!("scene {}", ty as u32))
                && m.contains("950")
                && m.contains("Ascend910B"),
            "{m}"
        );
    }
    for ty in [
        Ty::TRANSPOSE_TYPE_NONE,
        Ty::TRANSPOSE_ND2ND_B16,
        Ty::TRANSPOSE_NCHW2NHWC,
    ] {
        assert_eq!(
            kernel_error("a2", ty, t1, 512, false).category,
            Category::Unsupported
        );
    }
    // int8 is for scenes 13–16 only.
    let e = kernel_error("a2", Ty::TRANSPOSE_NZ2ND_0213, t1, 512, true);
    assert_eq!(e.category, Category::Type, "{e}");
    // A buffer below the tiling's newPopSize.
    let e = kernel_error("a2", Ty::TRANSPOSE_NZ2ND_0213, t1, 256, false);
    assert_eq!(e.category, Category::Size, "{e}");
    // A tiling of another scene or element size.
    let t7 = confusion_transpose_tiling_info(&[32, 32], 0, 2, 7).unwrap();
    let e = kernel_error("a2", Ty::TRANSPOSE_NZ2ND_0213, t7, 512, false);
    assert!(e.to_string().contains("GetTransposeTilingInfo"), "{e}");
    let t5 = confusion_transpose_tiling_info(&[1, 2, 32, 16], 0, 4, 5).unwrap();
    let e = kernel_error("a2", Ty::TRANSPOSE_NZ2ND_012_WITHOUT_N, t5, 2048, false);
    assert!(e.to_string().contains("blockSize"), "{e}");
    // Scenes 3–6 need two fractals of space.
    let t3 = confusion_transpose_tiling_info(&[1, 2, 32, 16], 0, 2, 3).unwrap();
    let e = kernel_error("a2", Ty::TRANSPOSE_NZ2NZ_012_WITH_N, t3, 512, false);
    assert_eq!(e.category, Category::Size, "{e}");
    // A source too small for the shape.
    let big = confusion_transpose_tiling_info(&[4, 2, 64, 32], 0, 2, 7 - 1).unwrap();
    let e = kernel_error("a2", Ty::TRANSPOSE_NZ2NZ_012_WITHOUT_N, big, 1024, false);
    assert_eq!(e.category, Category::Size, "{e}");
}

#[test]
fn page_example_instruction_count() {
    // Scene 1, half [1, 2, 64, 32] with the minimum buffer: per head and fractal column
    // (2 × 2), four passes of one fractal, two TransDataTo5HD each; with the maximum buffer one
    // pass of four repeats.
    let sh = Shape {
        b: 1,
        n: 2,
        s: 64,
        d: 32,
    };
    let t = confusion_transpose_tiling_info(&sh.dims(), 512, 2, 1).unwrap();
    let count = |tmp: u32, t: ConfusionTransposeTiling| {
        let (_, report) = run_on(ascendc::Launch::new(1), move |ub| {
            let s = ub.tensor(4096, h(1.0));
            let d = ub.tensor(4096, h(0.0));
            let tb = ub.tensor::<u8>(tmp, 0);
            confusion_transpose(&d, &s, Tmp::Shared(&tb), Ty::TRANSPOSE_NZ2ND_0213, &t)?;
            Ok(())
        })
        .unwrap();
        report.blocks[0].instr_counts
    };
    let min = count(512, t);
    let tmax = confusion_transpose_tiling_info(&sh.dims(), 2048, 2, 1).unwrap();
    let max = count(2048, tmax);
    // Vector pipe: each TransDataTo5HD follows its PipeBarrier<PIPE_V>.
    let v = ascendc::Pipe::V as usize;
    assert_eq!(min[v], 2 * 2 * 4 * 2 * 2, "{min:?}");
    assert_eq!(max[v], 2 * 2 * 2 * 2, "{max:?}");
}
