//! TopK (排序操作/TopK) on A2 and the Atlas inference series, Normal and Small mode, against a
//! host emulation (a stable descending sort of the values, or of their negations), the page's
//! two worked examples, the host helpers' sizes and the error cases.

use crate::ub_harness;

use ascendc::adv::common::Tmp;
use ascendc::adv::sort::topk::{topk_max_min_tmp_size, topk_tiling};
use ascendc::adv::sort::{topk, TopKInfo, TopKMode, TopKOptions, TopkTiling};
use ascendc::chip::Product;
use ascendc::prelude::*;
use ascendc::{Category, Element};
use ub_harness::{error_on, run_p};

/// A deterministic value stream in roughly [-scale, scale).
fn values(n: usize, seed: u64, scale: f32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(6364136223846793005) ^ 0x9E37_79B9_7F4A_7C15;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
        })
        .collect()
}

fn product(p: &str) -> Product {
    if p == "310p" {
        Product::Ascend310P
    } else {
        Product::Ascend910B
    }
}

/// One case: shape, k, switches and inputs (as f32; half cases round them first).
#[derive(Clone)]
struct Case {
    outter: i32,
    inner: i32,
    n: i32,
    k: i32,
    largest: bool,
    opts: TopKOptions,
    src: Vec<f32>,
    index: Vec<i32>,
    finish: Vec<u8>,
}

impl Case {
    fn new(
        outter: i32,
        inner: i32,
        n: i32,
        k: i32,
        largest: bool,
        mode: TopKMode,
        seed: u64,
    ) -> Case {
        let (o, i) = (outter as usize, inner as usize);
        let mut src = values(o * i, seed, 1000.0);
        // Edge values and ties in the valid part; the padding is the extreme of the order.
        let edge = [
            0.0,
            -0.0,
            1e-40,
            -1e-40,
            f32::INFINITY,
            f32::NEG_INFINITY,
            5.0,
            5.0,
        ];
        for r in 0..o {
            for (j, &e) in edge.iter().enumerate() {
                if j < n as usize && (j + r) % 3 == 0 {
                    src[r * i + (j * 7 + r) % n as usize] = e;
                }
            }
            for j in n as usize..i {
                src[r * i + j] = if largest {
                    f32::NEG_INFINITY
                } else {
                    f32::INFINITY
                };
            }
        }
        let rows = if mode == TopKMode::NSmall { o } else { 1 };
        let index = (0..rows * i).map(|x| (x % i) as i32 * 3 + 1).collect();
        let finish = (0..o).map(|r| (r % 2) as u8).collect();
        Case {
            outter,
            inner,
            n,
            k,
            largest,
            opts: TopKOptions {
                mode,
                ..Default::default()
            },
            src,
            index,
            finish,
        }
    }

    fn with(mut self, init: bool, finish: bool) -> Case {
        self.opts.is_init_index = init;
        self.opts.is_has_finish = finish;
        self
    }

    /// Output row strides of values and indices.
    fn strides(&self, size: usize) -> (usize, usize) {
        let k = self.k as usize;
        if self.opts.mode == TopKMode::NSmall {
            (k, k)
        } else {
            let per = 32 / size;
            (k.div_ceil(per) * per, k.div_ceil(8) * 8)
        }
    }

