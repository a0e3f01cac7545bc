//! Tiling-template programming (`ascendc/host_api/tiling/template_argument.h`): the tiling-key
//! encoding against every worked example of the vendor documentation (host programs built with
//! g++ against `include/`), and `ascendc op run` on `samples/ops/tpl_add_relu` — a template
//! kernel entry (`typename`, two UINTs, a bool) launched as the instance its tiling key selects,
//! compared bit-exactly with numpy — with its errors: a combination the SEL does not allow, a key
//! that decodes to no combination, a template entry without a tiling template.

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

/// Builds `main.cpp` (host side of the header) and runs it: status, stdout, stderr.
fn host_program(source: &str) -> (bool, String, String) {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("main.cpp"), source).unwrap();
    let exe = tmp.path().join("main");
    let o = Command::new("g++")
        .args(["-std=c++17", "-Wall", "-Wextra", "-Werror"])
        .arg(format!("-I{}", repo().join("include").display()))
        .arg(tmp.path().join("main.cpp"))
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("g++ runs");
    assert!(o.status.success(), "{:?}", text(&o));
    let o = Command::new(&exe).output().expect("the program runs");
    let (out, err) = text(&o);
    (o.status.success(), out, err)
}

const PRELUDE: &str = "#include <cstdio>\n#include <iostream>\n#include \"graph/c_types.h\"\n\
#include \"ascendc/host_api/tiling/template_argument.h\"\n";

/// The guide's AddCustomTemplate header (多分支策略, Tiling模板编程).
const ADD_CUSTOM_TEMPLATE: &str = "ASCENDC_TPL_ARGS_DECL(
    AddCustomTemplate,
    ASCENDC_TPL_DATATYPE_DECL(D_T_X, C_DT_FLOAT16, C_DT_FLOAT),
    ASCENDC_TPL_DATATYPE_DECL(D_T_Y, C_DT_FLOAT16, C_DT_FLOAT),
    ASCENDC_TPL_DATATYPE_DECL(D_T_Z, C_DT_FLOAT16, C_DT_FLOAT),
    ASCENDC_TPL_UINT_DECL(TILE_NUM, ASCENDC_TPL_8_BW,
                          ASCENDC_TPL_UI_LIST, 1, 8),
    ASCENDC_TPL_BOOL_DECL(IS_SPLIT, 0, 1),
);
ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT16),
        ASCENDC_TPL_DATATYPE_SEL(D_T_Y, C_DT_FLOAT16),
        ASCENDC_TPL_DATATYPE_SEL(D_T_Z, C_DT_FLOAT16),
        ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_LIST, 1, 8),
        ASCENDC_TPL_BOOL_SEL(IS_SPLIT, 0, 1),
    ),
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT),
        ASCENDC_TPL_DATATYPE_SEL(D_T_Y, C_DT_FLOAT),
        ASCENDC_TPL_DATATYPE_SEL(D_T_Z, C_DT_FLOAT),
        ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_LIST, 1, 8),
        ASCENDC_TPL_BOOL_SEL(IS_SPLIT, 0, 1),
    ),
);
";

