//! The operator-library base layer (log/log.h, util/*.h, register/op_impl_registry.h with
//! TilingParse and compile info, infershape_broadcast_util.h, graph/utils/type_utils.h,
//! securec.h) through `ascendc op run` on `samples/ops/bias_add_base`, an operator in the
//! libraries' layout: bit-exact against numpy goldens with its float, bool and int attributes,
//! and its failures — OP_CHECK_IF in the TilingFunc and in TilingParse, broadcast shape
//! inference — as clear errors naming the operator.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn sample() -> PathBuf {
    repo().join("samples/ops/bias_add_base")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `ascendc op run OP ARGS…` in `dir`, with `env` set.
fn op_run(dir: &Path, op: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["op", "run"])
        .arg(op)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .output()
        .expect("ascendc runs")
}

/// A directory with what `gen_data.py ARGS…` writes.
fn data(args: &[&str]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let o = Command::new("python3")
        .arg(sample().join("scripts/gen_data.py"))
        .args(args)
        .current_dir(tmp.path())
        .output()
        .expect("python3 runs");
    assert!(o.status.success(), "gen_data.py: {:?}", text(&o));
    tmp
}

const IO: [&str; 6] = [
    "--input",
    "x=input/x.npy",
    "--input",
    "bias=input/bias.npy",
    "--output",
    "y=y.npy",
];

/// The `.npy` output equals the golden bit for bit (numpy).
fn equals_golden(dir: &Path) {
    let script = "import numpy as np\n\
a = np.load('y.npy'); g = np.load('output/golden.npy')\n\
assert a.dtype == g.dtype and a.shape == g.shape, (a.dtype, a.shape, g.dtype, g.shape)\n\
bad = np.flatnonzero(a.view(np.uint8) != g.view(np.uint8))\n\
assert bad.size == 0, ('differ at bytes', bad[:10])\n\
print('PASS', a.size)\n";
    let o = Command::new("python3")
        .args(["-c", script])
        .current_dir(dir)
        .output()
        .expect("python3 runs");
    let (out, err) = text(&o);
    assert!(
        o.status.success() && out.starts_with("PASS"),
        "{out}\n{err}"
    );
}

/// Runs the sample on gen_data.py's data with `attrs`; returns stderr.
fn run_ok(gen: &[&str], attrs: &[&str], env: &[(&str, &str)]) -> (tempfile::TempDir, String) {
    let d = data(gen);
    let mut args = vec!["-v"];
    args.extend_from_slice(&IO);
    args.extend_from_slice(attrs);
    let o = op_run(d.path(), &sample(), &args, env);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{gen:?} {attrs:?}:\n{out}\n{err}");
    equals_golden(d.path());
    (d, err)
}

/// Runs `op` expecting the command's failure (status 2); returns stderr.
fn run_err(dir: &Path, op: &Path, attrs: &[&str]) -> String {
    let mut args = IO.to_vec();
    args.extend_from_slice(attrs);
    let o = op_run(dir, op, &args, &[]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}\n{err}");
    err
}

#[test]
fn float32_row_bias_with_alpha_over_all_cores() {
    let (_d, err) = run_ok(
        &["float32", "96", "1024", "0.5", "0", "1"],
        &["--attr", "alpha=0.5"],
        &[],
    );
    // 96 rows, 2 a core over the 48 vector cores of the default product; nothing logged at
    // error level.
    assert!(err.contains("BiasAddBase: block dim 48"), "{err}");
    assert!(!err.contains("[ERROR]"), "{err}");
}

#[test]
fn float16_two_dim_bias_with_relu_and_int32_core_limit() {
    // bias [1, cols] broadcast by InferShape4Broadcast; relu read with GetAttrPointer<bool>,
    // max_cores with GetAttrPointer<int32_t>.
    let (_d, err) = run_ok(
        &["float16", "30", "512", "1.5", "1", "2"],
        &[
            "--attr",
            "alpha=1.5",
            "--attr",
            "relu=true",
            "--attr",
            "max_cores=4",
        ],
        &[],
    );
    // ceil(30 / 4) = 8 rows a core: 4 cores.
    assert!(err.contains("BiasAddBase: block dim 4"), "{err}");
}