    /// The expected values (as f32) and indices, row by row (`k` each).
    fn expect<T: Element>(&self, p: &str) -> (Vec<f32>, Vec<i32>) {
        let (i, k) = (self.inner as usize, self.k as usize);
        let (mut vals, mut idxs) = (Vec::new(), Vec::new());
        for r in 0..self.outter as usize {
            let row: Vec<f32> = self.src[r * i..(r + 1) * i]
                .iter()
                .map(|&x| T::from_f64(x as f64).to_f64() as f32)
                .collect();
            // The smallest: sorted by `Muls(x, -1)` and multiplied back; half saturates ±Inf
            // to ±65504 (the default fp16 mode).
            // The inference series' Normal mode also copies the values out with an `Adds`
            // (saturating).
            let sat = |y: f32| {
                if T::SIZE == 2 && y.is_infinite() {
                    65504f32.copysign(y)
                } else {
                    y
                }
            };
            let neg = |x: f32| sat(-x);
            let copies = p == "310p" && self.opts.mode == TopKMode::Normal;
            let out = |x: f32| if copies { sat(x) } else { x };
            let key = |j: usize| if self.largest { row[j] } else { neg(row[j]) };
            let mut order: Vec<usize> = (0..i).collect();
            order.sort_by(|&a, &b| key(b).partial_cmp(&key(a)).unwrap());
            for &j in &order[..k] {
                vals.push(if self.largest {
                    out(row[j])
                } else {
                    neg(key(j))
                });
                let id = if !self.opts.is_init_index {
                    j as i32
                } else if self.opts.mode == TopKMode::NSmall {
                    self.index[r * i + j]
                } else {
                    self.index[j]
                };
                let done = self.opts.is_has_finish && self.finish[r] != 0;
                idxs.push(if done { self.n } else { id });
            }
        }
        (vals, idxs)
    }

    fn tiling(&self, p: &str, size: u32) -> TopkTiling {
        topk_tiling(
            product(p),
            self.inner,
            self.outter,
            self.k,
            size,
            self.opts.is_init_index,
            self.opts.mode,
            self.largest,
        )
    }

    /// Runs TopK on `p` with `T` values; `(values as f32, indices)` read back row by row.
    fn run<T: Element>(&self, p: &str) -> (Vec<f32>, Vec<i32>) {
        let size = T::SIZE as u32;
        let tiling = self.tiling(p, size);
        let (tmp_bytes, _) = topk_max_min_tmp_size(
            product(p),
            self.inner,
            self.outter,
            false,
            self.opts.is_init_index,
            self.opts.mode,
            self.largest,
            size,
        );
        let (vs, is) = self.strides(T::SIZE);
        let o = self.outter as usize;
        let (raw_v, raw_i) = run_p(p, |ub| {
            // Sort32 / MrgSort want 256-byte aligned buffers and 128-byte aligned sources.
            let tmp = ub.tensor::<u8>(tmp_bytes.div_ceil(256) * 256, 0);
            let si = ub.from(&self.index);
            let src: Vec<T> = self.src.iter().map(|&x| T::from_f64(x as f64)).collect();
            let s = ub.from(&src);
            let fin = ub.from(&self.finish);
            let dv = ub.tensor::<T>((o * vs) as u32, T::default());
            let di = ub.tensor::<i32>((o * is) as u32, -7);
            let info = TopKInfo {
                outter: self.outter,
                inner: self.inner,
                n: self.n,
            };
            topk(
                &dv,
                &di,
                &s,
                &si,
                &fin,
                Tmp::Shared(&tmp),
                self.k,
                &tiling,
                info,
                self.largest,
                self.opts,
            )?;
            let v: Vec<f32> = (0..o * vs)
                .map(|x| dv.get_value(x as u32).unwrap().to_f64() as f32)
                .collect();
            let i: Vec<i32> = (0..o * is)
                .map(|x| di.get_value(x as u32).unwrap())
                .collect();
            Ok((v, i))
        });
        let k = self.k as usize;
        let v = (0..o)
            .flat_map(|r| raw_v[r * vs..r * vs + k].to_vec())
            .collect();
        let i = (0..o)
            .flat_map(|r| raw_i[r * is..r * is + k].to_vec())
            .collect();
        (v, i)
    }

    fn check<T: Element>(&self, p: &str) {
        let (got_v, got_i) = self.run::<T>(p);
        let (want_v, want_i) = self.expect::<T>(p);
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let what = format!(
            "{p} {} outter {} inner {} n {} k {} largest {} {:?}",
            T::DTYPE,
            self.outter,
            self.inner,
            self.n,
            self.k,
            self.largest,
            self.opts
        );
        assert_eq!(bits(&got_v), bits(&want_v), "values, {what}");
        assert_eq!(got_i, want_i, "indices, {what}");
    }
}