#[test]
fn guide_example_keys_and_the_mixed_dtype_combination() {
    // Data types 8 bits each from bit 0, TILE_NUM as its index in {1, 8} (8 bits), IS_SPLIT 1 bit.
    let src = format!(
        "{PRELUDE}{ADD_CUSTOM_TEMPLATE}
int main() {{
    uint32_t h = C_DT_FLOAT16, f = C_DT_FLOAT, one = 1, zero = 0;
    std::printf(\"%llu %llu\\n\", (unsigned long long)GET_TPL_TILING_KEY(h, h, h, one, zero),
                (unsigned long long)GET_TPL_TILING_KEY(f, f, f, 8, 1));
    ascendc_host::tpl::Report(std::cout, \"AddCustomTemplate\", GET_TPL_TILING_KEY(f, f, f, 8, true));
    std::fflush(stdout);
    GET_TPL_TILING_KEY(h, f, h, one, zero);
}}
"
    );
    let (ok, out, err) = host_program(&src);
    assert_eq!(
        out,
        format!(
            "{} {}\ntpl_arg D_T_X type 0\ntpl_arg D_T_Y type 0\ntpl_arg D_T_Z type 0\n\
tpl_arg TILE_NUM value 8\ntpl_arg IS_SPLIT value 1\n",
            1 | 1 << 8 | 1 << 16,
            1u64 << 24 | 1u64 << 32
        )
    );
    // The guide: changing only dtypeY to C_DT_FLOAT matches no combination.
    assert!(!ok);
    assert_eq!(
        err.trim_end(),
        "error: GET_TPL_TILING_KEY of AddCustomTemplate: D_T_X = 1 (C_DT_FLOAT16), D_T_Y = 0 (C_DT_FLOAT), \
D_T_Z = 1 (C_DT_FLOAT16), TILE_NUM = 1, IS_SPLIT = 0 is not a combination ASCENDC_TPL_SEL selects \
(each value is in some combination, not all of them in one)"
    );
}

#[test]
fn compile_acceleration_example_with_custom_dtype_output_ref_and_mixed_uint() {
    // 编译加速: a custom DTYPE, an ASCENDC_TPL_OUTPUT reference, a UI_MIX declaration selected
    // with UI_LIST, DETERMINISTIC and KERNEL_TYPE entries (no key bits).
    let src = format!(
        "{PRELUDE}#define ADD_TPL_FP16 10
#define ADD_TPL_FP32 20
ASCENDC_TPL_ARGS_DECL(AddCustomTemplateNativeDtype,
    ASCENDC_TPL_DATATYPE_DECL(D_T_X, C_DT_FLOAT, C_DT_FLOAT16, ASCENDC_TPL_INPUT(0)),
    ASCENDC_TPL_DTYPE_DECL(D_T_Y, ADD_TPL_FP16, ADD_TPL_FP32),
    ASCENDC_TPL_DATATYPE_DECL(D_T_Z, C_DT_FLOAT, C_DT_FLOAT16, ASCENDC_TPL_OUTPUT(0)),
    ASCENDC_TPL_UINT_DECL(TILE_NUM, ASCENDC_TPL_8_BW, ASCENDC_TPL_UI_MIX, 2, 0, 2, 3, 5, 10, 12, 13, 9, 8),
    ASCENDC_TPL_BOOL_DECL(IS_SPLIT, 0, 1),
);
ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(
    ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT),
    ASCENDC_TPL_DTYPE_SEL(D_T_Y, ADD_TPL_FP32),
    ASCENDC_TPL_DATATYPE_SEL(D_T_Z, C_DT_FLOAT),
    ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_LIST, 1, 8),
    ASCENDC_TPL_BOOL_SEL(IS_SPLIT, 0, 1),
    ASCENDC_TPL_DETERMINISTIC_SEL(true),
    ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
    ),
    ASCENDC_TPL_ARGS_SEL(
    ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT16),
    ASCENDC_TPL_DTYPE_SEL(D_T_Y, ADD_TPL_FP16),
    ASCENDC_TPL_DATATYPE_SEL(D_T_Z, C_DT_FLOAT16),
    ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_LIST, 1, 8),
    ASCENDC_TPL_BOOL_SEL(IS_SPLIT, 0, 1),
    ASCENDC_TPL_DETERMINISTIC_SEL(false),
    ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
    ),
);
int main() {{
    std::printf(\"%llu %llu\\n\", (unsigned long long)GET_TPL_TILING_KEY(C_DT_FLOAT, ADD_TPL_FP32, C_DT_FLOAT, 8, 1),
                (unsigned long long)GET_TPL_TILING_KEY(C_DT_FLOAT16, ADD_TPL_FP16, C_DT_FLOAT16, 1, 0));
    ascendc_host::tpl::Report(std::cout, \"AddCustomTemplateNativeDtype\", 16845313);
}}
"
    );
    let (ok, out, err) = host_program(&src);
    assert!(ok, "{err}");
    // TILE_NUM 8 is index 10 of {0, 1, 2, 3, 4, 5, 10, 12, 13, 9, 8}, 1 is index 1.
    let first = 20u64 << 8 | 10 << 24 | 1 << 32;
    let second = 1 | 10 << 8 | 1 << 16 | 1 << 24;
    assert_eq!(second, 16845313);
    assert_eq!(
        out,
        format!(
            "{first} {second}\ntpl_arg D_T_X type 1\ntpl_arg D_T_Y value 10\ntpl_arg D_T_Z type 1\n\
tpl_arg TILE_NUM value 1\ntpl_arg IS_SPLIT value 0\n"
        )
    );
}

