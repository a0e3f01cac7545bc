//! `ascendc op run` on the framework operators in `samples/ops/` — unchanged op_host/op_kernel
//! sources, two shapes each, `.npy` and raw `.bin` tensors, against numpy goldens written by each
//! operator's `scripts/gen_data.py` — and its errors: missing files, wrong sizes and types,
//! unknown or bad attributes, a TilingFunc that fails, sets no block dim, or writes more tiling
//! bytes than it declares.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `ascendc op run samples/ops/<op> ARGS…` in `dir`.
fn op_run(dir: &Path, op: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["op", "run"])
        .arg(op)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("ascendc runs")
}

fn sample(op: &str) -> PathBuf {
    repo().join("samples/ops").join(op)
}

/// A directory with the data `samples/ops/<op>/scripts/gen_data.py ARGS…` writes.
fn data(op: &str, args: &[&str]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let o = Command::new("python3")
        .arg(sample(op).join("scripts/gen_data.py"))
        .args(args)
        .current_dir(tmp.path())
        .output()
        .expect("python3 runs");
    assert!(o.status.success(), "gen_data.py: {:?}", text(&o));
    tmp
}

/// Runs the operator and returns its stderr (the `-v` line); fails the test when it fails.
fn run_ok(dir: &Path, op: &str, args: &[&str]) -> String {
    let mut all = vec!["-v"];
    all.extend_from_slice(args);
    let o = op_run(dir, &sample(op), &all);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{op} {args:?}:\n{out}\n{err}");
    err
}

/// The `.npy` output equals the golden exactly: type, shape and every element (numpy).
fn npy_equals_golden(dir: &Path, output: &str) {
    let script = format!(
        "import numpy as np\n\
a = np.load('{output}'); g = np.load('output/golden.npy')\n\
assert a.dtype == g.dtype and a.shape == g.shape, (a.dtype, a.shape, g.dtype, g.shape)\n\
bad = np.flatnonzero(a.view(np.uint8) != g.view(np.uint8))\n\
assert bad.size == 0, ('differ at bytes', bad[:10])\n\
print('PASS', a.size)\n"
    );
    let o = Command::new("python3")
        .args(["-c", &script])
        .current_dir(dir)
        .output()
        .expect("python3 runs");
    let (out, err) = text(&o);
    assert!(
        o.status.success() && out.starts_with("PASS"),
        "{out}\n{err}"
    );
}

/// The raw output equals the golden `.bin` exactly (`ascendc compare` with zero tolerance).
fn bin_equals_golden(dir: &Path, output: &str, dtype: &str, n: usize) {
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["compare", output, "output/golden.bin", "--dtype", dtype])
        .args(["--rtol", "0", "--atol", "0"])
        .current_dir(dir)
        .output()
        .expect("ascendc runs");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(
        out.contains(&format!("0 of {n} elements not close")),
        "{out}"
    );
}

#[test]
fn add_custom_float16_npy_splits_over_all_cores() {
    // 16384 halves = 1024 blocks of 32 bytes over 48 vector cores: 16 take 22 blocks, 32 take 21.
    let d = data("add_custom", &["float16", "8", "2048"]);
    let err = run_ok(
        d.path(),
        "add_custom",
        &[
            "--input",
            "x=input/x.npy",
            "--input",
            "y=input/y.npy",
            "--output",
            "z=output/z.npy",
        ],
    );
    assert!(
        err.contains("AddCustom: block dim 48, tiling key 1"),
        "{err}"
    );
    npy_equals_golden(d.path(), "output/z.npy");
}

#[test]
fn add_custom_on_a_soc_splits_over_its_vector_cores() {
    // Ascend910B3 has 40 vector cores: the TilingFunc's GetCoreNumAiv() gives 40 blocks, and
    // the operator built for ascend910b runs on that SoC of the series.
    let d = data("add_custom", &["float16", "8", "2048"]);
    let err = run_ok(
        d.path(),
        "add_custom",
        &[
            "--product",
            "Ascend910B3",
            "--input",
            "x=input/x.npy",
            "--input",
            "y=input/y.npy",
            "--output",
            "z=output/z.npy",
        ],
    );
    assert!(
        err.contains("AddCustom: block dim 40, tiling key 1"),
        "{err}"
    );
    npy_equals_golden(d.path(), "output/z.npy");
}

#[test]
fn add_custom_float32_bin_on_310p() {
    // 3000 floats = 375 blocks over the 8 AI Cores of 310P: 7 take 47 blocks, 1 takes 46.
    let d = data("add_custom", &["float32", "3", "1000"]);
    let err = run_ok(
        d.path(),
        "add_custom",
        &[
            "--product",
            "310P",
            "--input",
            "x=input/x.bin:float32:3,1000",
            "--input",
            "y=input/y.bin:float32:3,1000",
            "--output",
            "z=output/z.bin:float32:3,1000",
        ],
    );
    assert!(
        err.contains("block dim 8, tiling key 1, workspace 2097152"),
        "{err}"
    );
    bin_equals_golden(d.path(), "output/z.bin", "float32", 3000);
}

