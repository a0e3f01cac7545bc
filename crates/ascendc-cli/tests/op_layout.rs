//! `ascendc op run` on an operator laid out as operator libraries lay them out
//! (`tests/ops/neg_tail`): the product's tiling directory named in the operator's
//! `CMakeLists.txt`, the kernel entry file named by the product's configuration
//! (`opFile.value`), a product configuration replacing the data-type lists, a shared kernel
//! header found with `-I`, no InferShape (the output shape comes from the command line), and
//! tensors allocated as the device allocates them (the kernel's whole-block copies reach into the
//! padding: warnings, correct values).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn op() -> PathBuf {
    repo().join("tests/ops/neg_tail")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A directory holding what `<op>/scripts/gen_data.py ARGS…` writes.
fn gen_data(op: &Path, args: &[&str]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let o = Command::new("python3")
        .arg(op.join("scripts/gen_data.py"))
        .args(args)
        .current_dir(tmp.path())
        .output()
        .expect("python3 runs");
    assert!(o.status.success(), "gen_data.py: {:?}", text(&o));
    tmp
}

/// NegTail's `x.npy` and `golden.npy`.
fn data(dtype: &str, rows: u32, cols: u32) -> tempfile::TempDir {
    gen_data(&op(), &[dtype, &rows.to_string(), &cols.to_string()])
}

/// Runs the python `script` in `dir`; fails the test when it fails.
fn python(dir: &Path, script: &str) {
    let o = Command::new("python3")
        .args(["-c", script])
        .current_dir(dir)
        .output()
        .expect("python3 runs");
    assert!(o.status.success(), "{:?}", text(&o));
}