#[test]
fn uint_declaration_modes_of_the_reference() {
    // 模板参数定义: RANGE 2,0,2,3,5 = {0..5}; LIST 10,12,13,9,8,7,6; MIX 2,0,2,3,5,10,12,13,9,8 =
    // {0..5, 10, 12, 13, 9, 8}. A UINT encodes as the index of its value.
    let keys = |mode: &str, values: &[u64]| {
        let list: Vec<String> = values.iter().map(u64::to_string).collect();
        let src = format!(
            "{PRELUDE}ASCENDC_TPL_ARGS_DECL(Op, ASCENDC_TPL_UINT_DECL(V, ASCENDC_TPL_4_BW, {mode}));
int main() {{ for (unsigned v : {{{}}}) std::printf(\"%llu \", (unsigned long long)GET_TPL_TILING_KEY(v)); }}
",
            list.join(", ")
        );
        let (ok, out, err) = host_program(&src);
        assert!(ok, "{mode}: {err}");
        out
    };
    assert_eq!(
        keys("ASCENDC_TPL_UI_RANGE, 2, 0, 2, 3, 5", &[0, 1, 2, 3, 4, 5]),
        "0 1 2 3 4 5 "
    );
    assert_eq!(
        keys(
            "ASCENDC_TPL_UI_LIST, 10, 12, 13, 9, 8, 7, 6",
            &[10, 12, 13, 9, 8, 7, 6]
        ),
        "0 1 2 3 4 5 6 "
    );
    assert_eq!(
        keys(
            "ASCENDC_TPL_UI_MIX, 2, 0, 2, 3, 5, 10, 12, 13, 9, 8",
            &[0, 5, 10, 12, 13, 9, 8]
        ),
        "0 5 6 7 8 9 10 "
    );
    // A value the declaration does not have.
    let (ok, _, err) = host_program(&format!(
        "{PRELUDE}ASCENDC_TPL_ARGS_DECL(Op, ASCENDC_TPL_UINT_DECL(V, ASCENDC_TPL_4_BW, ASCENDC_TPL_UI_LIST, 10, 12));
int main() {{ (void)GET_TPL_TILING_KEY(0u); }}
"
    ));
    assert!(!ok);
    assert!(
        err.contains("GET_TPL_TILING_KEY of Op: V = 0 is not a value ASCENDC_TPL_UINT_DECL(V) declares (10, 12)"),
        "{err}"
    );
}

#[test]
fn malformed_declarations_are_named() {
    let run = |body: &str| {
        let (ok, _, err) = host_program(&format!(
            "{PRELUDE}{body}\nint main() {{ (void)GET_TPL_TILING_KEY(1u, 1u); }}\n"
        ));
        assert!(!ok);
        err
    };
    let err = run(
        "ASCENDC_TPL_ARGS_DECL(Op, ASCENDC_TPL_UINT_DECL(A, 1, ASCENDC_TPL_UI_LIST, 1, 2, 3),
        ASCENDC_TPL_BOOL_DECL(B, 0, 1));",
    );
    assert!(
        err.contains("ASCENDC_TPL_UINT_DECL(A) has 3 values, more than its 1 bits can index"),
        "{err}"
    );
    let err = run(
        "ASCENDC_TPL_ARGS_DECL(Op, ASCENDC_TPL_UINT_DECL(A, 4, ASCENDC_TPL_UI_RANGE, 2, 0, 3),
        ASCENDC_TPL_BOOL_DECL(B, 0, 1));",
    );
    assert!(
        err.contains("announces 2 ranges but gives 2 values"),
        "{err}"
    );
    let err = run(
        "ASCENDC_TPL_ARGS_DECL(Op, ASCENDC_TPL_UINT_DECL(A, 4, ASCENDC_TPL_UI_LIST, 1),
        ASCENDC_TPL_BOOL_DECL(B, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(A, ASCENDC_TPL_UI_LIST, 1)));",
    );
    assert!(
        err.contains("ASCENDC_TPL_SEL of Op, combination 1 does not select B"),
        "{err}"
    );
    let err = run("ASCENDC_TPL_ARGS_DECL(Op, ASCENDC_TPL_UINT_DECL(A, 4, ASCENDC_TPL_UI_LIST, 1),
        ASCENDC_TPL_BOOL_DECL(B, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(A, ASCENDC_TPL_UI_LIST, 2), ASCENDC_TPL_BOOL_SEL(B, 1)));");
    assert!(
        err.contains("combination 1: A = 2 is not a value its declaration has (1)"),
        "{err}"
    );
    let err =
        run("ASCENDC_TPL_ARGS_DECL(Op, ASCENDC_TPL_UINT_DECL(A, 4, ASCENDC_TPL_UI_LIST, 1));");
    assert!(
        err.contains("2 values for the 1 template parameters of ASCENDC_TPL_ARGS_DECL(Op): A"),
        "{err}"
    );
}