#[test]
fn scale_custom_aligned_rows_take_tiling_key_1() {
    let d = data("scale_custom", &["float32", "16", "256", "0.5"]);
    let err = run_ok(
        d.path(),
        "scale_custom",
        &[
            "--input",
            "x=input/x.npy",
            "--output",
            "y=output/y.npy",
            "--attr",
            "scale=0.5",
        ],
    );
    assert!(
        err.contains("ScaleCustom: block dim 16, tiling key 1"),
        "{err}"
    );
    npy_equals_golden(d.path(), "output/y.npy");
}

#[test]
fn scale_custom_unaligned_rows_take_tiling_key_2() {
    // 37 halves per row is not a whole 32-byte block: DataCopyPad rows.
    let d = data("scale_custom", &["float16", "7", "37", "-1.75"]);
    let err = run_ok(
        d.path(),
        "scale_custom",
        &[
            "--input",
            "x=input/x.bin:float16:7,37",
            "--output",
            "y=output/y.bin",
            "--attr",
            "scale=-1.75",
        ],
    );
    assert!(
        err.contains("ScaleCustom: block dim 7, tiling key 2"),
        "{err}"
    );
    bin_equals_golden(d.path(), "output/y.bin", "float16", 7 * 37);
}

#[test]
fn scale_custom_default_attribute_is_one() {
    let d = data("scale_custom", &["float32", "4", "64", "1"]);
    run_ok(
        d.path(),
        "scale_custom",
        &["--input", "x=input/x.npy", "--output", "y=output/y.npy"],
    );
    npy_equals_golden(d.path(), "output/y.npy");
}

#[test]
fn col_sum_custom_uses_its_workspace_and_row_arrays() {
    // 100 rows over 48 cores (4 cores take 3 rows, 44 take 2); user workspace: 32 bytes of
    // barrier flags and 64 floats per core.
    let d = data("col_sum_custom", &["100", "64", "48"]);
    let err = run_ok(
        d.path(),
        "col_sum_custom",
        &["--input", "x=input/x.npy", "--output", "y=output/y.npy"],
    );
    assert!(
        err.contains(&format!(
            "ColSumCustom: block dim 48, tiling key 0, workspace {} bytes, tiling 520 bytes",
            16 * 1024 * 1024 + 48 * (32 + 64 * 4)
        )),
        "{err}"
    );
    npy_equals_golden(d.path(), "output/y.npy");
}

#[test]
fn col_sum_custom_bin_on_310p() {
    // InferShape makes y one row of 1024; 7 rows on 7 of the 8 cores.
    let d = data("col_sum_custom", &["7", "1024", "8"]);
    let err = run_ok(
        d.path(),
        "col_sum_custom",
        &[
            "--product",
            "310P",
            "--input",
            "x=input/x.bin:float32:7,1024",
            "--output",
            "y=output/y.bin:float32:1024",
        ],
    );
    assert!(err.contains("block dim 7"), "{err}");
    bin_equals_golden(d.path(), "output/y.bin", "float32", 1024);
}

/// Runs the operator expecting failure; returns stderr.
fn run_err(dir: &Path, op: &Path, args: &[&str]) -> String {
    let o = op_run(dir, op, args);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}\n{err}");
    err
}