#[test]
fn normal_mode_matches_a_stable_sort() {
    let shapes = [
        (2, 32, 32, 5),
        (3, 96, 90, 20),
        (1, 160, 150, 33),
        (2, 512, 500, 100),
        (1, 1024, 1024, 64),
    ];
    for p in ["a2", "310p"] {
        for (seed, &(o, i, n, k)) in shapes.iter().enumerate() {
            if p == "310p" && i > 512 {
                continue; // 16 KiB of proposals per 256 floats: beyond the harness's 64 KiB
            }
            for largest in [true, false] {
                for (init, finish) in [(false, false), (true, true), (false, true)] {
                    let c = Case::new(o, i, n, k, largest, TopKMode::Normal, seed as u64)
                        .with(init, finish);
                    c.check::<f32>(p);
                    if i <= 512 {
                        c.check::<f16>(p);
                    }
                }
            }
        }
    }
}

#[test]
fn small_mode_matches_a_stable_sort() {
    for p in ["a2", "310p"] {
        for (seed, &(o, n, k)) in [(1, 32, 32), (4, 17, 8), (5, 16, 3), (8, 30, 17), (3, 32, 1)]
            .iter()
            .enumerate()
        {
            for largest in [true, false] {
                for init in [false, true] {
                    let c = Case::new(o, 32, n, k, largest, TopKMode::NSmall, 10 + seed as u64)
                        .with(init, false);
                    c.check::<f32>(p);
                    c.check::<f16>(p);
                }
            }
        }
    }
}

#[test]
fn the_pages_normal_example() {
    let rows = [
        [
            -18096.555, -11389.83, -43112.895, -21344.77, 57755.918, 50911.145, 24912.621,
            -12683.089, 45088.004, -39351.043, -30153.293, 11478.329, 12069.15, -9215.71, 45716.44,
            -21472.398, -37372.16, -17460.414, 22498.03, 21194.838, -51229.17, -51721.918,
            -47510.38, 47899.11, 43008.176, 5495.8975, -24176.97, -14308.27, 53950.695, 7652.6035,
            -45169.168, -26275.518,
        ],
        [
            -9196.681, -31549.518, 18589.23, -12427.927, 50491.81, -20078.11, -25606.107,
            -34466.773, -42512.805, 50584.48, 35919.934, -17283.5, 6488.137, -12885.134, 1942.2147,
            -50611.96, 52671.477, 23179.662, 25814.875, -69.73492, 33906.797, -34662.61, 46168.71,
            -52391.258, 57435.332, 50269.414, 40935.05, 21164.176, 4028.458, -29022.918,
            -46391.133, 1971.2042,
        ],
    ];
    let mut c = Case::new(2, 32, 32, 5, false, TopKMode::Normal, 0).with(true, true);
    c.src = rows.concat();
    c.index = (0..32).collect();
    c.finish = vec![0, 1];
    for p in ["a2", "310p"] {
        let (v, i) = c.run::<f32>(p);
        assert_eq!(
            v,
            [
                -51721.918, -51229.17, -47510.38, -45169.168, -43112.895, -52391.258, -50611.96,
                -46391.133, -42512.805, -34662.61
            ]
        );
        assert_eq!(i, [21, 20, 22, 30, 2, 32, 32, 32, 32, 32]);
    }
}

