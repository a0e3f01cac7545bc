//! The data-layout C++ kernels (`tests/cpp/layout.cpp`) run by `ascendc run` on several
//! products: NCHW → NC1HWC0 with TransDataTo5HD, int8 TransDataTo5HD on LocalTensor lists, 16×16 tile Transpose on 4 blocks, the enhanced
//! NCHW → NHWC Transpose, int32 TransDataTo5HD with address tensors, BilinearInterpolation and
//! VectorPadding, each output compared with a golden computed here.

use ascendc::f16;
use std::path::{Path, PathBuf};
use std::process::Command;

fn halves(v: &[f32]) -> Vec<u8> {
    v.iter()
        .flat_map(|x| f16::from_f32(*x).to_le_bytes())
        .collect()
}

fn read_halves(b: &[u8]) -> Vec<f16> {
    b.chunks_exact(2)
        .map(|c| f16::from_le_bytes([c[0], c[1]]))
        .collect()
}

/// Inputs of every kernel, by file name.
struct Inputs {
    nchw: Vec<f32>,
    int8: Vec<i8>,
    tiles: Vec<f32>,
    int32: Vec<i32>,
    small: Vec<f32>,
    src0: Vec<f32>,
    offsets: Vec<u32>,
    src1: Vec<f32>,
    pad: Vec<f32>,
}

impl Inputs {
    fn new() -> Inputs {
        Inputs {
            nchw: (0..16384)
                .map(|i| ((i * 37) % 2003) as f32 - 1001.0)
                .collect(),
            int8: (0..512).map(|k| (k * 7 % 256) as u8 as i8).collect(),
            tiles: (0..1024).map(|i| (i as f32) * 0.5 - 200.0).collect(),
            int32: (0..128).map(|i| i * 1000 - 64000).collect(),
            small: (0..144).map(|i| i as f32 * 0.25 - 18.0).collect(),
            src0: (0..512).map(|i| ((i % 61) as f32) * 0.25 - 7.0).collect(),
            offsets: (0..32).map(|k| ((k * 5) % 32) * 32).collect(),
            src1: (0..16).map(|i| 0.5 + i as f32 * 0.125).collect(),
            pad: (0..512).map(|i| ((i * 13) % 97) as f32 - 48.0).collect(),
        }
    }

    fn write(&self, dir: &Path) {
        let put = |name: &str, bytes: Vec<u8>| {
            std::fs::write(dir.join(format!("input/{name}.bin")), bytes).unwrap()
        };
        put("nchw", halves(&self.nchw));
        put("int8", self.int8.iter().map(|&v| v as u8).collect());
        put("tiles", halves(&self.tiles));
        put(
            "int32",
            self.int32.iter().flat_map(|v| v.to_le_bytes()).collect(),
        );
        put("small", halves(&self.small));
        put("bl_src0", halves(&self.src0));
        put(
            "bl_off",
            self.offsets.iter().flat_map(|v| v.to_le_bytes()).collect(),
        );
        put("bl_src1", halves(&self.src1));
        put("pad", halves(&self.pad));
    }
}

fn h(x: f32) -> f16 {
    f16::from_f32(x)
}

fn source() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/layout.cpp")
}

/// Runs the kernels on `product` in a fresh directory holding the inputs.
fn run(product: &str, extra: &[&str]) -> (bool, String, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("input")).unwrap();
    std::fs::create_dir_all(dir.path().join("output")).unwrap();
    Inputs::new().write(dir.path());
    let src = source();
    let mut args = vec!["run", "--product", product, src.to_str().unwrap()];
    args.extend_from_slice(extra);
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .current_dir(dir.path())
        .args(&args)
        .output()
        .expect("ascendc runs");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        dir,
    )
}

fn output(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(format!("output/{name}.bin")))
        .unwrap_or_else(|e| panic!("output/{name}.bin: {e}"))
}