/// `ascendc op run <op> ARGS…` in `dir`.
fn op_run(dir: &Path, op: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["op", "run"])
        .arg(op)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("ascendc runs")
}

fn sample() -> PathBuf {
    repo().join("samples/ops/tpl_add_relu")
}

/// A directory with the data of `gen_data.py DTYPE ROWS COLS RELU`.
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
    "y=input/y.npy",
    "--output",
    "z=output/z.npy",
];

/// Runs `op` on the data in `dir` with `extra` arguments; the `-v` line, or the error.
fn run(dir: &Path, op: &Path, extra: &[&str]) -> Result<String, String> {
    let mut args = vec!["-v"];
    args.extend_from_slice(&IO);
    args.extend_from_slice(extra);
    let o = op_run(dir, op, &args);
    let (out, err) = text(&o);
    if o.status.success() {
        Ok(err)
    } else {
        Err(format!("{out}{err}"))
    }
}

/// The output equals the golden exactly: type, shape and every byte.
fn equals_golden(dir: &Path) {
    let o = Command::new("python3")
        .args([
            "-c",
            "import numpy as np\n\
a = np.load('output/z.npy'); g = np.load('output/golden.npy')\n\
assert a.dtype == g.dtype and a.shape == g.shape, (a.dtype, a.shape, g.dtype, g.shape)\n\
bad = np.flatnonzero(a.view(np.uint8) != g.view(np.uint8))\n\
assert bad.size == 0, ('differ at bytes', bad[:10])\n\
print('PASS', a.size)\n",
        ])
        .current_dir(dir)
        .output()
        .expect("python3 runs");
    let (out, err) = text(&o);
    assert!(
        o.status.success() && out.starts_with("PASS"),
        "{out}\n{err}"
    );
}

/// Key of TplAddRelu: D_T_X (8 bits), BUFFER_NUM index in {1, 2} (2 bits), TILE_LEN index in
/// {64, 128, 256, 512} (4 bits), RELU (1 bit).
fn key(dtype: u64, buffers: u64, tile: u64, relu: u64) -> u64 {
    let tile_index = [64, 128, 256, 512].iter().position(|&t| t == tile).unwrap() as u64;
    dtype | (buffers - 1) << 8 | tile_index << 10 | relu << 14
}

#[test]
fn float16_relu_double_buffered_tiles_of_512() {
    let d = data(&["float16", "8", "512", "1"]);
    let err = run(d.path(), &sample(), &["--attr", "relu=true"]).unwrap();
    assert_eq!(key(1, 2, 512, 1), 19713);
    assert!(
        err.contains("TplAddRelu: block dim 8, tiling key 19713,"),
        "{err}"
    );
    equals_golden(d.path());
}

#[test]
fn float32_single_buffered_tiles_of_64_on_310p() {
    // 960 floats: 15 tiles of 64 over the 8 AI Cores of 310P (2 each, 1 on the last).
    let d = data(&["float32", "3", "320", "0"]);
    let err = run(d.path(), &sample(), &["--product", "310P"]).unwrap();
    assert!(
        err.contains(&format!("block dim 8, tiling key {},", key(0, 1, 64, 0))),
        "{err}"
    );
    equals_golden(d.path());
}