#[test]
fn the_pages_small_example() {
    let rows: [[f32; 17]; 4] = [
        [
            55492.18, 27748.229, -51100.11, 19276.926, 14828.149, -20771.824, 57553.4, -21504.092,
            -57423.414, 142.36443, -5223.254, 54669.473, 54519.184, 10165.924, -658.4564,
            2264.2397, -52942.883,
        ],
        [
            -52849.074, 57778.72, 37069.496, 16273.109, -25150.637, -35680.5, -15823.097, 4327.308,
            -35853.86, -7052.2627, 44148.117, -17515.457, -18926.059, -1650.6737, 21753.582,
            -2589.2822, 39390.4,
        ],
        [
            -17539.186, -15220.923, 29945.332, -4088.1514, 28482.525, 29750.484, -46082.03,
            31141.16, 23140.047, 8461.174, 39955.844, 29401.35, 53757.543, 33584.566, -3543.6284,
            -38318.344, 22212.41,
        ],
        [
            -9970.768, -9191.963, -17903.045, 2211.4912, 47037.562, -41114.824, 13305.985,
            59926.07, -24316.797, -6462.8896, 5699.733, -5873.5015, 15695.861, -38492.004,
            19581.654, -36877.68, 27090.158,
        ],
    ];
    let mut c = Case::new(4, 32, 17, 8, true, TopKMode::NSmall, 0).with(true, false);
    c.src = rows
        .iter()
        .flat_map(|r| {
            r.iter()
                .copied()
                .chain(std::iter::repeat_n(f32::NEG_INFINITY, 15))
        })
        .collect();
    c.index = (0..4 * 32).map(|x| x % 32).collect();
    for p in ["a2", "310p"] {
        let (_, i) = c.run::<f32>(p);
        assert_eq!(
            i,
            [
                6, 0, 11, 12, 1, 3, 4, 13, 1, 10, 16, 2, 14, 3, 7, 13, 12, 10, 13, 7, 2, 5, 11, 4,
                7, 4, 16, 14, 12, 6, 10, 3
            ]
        );
        c.check::<f32>(p);
    }
}

#[test]
fn host_sizes_follow_the_devices_formulas() {
    let a2 = Product::Ascend910B;
    let p = Product::Ascend310P;
    let n = TopKMode::Normal;
    let s = TopKMode::NSmall;
    // A2/A3: Normal 16·inner (+4·inner numbering); Small 8·all + 64 (+4·all each).
    assert_eq!(
        topk_max_min_tmp_size(a2, 64, 3, false, true, n, true, 4),
        (1024, 1024)
    );
    assert_eq!(
        topk_max_min_tmp_size(a2, 64, 3, false, false, n, true, 2),
        (1280, 1280)
    );
    assert_eq!(
        topk_max_min_tmp_size(a2, 32, 4, false, true, s, true, 4),
        (1088, 1088)
    );
    assert_eq!(
        topk_max_min_tmp_size(a2, 32, 4, false, false, s, false, 4),
        (2112, 2112)
    );
    // Inference series: Normal 16·inner·size + 4·inner; Small 16·all·size.
    assert_eq!(
        topk_max_min_tmp_size(p, 64, 3, false, true, n, true, 2),
        (2304, 2304)
    );
    assert_eq!(
        topk_max_min_tmp_size(p, 32, 4, false, false, s, true, 4),
        (8192, 8192)
    );
    let t = topk_tiling(a2, 32, 4, 20, 2, false, s, true);
    assert_eq!(
        t.vreducehalf_val_mask,
        [0x1111, 0x1111, 0x1111, 0x1111, 0x1111, 0, 0, 0]
    );
    assert_eq!(
        (t.vreduce_idx_mask0, t.vreduce_idx_mask1),
        (0xAAAA_AAAA, 0xAA)
    );
    let t = topk_tiling(a2, 32, 4, 6, 2, false, s, true);
    assert_eq!(&t.vreducehalf_val_mask[..3], &[0x1111, 0x11, 0]);
    let t = topk_tiling(a2, 32, 2, 3, 4, true, s, false);
    assert_eq!(
        (
            t.vreduce_val_mask0,
            t.tmp_local_size,
            t.topk_mrg_src1_mask_size_offset
        ),
        (0b010101, 208, 192)
    );
}