fn check_common(dir: &Path, inp: &Inputs, with_int32: bool) {
    // golden = x.reshape(2, 2, 16, 16, 16).transpose(0, 1, 3, 4, 2) of NCHW [2, 32, 16, 16].
    let mut want = vec![h(0.0); 16384];
    for n in 0..2 {
        for c1 in 0..2 {
            for p in 0..256 {
                for c0 in 0..16 {
                    want[((n * 2 + c1) * 256 + p) * 16 + c0] =
                        h(inp.nchw[(n * 32 + c1 * 16 + c0) * 256 + p]);
                }
            }
        }
    }
    assert_eq!(read_halves(&output(dir, "nc1hwc0")), want, "NC1HWC0");
    // int8, high halves: byte 16 + k of row r = byte 16 + r of source row k; low halves stay 0.
    let got = output(dir, "int8_t");
    for r in 0..16 {
        for c in 0..32 {
            let want = if c < 16 {
                0
            } else {
                inp.int8[(c - 16) * 32 + 16 + r]
            };
            assert_eq!(got[r * 32 + c] as i8, want, "int8 ({r}, {c})");
        }
    }
    let tiles = read_halves(&output(dir, "tiles_t"));
    for t in 0..4 {
        for r in 0..16 {
            for c in 0..16 {
                assert_eq!(
                    tiles[t * 256 + r * 16 + c],
                    h(inp.tiles[t * 256 + c * 16 + r]),
                    "tile {t} ({r}, {c})"
                );
            }
        }
    }
    if with_int32 {
        let got: Vec<i32> = output(dir, "int32_t")
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let want: Vec<i32> = (0..128).map(|i| inp.int32[(i % 16) * 8 + i / 16]).collect();
        assert_eq!(got, want, "int32 [16, 8] -> [8, 16]");
    }
}

fn check_nhwc_and_bilinear(dir: &Path, inp: &Inputs) {
    let got = read_halves(&output(dir, "small_nhwc"));
    for n in 0..3 {
        for c in 0..3 {
            for p in 0..16 {
                assert_eq!(
                    got[n * 48 + p * 3 + c],
                    h(inp.small[n * 48 + c * 16 + p]),
                    "NHWC ({n}, {c}, {p})"
                );
            }
        }
    }
    // Lane 16j + i of vertical iteration v: Σ_h src0[off[8it + j]/2 + i]·src1[it], it = 2v + h,
    // each product and the sum rounded to half.
    let got = read_halves(&output(dir, "bilinear"));
    for v in 0..2 {
        for k in 0..128 {
            let (j, i) = (k / 16, k % 16);
            let term = |hh: usize| {
                let it = 2 * v + hh;
                let x = inp.src0[inp.offsets[it * 8 + j] as usize / 2 + i];
                h(h(x).to_f32() * h(inp.src1[it]).to_f32()).to_f32()
            };
            assert_eq!(
                got[v * 128 + k],
                h(term(0) + term(1)),
                "bilinear ({v}, {k})"
            );
        }
    }
}

#[test]
fn layout_kernels_on_a2_match_the_goldens_without_hazards() {
    let (ok, out, err, dir) = run("A2", &["--check"]);
    assert!(ok && out.contains("done"), "{out}\n{err}");
    assert!(!err.contains("warning"), "{err}");
    let inp = Inputs::new();
    check_common(dir.path(), &inp, true);
    check_nhwc_and_bilinear(dir.path(), &inp);
}

#[test]
fn layout_kernels_on_310p_with_vector_padding() {
    let (ok, out, err, dir) = run("310P", &[]);
    assert!(ok && out.contains("done"), "{out}\n{err}");
    let inp = Inputs::new();
    check_common(dir.path(), &inp, true);
    check_nhwc_and_bilinear(dir.path(), &inp);
    let got = read_halves(&output(dir.path(), "padded"));
    for blk in 0..32 {
        let b = &inp.pad[blk * 16..blk * 16 + 16];
        for i in 0..16 {
            let want = match blk {
                0..=7 => b[0],
                8..=15 => b[15 - i],
                _ if i == 0 => 0.0,
                _ => b[16 - i],
            };
            assert_eq!(got[blk * 16 + i], h(want), "block {blk} lane {i}");
        }
    }
}

#[test]
fn layout_kernels_on_910_and_310b_skip_what_they_lack() {
    for product in ["910", "310B"] {
        let (ok, out, err, dir) = run(product, &[]);
        assert!(ok && out.contains("done"), "{product}\n{out}\n{err}");
        check_common(dir.path(), &Inputs::new(), product != "910");
        assert!(
            !dir.path().join("output/bilinear.bin").exists(),
            "{product}"
        );
    }
}

#[test]
fn a_short_tmp_buffer_is_refused_with_the_kernel_line() {
    let line = std::fs::read_to_string(source())
        .unwrap()
        .lines()
        .position(|l| l.contains("Transpose(dst, src, tmp, params)"))
        .expect("the enhanced Transpose call")
        + 1;
    let (ok, out, err, _dir) = run("A2", &["--cxxflag=-DLAYOUT_SMALL_TMP"]);
    assert!(!ok, "{out}\n{err}");
    assert!(
        err.contains("Transpose")
            && err.contains("sharedTmpBuffer")
            && err.contains("2560")
            && err.contains(&format!("layout.cpp:{line}")),
        "{err}"
    );
}