#[test]
fn float16_without_relu_and_int32_with_relu() {
    let d = data(&["float16", "64", "128", "0"]);
    let err = run(d.path(), &sample(), &["--attr", "relu=false"]).unwrap();
    assert!(
        err.contains(&format!("tiling key {},", key(1, 2, 512, 0))),
        "{err}"
    );
    equals_golden(d.path());
    let d = data(&["int32", "4", "96", "1"]);
    let err = run(d.path(), &sample(), &["--attr", "relu=1"]).unwrap();
    assert!(
        err.contains(&format!("block dim 3, tiling key {},", key(3, 1, 128, 1))),
        "{err}"
    );
    equals_golden(d.path());
}

#[test]
fn a_combination_the_sel_does_not_allow_is_refused_by_the_tiling_func() {
    // int32 is selected single-buffered with tiles up to 256 only.
    let d = data(&["int32", "64", "64", "0"]);
    let err = run(d.path(), &sample(), &[]).unwrap_err();
    assert!(
        err.contains(
            "error: ASCENDC_TPL_SEL_PARAM of TplAddRelu: D_T_X = 3 (C_DT_INT32), BUFFER_NUM = 2, TILE_LEN = 512, \
RELU = 0 is not a combination ASCENDC_TPL_SEL selects"
        ),
        "{err}"
    );
    // int16 is declared but in no combination.
    let d = data(&["int16", "4", "64", "0"]);
    let err = run(d.path(), &sample(), &[]).unwrap_err();
    assert!(
        err.contains(
            "ASCENDC_TPL_SEL_PARAM of TplAddRelu: D_T_X = 6 (C_DT_INT16) is in no ASCENDC_TPL_ARGS_SEL combination \
(they select D_T_X = 0 (C_DT_FLOAT), 1 (C_DT_FLOAT16), 3 (C_DT_INT32))"
        ),
        "{err}"
    );
}

/// A copy of the sample whose tiling source has `from` replaced by `to`.
fn variant(from: &str, to: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for sub in ["op_host", "op_kernel"] {
        std::fs::create_dir(tmp.path().join(sub)).unwrap();
        for f in std::fs::read_dir(sample().join(sub)).unwrap() {
            let f = f.unwrap().path();
            let mut t = std::fs::read_to_string(&f).unwrap();
            if f.ends_with("tpl_add_relu_tiling.cpp") {
                assert!(t.contains(from));
                t = t.replace(from, to);
            }
            std::fs::write(tmp.path().join(sub).join(f.file_name().unwrap()), t).unwrap();
        }
    }
    tmp
}

#[test]
fn a_template_entry_needs_a_key_of_a_selected_combination() {
    let sel = "ASCENDC_TPL_SEL_PARAM(context, dtype, bufferNum, tileLen, relu);";
    let d = data(&["float16", "8", "512", "1"]);
    // Data type field 1 + 4 = 5: not a declared data type.
    let op = variant(
        sel,
        "context->SetTilingKey(GET_TPL_TILING_KEY(dtype, bufferNum, tileLen, relu) + 4);",
    );
    let err = run(d.path(), op.path(), &["--attr", "relu=1"]).unwrap_err();
    assert!(
        err.contains("the kernel entry tpl_add_relu in ")
            && err.contains(
                "is a function template: its arguments come from the tiling key, but tiling key 19717 holds \
D_T_X = 5, not a declared value (0 (C_DT_FLOAT), 1 (C_DT_FLOAT16), 3 (C_DT_INT32), 6 (C_DT_INT16))"
            ),
        "{err}"
    );
    // No tiling template in op_host at all.
    let op = variant(sel, "context->SetTilingKey(1);");
    std::fs::write(
        op.path().join("op_host/tpl_add_relu_tiling.cpp"),
        std::fs::read_to_string(op.path().join("op_host/tpl_add_relu_tiling.cpp"))
            .unwrap()
            .replace("#include \"../op_kernel/tpl_add_relu_tiling_key.h\"\n", ""),
    )
    .unwrap();
    let err = run(d.path(), op.path(), &[]).unwrap_err();
    assert!(
        err.contains("is a function template, but op_host declares no tiling template"),
        "{err}"
    );
}