fn call(
    ub: &mut ub_harness::Ub,
    k: i32,
    info: TopKInfo,
    mode: TopKMode,
    tmp_bytes: u32,
    finish: bool,
) -> Result<()> {
    let tmp = ub.tensor::<u8>(tmp_bytes, 0);
    let s = ub.tensor::<f32>(256, 1.0);
    let si = ub.tensor::<i32>(256, 0);
    let fin = ub.tensor::<u8>(32, 0);
    let dv = ub.tensor::<f32>(256, 0.0);
    let di = ub.tensor::<i32>(256, 0);
    let t = topk_tiling(
        Product::Ascend910B,
        info.inner,
        info.outter,
        k,
        4,
        false,
        mode,
        true,
    );
    let opts = TopKOptions {
        mode,
        is_has_finish: finish,
        ..Default::default()
    };
    topk(
        &dv,
        &di,
        &s,
        &si,
        &fin,
        Tmp::Shared(&tmp),
        k,
        &t,
        info,
        true,
        opts,
    )
}

#[test]
fn errors_name_the_parameter_and_the_rule() {
    let info = TopKInfo {
        outter: 2,
        inner: 64,
        n: 60,
    };
    let e = error_on("a2", |ub| call(ub, 61, info, TopKMode::Normal, 4096, false));
    assert_eq!(e.category, Category::Range);
    assert!(e.message.contains("`k` = 61"), "{e}");
    let e = error_on("a2", |ub| {
        call(
            ub,
            4,
            TopKInfo { inner: 48, ..info },
            TopKMode::Normal,
            4096,
            false,
        )
    });
    assert!(e.message.contains("multiple of 32"), "{e}");
    let e = error_on("a2", |ub| call(ub, 4, info, TopKMode::NSmall, 4096, false));
    assert!(e.message.contains("exactly 32"), "{e}");
    let small = TopKInfo {
        inner: 32,
        n: 32,
        ..info
    };
    let e = error_on("a2", |ub| call(ub, 4, small, TopKMode::NSmall, 4096, true));
    assert_eq!(e.category, Category::Unsupported);
    let e = error_on("a2", |ub| call(ub, 4, info, TopKMode::Normal, 1024, false));
    assert_eq!(e.category, Category::Size);
    assert!(e.message.contains("tmpLocalSize"), "{e}");
    let e = error_on("310b", |ub| {
        call(ub, 4, info, TopKMode::Normal, 4096, false)
    });
    assert_eq!(e.category, Category::Unsupported);
    let e = error_on("a2", |ub| {
        let s = ub.tensor::<i32>(64, 1);
        let di = ub.tensor::<i32>(64, 0);
        let tmp = ub.tensor::<u8>(2048, 0);
        let t = TopkTiling::default();
        let e = ub.tensor::<u8>(32, 0);
        let info = TopKInfo {
            outter: 1,
            inner: 32,
            n: 32,
        };
        topk(
            &s,
            &di,
            &s,
            &di,
            &e,
            Tmp::Shared(&tmp),
            1,
            &t,
            info,
            true,
            TopKOptions::default(),
        )
    });
    assert_eq!(e.category, Category::Type);
    // A NaN score: the sort instructions refuse it (the page puts NaN first).
    let e = error_on("a2", |ub| {
        let tmp = ub.tensor::<u8>(1024, 0);
        let s = ub.tensor::<f32>(32, f32::NAN);
        let si = ub.tensor::<i32>(32, 0);
        let dv = ub.tensor::<f32>(32, 0.0);
        let t = topk_tiling(
            Product::Ascend910B,
            32,
            1,
            1,
            4,
            false,
            TopKMode::Normal,
            true,
        );
        let info = TopKInfo {
            outter: 1,
            inner: 32,
            n: 32,
        };
        topk(
            &dv,
            &si,
            &s,
            &si,
            &si.reinterpret_cast(),
            Tmp::Shared(&tmp),
            1,
            &t,
            info,
            true,
            TopKOptions::default(),
        )
    });
    assert!(e.message.contains("NaN"), "{e}");
}