#[test]
fn bad_arguments_are_clear_errors() {
    let d = data("add_custom", &["float16", "2", "32"]);
    let p = d.path();
    let add = sample("add_custom");
    let scale = sample("scale_custom");
    let err = run_err(p, &add, &["--input", "x=input/nothere.npy"]);
    assert!(
        err.contains("--input x: cannot read input/nothere.npy"),
        "{err}"
    );
    let err = run_err(p, &add, &["--input", "x=input/x.bin:float16:2,33"]);
    assert!(
        err.contains("has 128 bytes; half of shape [2, 33] needs 132"),
        "{err}"
    );
    let err = run_err(p, &add, &["--input", "x=input/x.bin"]);
    assert!(
        err.contains("is raw data: give its type and shape"),
        "{err}"
    );
    let err = run_err(
        p,
        &add,
        &[
            "--input",
            "x=input/x.npy",
            "--input",
            "y=input/y.bin:float32:2,16",
            "--output",
            "z=z.npy",
        ],
    );
    assert!(
        err.contains("AddCustom does not accept x=float16, y=float32")
            && err.contains("x=float32, y=float32"),
        "{err}"
    );
    let err = run_err(
        p,
        &add,
        &["--input", "x=input/x.npy", "--input", "w=input/y.npy"],
    );
    assert!(
        err.contains("--input w: AddCustom has no input of that name (inputs: x, y)"),
        "{err}"
    );
    let err = run_err(
        p,
        &add,
        &["--input", "x=input/x.npy", "--input", "y=input/y.npy"],
    );
    assert!(
        err.contains("output z of AddCustom is required: give it with --output z=FILE"),
        "{err}"
    );
    let two = ["--input", "x=input/x.npy", "--output", "y=y.npy"];
    let err = run_err(p, &scale, &[&two[..], &["--attr", "bogus=1"]].concat());
    assert!(
        err.contains("--attr bogus: ScaleCustom has no attribute of that name (attributes: scale)"),
        "{err}"
    );
    let err = run_err(p, &scale, &[&two[..], &["--attr", "scale=abc"]].concat());
    assert!(
        err.contains("--attr scale (float): 'abc' is not a number"),
        "{err}"
    );
    let err = run_err(p, &add, &["--product", "Z9", "--input", "x=input/x.npy"]);
    assert!(err.contains("unknown product Z9"), "{err}");
    // ScaleCustom is not configured for Ascend910.
    let err = run_err(p, &scale, &[&two[..], &["--product", "910"]].concat());
    assert!(
        err.contains(
            "ScaleCustom is not configured for ascend910 (AICore().AddConfig has ascend910b"
        ),
        "{err}"
    );
}

#[test]
fn tiling_func_failure_is_reported() {
    // 2 x 15 halves are not whole 32-byte blocks: AddCustom's TilingFunc returns GRAPH_FAILED.
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("x.bin"), [0u8; 60]).unwrap();
    let x = "x=x.bin:float16:2,15";
    let err = run_err(
        d.path(),
        &sample("add_custom"),
        &[
            "--input",
            x,
            "--input",
            "y=x.bin:float16:2,15",
            "--output",
            "z=z.bin",
        ],
    );
    assert!(
        err.contains(
            "the TilingFunc of AddCustom failed: it returned 4294967295 (not GRAPH_SUCCESS)"
        ),
        "{err}"
    );
}

/// An operator whose TilingFunc misbehaves as its `mode` attribute says.
const BAD_HOST: &str = r#"
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BadTiling)
TILING_DATA_FIELD_DEF(uint32_t, a);
TILING_DATA_FIELD_DEF_ARR(uint16_t, 3, b);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(BadOp, BadTiling)

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    int64_t mode = *context->GetAttrs()->GetInt(0);
    BadTiling t;
    if (mode != 0) context->SetBlockDim(1);
    if (mode != 2) t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(mode == 1 || mode == 2 ? 4 : t.GetDataSize());
    if (mode == 3) (void)context->GetAttrs()->GetFloat(0);
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class BadOp : public OpDef {
public:
    explicit BadOp(const char* name) : OpDef(name) {
        this->Input("x").DataType({ge::DT_FLOAT});
        this->Output("y").DataType({ge::DT_FLOAT});
        this->Attr("mode").Int();
        this->AICore().SetTiling(optiling::TilingFunc);
    }
};
OP_ADD(BadOp);
}
"#;

#[test]
fn misbehaving_tiling_funcs_are_reported() {
    let d = tempfile::tempdir().unwrap();
    let op = d.path().join("bad_op");
    std::fs::create_dir_all(op.join("op_host")).unwrap();
    std::fs::create_dir_all(op.join("op_kernel")).unwrap();
    std::fs::write(op.join("op_host/bad_op.cpp"), BAD_HOST).unwrap();
    std::fs::write(op.join("op_kernel/other.cpp"), "void other_op() {}\n").unwrap();
    std::fs::write(d.path().join("x.bin"), [0u8; 32]).unwrap();
    let base = ["--input", "x=x.bin:float32:8", "--output", "y=y.bin"];
    let with = |a: &'static str| [&base[..], &["--attr", a]].concat();
    let err = run_err(d.path(), &op, &base);
    assert!(
        err.contains(
            "attribute mode of BadOp (int) has no default: give it with --attr mode=VALUE"
        ),
        "{err}"
    );
    let err = run_err(d.path(), &op, &with("mode=0"));
    assert!(
        err.contains(
            "the TilingFunc of BadOp set no block dim (call context->SetBlockDim(n) with n > 0)"
        ),
        "{err}"
    );
    // BadTiling is a uint32_t and three uint16_t: 10 bytes, 12 with the struct's alignment.
    let err = run_err(d.path(), &op, &with("mode=1"));
    assert!(
        err.contains(
            "the TilingFunc of BadOp wrote tiling bytes up to offset 12 but declared 4 bytes"
        ),
        "{err}"
    );
    let err = run_err(d.path(), &op, &with("mode=2"));
    assert!(
        err.contains("the TilingFunc of BadOp declared 4 tiling bytes, but its tiling struct BadTiling has 12"),
        "{err}"
    );
    let err = run_err(d.path(), &op, &with("mode=3"));
    assert!(
        err.contains("GetAttrs()->GetFloat(0): attribute 'mode' is int, not float"),
        "{err}"
    );
    let err = run_err(d.path(), &op, &with("mode=4"));
    assert!(
        err.contains(
            "op_kernel defines no kernel entry bad_op(…) (the operator type in snake case)"
        ),
        "{err}"
    );
}