#[test]
fn compile_info_from_tiling_parse_reaches_the_tiling_func_on_310p() {
    // The UB of the 310P (and its 8 cores) come through TilingParse's compile info; the info
    // lines appear with ASCEND_GLOBAL_LOG_LEVEL=1.
    let (_d, err) = run_ok(
        &["float32", "9", "16384", "-2", "1", "1"],
        &[
            "--attr",
            "alpha=-2",
            "--attr",
            "relu=1",
            "--product",
            "310P",
        ],
        &[("ASCEND_GLOBAL_LOG_LEVEL", "1")],
    );
    assert!(err.contains("BiasAddBase: block dim 5"), "{err}");
    assert!(
        err.contains("[INFO] BiasAddBase: rows 9 over 5 cores, tiles of"),
        "{err}"
    );
}

#[test]
fn op_check_if_failure_names_the_operator_and_its_message() {
    let d = data(&["float32", "4", "256", "1", "0", "1"]);
    let err = run_err(d.path(), &sample(), &["--attr", "max_cores=-3"]);
    assert!(
        err.contains("the TilingFunc of BiasAddBase failed: it returned 4294967295"),
        "{err}"
    );
    assert!(
        err.contains("[ERROR] BiasAddBase: max_cores must be 0 (all) or positive, got -3"),
        "{err}"
    );
}

#[test]
fn invalid_shape_and_broadcast_failures_are_logged() {
    // 100 float32 columns are not whole 32-byte blocks: OP_LOGE_FOR_INVALID_SHAPE_WITH_REASON.
    let d = data(&["float32", "4", "100", "1", "0", "1"]);
    let err = run_err(d.path(), &sample(), &[]);
    assert!(
        err.contains("[ERROR] BiasAddBase: the shape of x is [4, 100]: the last dimension must be a multiple of 8 elements (32 bytes)"),
        "{err}"
    );
    // A bias of 3 elements against 256 columns does not broadcast: InferShape fails.
    let p = d.path();
    let script = "import numpy as np\n\
np.save('input/x.npy', np.ones((4, 256), np.float32))\n\
np.save('input/bias.npy', np.ones((3,), np.float32))\n";
    let o = Command::new("python3")
        .args(["-c", script])
        .current_dir(p)
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let err = run_err(p, &sample(), &[]);
    assert!(
        err.contains("InferShape of BiasAddBase returned 4294967295"),
        "{err}"
    );
    assert!(
        err.contains(
            "[ERROR] BiasAddBase: the shape [3] of input 1 does not broadcast with [4, 256]"
        ),
        "{err}"
    );
}

#[test]
fn tiling_parse_failure_is_reported() {
    // A copy of the operator whose TilingParse needs more UB than any product has.
    let tmp = tempfile::tempdir().unwrap();
    let op = tmp.path().join("bias_add_base");
    for sub in ["op_host", "op_kernel"] {
        std::fs::create_dir_all(op.join(sub)).unwrap();
        for e in std::fs::read_dir(sample().join(sub)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), op.join(sub).join(e.file_name())).unwrap();
        }
    }
    let tiling = op.join("op_host/bias_add_base_tiling.cpp");
    let src = std::fs::read_to_string(&tiling).unwrap();
    let patched = src.replace("MIN_UB_BYTES = 1024;", "MIN_UB_BYTES = 1ULL << 40;");
    assert_ne!(src, patched);
    std::fs::write(&tiling, patched).unwrap();
    let d = data(&["float32", "4", "256", "1", "0", "1"]);
    let err = run_err(d.path(), &op, &[]);
    assert!(
        err.contains("the TilingParse function of BiasAddBase failed: it returned 4294967295"),
        "{err}"
    );
    assert!(
        err.contains("[ERROR] BiasAddBase: UB of")
            && err.contains("bytes is below the 1099511627776"),
        "{err}"
    );
}