/// `ascendc op run tests/ops/neg_tail -v -I tests/ops/common/inc ARGS…` in `dir`.
fn op_run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["op", "run"])
        .arg(op())
        .arg("-v")
        .arg("-I")
        .arg(repo().join("tests/ops/common/inc"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("ascendc runs")
}

/// `y.npy` equals `golden.npy` bit for bit, in type and shape too.
fn equals_golden(dir: &Path) {
    let script = "import numpy as np\n\
a = np.load('y.npy'); g = np.load('golden.npy')\n\
assert a.dtype == g.dtype and a.shape == g.shape, (a.dtype, a.shape, g.dtype, g.shape)\n\
assert (a.view(np.uint8) == g.view(np.uint8)).all()\n\
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

#[test]
fn a2_uses_its_tiling_directory_and_entry_file() {
    // 8 x 125 halves: 1000 elements, 256 per block (arch32's tiling) = 4 blocks; the last
    // block's whole-block copies reach bytes 2000..2016, in the padding of the 2000-byte tensors.
    let d = data("float16", 8, 125);
    let o = op_run(
        d.path(),
        &["--input", "x=x.npy", "--output", "y=y.npy:float16:1000"],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(err.contains("NegTail: block dim 4, tiling key 1"), "{err}");
    assert!(out.contains("entry: neg_tail_v2.cpp"), "{out}");
    assert!(
        err.contains("warning") && err.contains("padding the device's allocator adds"),
        "{err}"
    );
    equals_golden(d.path());
}

#[test]
fn a2_runs_float32_too() {
    let d = data("float32", 3, 100);
    let o = op_run(
        d.path(),
        &["--input", "x=x.npy", "--output", "y=y.npy:float32:300"],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(err.contains("NegTail: block dim 2"), "{err}");
    equals_golden(d.path());
}

#[test]
fn p310_uses_its_own_directory_entry_file_and_type_list() {
    // arch20's tiling: 128 elements per block, 8 blocks; the default entry file neg_tail.cpp.
    let d = data("float16", 8, 125);
    let o = op_run(
        d.path(),
        &[
            "--product",
            "310P",
            "--input",
            "x=x.npy",
            "--output",
            "y=y.npy:float16:1000",
        ],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(err.contains("NegTail: block dim 8"), "{err}");
    assert!(out.contains("entry: neg_tail.cpp"), "{out}");
    equals_golden(d.path());
    // Its configuration lists float16 only.
    let d = data("float32", 2, 8);
    let o = op_run(
        d.path(),
        &[
            "--product",
            "310P",
            "--input",
            "x=x.npy",
            "--output",
            "y=y.npy:float32:16",
        ],
    );
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("NegTail does not accept x=float32"), "{err}");
}

#[test]
fn without_infershape_the_output_takes_the_input_shape_unless_given() {
    // y.npy is written with x's shape [8, 125]; the golden is flat, so compare the values only.
    let d = data("float16", 8, 125);
    let o = op_run(d.path(), &["--input", "x=x.npy", "--output", "y=y.npy"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let check = "import numpy as np\n\
a = np.load('y.npy'); g = np.load('golden.npy')\n\
assert a.shape == (8, 125), a.shape\n\
assert (a.reshape(-1).view(np.uint16) == g.view(np.uint16)).all()\n";
    python(d.path(), check);
}

#[test]
fn a_product_without_a_tiling_directory_is_refused_clearly() {
    // A3 is not in SUPPORT_COMPUTE_UNIT nor in the definition's AddConfig list.
    let d = data("float16", 1, 16);
    let o = op_run(
        d.path(),
        &[
            "--product",
            "A3",
            "--input",
            "x=x.npy",
            "--output",
            "y=y.npy:float16:16",
        ],
    );
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("NegTail"), "{err}");
}

#[test]
fn a_missing_include_directory_is_an_error() {
    let d = data("float16", 1, 16);
    let o = op_run(
        d.path(),
        &[
            "-I",
            "no/such/dir",
            "--input",
            "x=x.npy",
            "--output",
            "y=y.npy",
        ],
    );
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("-I no/such/dir: not a directory"), "{err}");
}

#[test]
fn an_output_named_like_an_input_updates_it_in_place() {
    // The kernel reads the old values through the *output* address: only when the output is the
    // input `var` does it see them (a separate output buffer would give 0 + x).
    let op = repo().join("tests/ops/add_inplace");
    let tmp = gen_data(&op, &["1024"]);
    let d = tmp.path();
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["op", "run"])
        .arg(&op)
        .args(["--input", "var=var.npy", "--input", "x=x.npy"])
        .args(["--output", "var=out.npy"])
        .current_dir(d)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let check = "import numpy as np\n\
a = np.load('out.npy'); g = np.load('golden.npy')\n\
assert a.shape == g.shape and (a.view(np.uint32) == g.view(np.uint32)).all()\n";
    python(d, check);
}

#[test]
fn bool_tensors_run_as_bytes_and_come_back_as_numpy_bool() {
    // DTYPE_X is `bool` and ORIG_DTYPE_X DT_BOOL in the kernel (a static_assert there); the output
    // file is a numpy bool array.
    let op = repo().join("tests/ops/flip_flags");
    let tmp = gen_data(&op, &["2048"]);
    let d = tmp.path();
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["op", "run"])
        .arg(&op)
        .args(["--input", "x=x.npy", "--output", "y=y.npy"])
        .current_dir(d)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let check = "import numpy as np\n\
a = np.load('y.npy'); g = np.load('golden.npy')\n\
assert a.dtype == np.bool_ and a.shape == g.shape and (a == g).all(), (a.dtype, a.shape)\n";
    python(d, check);
}

#[test]
fn a_dynamic_input_takes_a_list_of_tensors() {
    // Three tensors for the DYNAMIC input x (--input x=… three times): the TilingFunc reads them
    // with GetIrInputInstanceInfo / GetDynamicInputShape, the kernel through its ListTensorDesc.
    let op = repo().join("tests/ops/sum_list");
    let tmp = gen_data(&op, &["3", "512"]);
    let d = tmp.path();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_ascendc"))
            .args(["op", "run"])
            .arg(&op)
            .args(args)
            .current_dir(d)
            .output()
            .unwrap()
    };
    let o = run(&[
        "--input", "x=x0.npy", "--input", "x=x1.npy", "--input", "x=x2.npy", "--output", "y=y.npy",
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let check = "import numpy as np\n\
a = np.load('y.npy'); g = np.load('golden.npy')\n\
assert a.shape == g.shape and (a.view(np.uint32) == g.view(np.uint32)).all()\n";
    python(d, check);
    // A plain input given twice is refused.
    let add = repo().join("tests/ops/add_inplace");
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["op", "run"])
        .arg(&add)
        .args([
            "--input",
            "var=x0.npy",
            "--input",
            "x=x1.npy",
            "--input",
            "x=x2.npy",
        ])
        .args(["--output", "var=out.npy"])
        .current_dir(d)
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "--input x is given 2 times, but only a DYNAMIC input of AddInplace takes a list"
        ),
        "{err}"
    );
}