/// A tiling struct with a nested struct, an array and mixed alignments; the kernel copies every
/// field (and what the type macros and tiling key say) into its float output.
const LAYOUT_HOST: &str = r#"
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(InnerTiling)
TILING_DATA_FIELD_DEF(uint8_t, tag);
TILING_DATA_FIELD_DEF(int64_t, big);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(InnerTilingOp, InnerTiling)

BEGIN_TILING_DATA_DEF(LayoutTiling)
TILING_DATA_FIELD_DEF(uint16_t, h);
TILING_DATA_FIELD_DEF_STRUCT(InnerTiling, inner);
TILING_DATA_FIELD_DEF_ARR(int16_t, 3, arr);
TILING_DATA_FIELD_DEF(float, f);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LayoutOp, LayoutTiling)

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    LayoutTiling t;
    t.set_h(7);
    t.inner.set_tag(9);
    t.inner.set_big(-5000000000LL);
    int16_t arr[3] = {1, -2, 3};
    t.set_arr(arr);
    t.set_f(*context->GetAttrs()->GetFloat(0));
    context->SetBlockDim(1);
    context->SetTilingKey(3);
    std::cout << "TilingFunc: struct of " << t.GetDataSize() << " bytes" << std::endl;
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class LayoutOp : public OpDef {
public:
    explicit LayoutOp(const char* name) : OpDef(name) {
        this->Input("x").DataType({ge::DT_INT32});
        this->Output("y").DataType({ge::DT_FLOAT});
        this->Attr("f").AttrType(OPTIONAL).Float(0.25f);
        this->AICore().SetTiling(optiling::TilingFunc);
    }
};
OP_ADD(LayoutOp);
}
"#;

const LAYOUT_KERNEL: &str = r#"
#include "kernel_operator.h"

static_assert(std::is_same<DTYPE_X, int32_t>::value && std::is_same<DTYPE_Y, float>::value, "type macros");

extern "C" __global__ __aicore__ void layout_op(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    GET_TILING_DATA_WITH_STRUCT(LayoutTiling, again, tiling);
    AscendC::GlobalTensor<float> out;
    out.SetGlobalBuffer((__gm__ float*)y, 8);
    out.SetValue(0, t.h);
    out.SetValue(1, t.inner.tag);
    out.SetValue(2, static_cast<float>(t.inner.big / 1000000000));
    for (int i = 0; i < 3; ++i) out.SetValue(3 + i, again.arr[i]);
    out.SetValue(6, t.f);
#if ORIG_DTYPE_X == DT_INT32 && ORIG_DTYPE_Y == DT_FLOAT && FORMAT_X == FORMAT_ND
    out.SetValue(7, TILING_KEY_IS(3) ? 11.0f : 0.0f);
#endif
}
"#;

#[test]
fn nested_struct_array_and_type_macros_reach_the_kernel() {
    let d = tempfile::tempdir().unwrap();
    let op = d.path().join("layout_op");
    std::fs::create_dir_all(op.join("op_host")).unwrap();
    std::fs::create_dir_all(op.join("op_kernel")).unwrap();
    std::fs::write(op.join("op_host/layout_op.cpp"), LAYOUT_HOST).unwrap();
    std::fs::write(op.join("op_kernel/layout_op.cpp"), LAYOUT_KERNEL).unwrap();
    std::fs::write(d.path().join("x.bin"), [0u8; 32]).unwrap();
    let o = op_run(
        d.path(),
        &op,
        &[
            "-v",
            "--input",
            "x=x.bin:int32:8",
            "--output",
            "y=y.bin:float32:8",
            "--attr",
            "f=2.5",
        ],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    // h at 0, inner (8-aligned, 16 bytes) at 8, arr at 24, f at 32: 36 bytes, 40 with alignment.
    assert!(out.contains("TilingFunc: struct of 40 bytes"), "{out}");
    assert!(
        err.contains("tiling key 3, workspace 0 bytes, tiling 40 bytes (LayoutTiling)"),
        "{err}"
    );
    let y: Vec<f32> = std::fs::read(d.path().join("y.bin"))
        .unwrap()
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(y, [7.0, 9.0, -5.0, 1.0, -2.0, 3.0, 2.5, 11.0]);
}
