//! Template kernel entries (tiling-template programming, `ASCENDC_TPL_*`): when `op_kernel`
//! defines the kernel entry only as a function template, `ascendc op run` launches the instance
//! the tiling key selects. The host program decodes the key with the operator's
//! `ASCENDC_TPL_ARGS_DECL` / `ASCENDC_TPL_SEL` (`tpl_arg` / `tpl_error` lines of its report); the
//! kernel build then compiles, in place of the source defining the template, a generated one
//! that includes it and defines the plain entry `kernel(GM_ADDR…)` the launcher declares as a
//! call of `kernel<args…>` — data types as their C++ type (`ascendc_tpl::TypeFromId`), other
//! parameters as their value.

use std::path::{Path, PathBuf};

/// One template argument the host program reports.
#[derive(Debug, Clone, PartialEq)]
enum Arg {
    /// A data type (`ge::DataType` number).
    Type(u64),
    /// A UINT, BOOL, FORMAT, custom DTYPE or kernel-type value.
    Value(u64),
}

impl Arg {
    /// The C++ template argument.
    fn cpp(&self) -> String {
        match self {
            Arg::Type(id) => format!("::ascendc_tpl::TypeFromId<{id}>::type"),
            Arg::Value(v) if *v <= i32::MAX as u64 => v.to_string(),
            Arg::Value(v) => format!("{v}ULL"),
        }
    }
}

/// The template arguments the report decodes the tiling key to: `None` when op_host declares no
/// tiling template, an error when the key is not one of its selected combinations.
fn report_args(report: &str) -> Option<Result<Vec<(String, Arg)>, String>> {
    let mut args = Vec::new();
    for line in report.lines() {
        if let Some(why) = line.strip_prefix("tpl_error ") {
            return Some(Err(why.to_string()));
        }
        let mut w = line.split_whitespace();
        if w.next() != Some("tpl_arg") {
            continue;
        }
        let (name, kind, value) = (w.next(), w.next(), w.next().and_then(|v| v.parse().ok()));
        let arg = match (kind, value) {
            (Some("type"), Some(v)) => Arg::Type(v),
            (Some("value"), Some(v)) => Arg::Value(v),
            _ => {
                return Some(Err(format!(
                    "unreadable line from the host program: {line}"
                )))
            }
        };
        args.push((name.unwrap_or_default().to_string(), arg));
    }
    (!args.is_empty()).then_some(Ok(args))
}

/// `text` with comments blanked out (string and character literals kept).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            let end = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
            out.extend(b[i..end].iter().map(|&c| if c == b'\n' { c } else { b' ' }));
            i = end;
        } else if b[i] == b'"' || b[i] == b'\'' {
            let q = b[i];
            out.push(q);
            i += 1;
            while i < b.len() && b[i] != q && b[i] != b'\n' {
                if b[i] == b'\\' && i + 1 < b.len() {
                    out.push(b[i]);
                    i += 1;
                }
                out.push(b[i]);
                i += 1;
            }
            if i < b.len() {
                out.push(b[i]);
                i += 1;
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// True when bytes `at..at + len` of `b` are a whole identifier (no identifier character on
/// either side).
fn whole(b: &[u8], at: usize, len: usize) -> bool {
    (at == 0 || !is_ident(b[at - 1])) && !b.get(at + len).is_some_and(|&c| is_ident(c))
}

/// True when `word` occurs in `text` as a whole identifier.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word)
        .any(|(i, _)| whole(text.as_bytes(), i, word.len()))
}

/// The index just past the bracket closing the one at `open` (`<>` or `()`, nested).
fn closing(b: &[u8], open: usize) -> Option<usize> {
    let (o, c) = (b[open], if b[open] == b'<' { b'>' } else { b')' });
    let mut depth = 0usize;
    let mut parens = 0usize;
    for (k, &ch) in b.iter().enumerate().skip(open) {
        match ch {
            b'(' if o == b'<' => parens += 1,
            b')' if o == b'<' => parens = parens.saturating_sub(1),
            _ if ch == o && parens == 0 => depth += 1,
            _ if ch == c && parens == 0 => {
                depth -= 1;
                if depth == 0 {
                    return Some(k + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// A `__global__` declaration of the kernel entry.
#[derive(Debug, PartialEq)]
struct EntryDecl {
    /// Declared as a function template.
    template: bool,
    /// What precedes the name after the template head (`__global__ __aicore__ void`).
    specifiers: String,
    /// The number of parameters.
    params: usize,
}

/// The `__global__` declarations of `kernel` in `text`.
fn entry_decls(text: &str, kernel: &str) -> Vec<EntryDecl> {
    let code = code_only(text);
    let b = code.as_bytes();
    let mut found = Vec::new();
    for (at, _) in code.match_indices(kernel) {
        let after = at + kernel.len();
        if !whole(b, at, kernel.len()) {
            continue;
        }
        let Some(open) = code[after..]
            .find(|c: char| !c.is_whitespace())
            .map(|k| after + k)
            .filter(|&k| b[k] == b'(')
        else {
            continue;
        };
        let start = code[..at].rfind([';', '{', '}']).map_or(0, |k| k + 1);
        let prefix: String = code[start..at]
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n");
        if !has_word(&prefix, "__global__") {
            continue;
        }
        let template = has_word(&prefix, "template");
        let rest = match prefix.find('<').filter(|_| template) {
            Some(lt) => closing(prefix.as_bytes(), lt).map_or("", |end| &prefix[end..]),
            None => &prefix,
        };
        let specifiers = rest.replace("extern \"C\"", " ");
        let Some(close) = closing(b, open) else {
            continue;
        };
        let inside = code[open + 1..close - 1].trim();
        let params = if inside.is_empty() || inside == "void" {
            0
        } else {
            let mut depth = 0i32;
            1 + inside
                .bytes()
                .filter(|&c| {
                    match c {
                        b'(' | b'<' | b'[' | b'{' => depth += 1,
                        b')' | b'>' | b']' | b'}' => depth -= 1,
                        _ => {}
                    }
                    c == b',' && depth == 0
                })
                .count()
        };
        found.push(EntryDecl {
            template,
            specifiers: specifiers.split_whitespace().collect::<Vec<_>>().join(" "),
            params,
        });
    }
    found
}

/// The generated source: `source` included, then the entry `kernel` calling `kernel<args>`.
fn entry_source(source: &Path, kernel: &str, decl: &EntryDecl, args: &[(String, Arg)]) -> String {
    let params: Vec<String> = (0..decl.params).map(|i| format!("GM_ADDR a{i}")).collect();
    let names: Vec<String> = (0..decl.params).map(|i| format!("a{i}")).collect();
    let targs: Vec<String> = args.iter().map(|(_, a)| a.cpp()).collect();
    let shown: Vec<String> = args
        .iter()
        .map(|(n, a)| match a {
            Arg::Type(id) => format!("{n}=C_DT {id}"),
            Arg::Value(v) => format!("{n}={v}"),
        })
        .collect();
    format!(
        "// Generated by `ascendc op run`: the kernel entry as the template instance the tiling key selects ({}).\n\
#include {:?}\n#include \"ascendc/host_api/tiling/template_argument.h\"\n\n\
extern \"C\" {} {kernel}({}) {{\n    {kernel}<{}>({});\n}}\n",
        shown.join(", "),
        source.display().to_string(),
        decl.specifiers,
        params.join(", "),
        targs.join(", "),
        names.join(", ")
    )
}

/// When the kernel entry `kernel` is defined only as a function template: replaces the source in
/// `sources` that defines it with a generated one in `dir` (see the module documentation) and
/// returns the compiler flag that keeps the original's directory on the include path.
pub fn instantiate(
    sources: &mut [PathBuf],
    kernel: &str,
    report: &str,
    dir: &Path,
) -> Result<Option<String>, String> {
    let mut template = None;
    for (i, s) in sources.iter().enumerate() {
        let text =
            std::fs::read_to_string(s).map_err(|e| format!("cannot read {}: {e}", s.display()))?;
        for d in entry_decls(&text, kernel) {
            if !d.template {
                return Ok(None);
            }
            template.get_or_insert((i, d));
        }
    }
    let Some((i, decl)) = template else {
        return Ok(None);
    };
    let source = &sources[i];
    let args = match report_args(report) {
        Some(Ok(args)) => args,
        Some(Err(why)) => {
            return Err(format!(
                "the kernel entry {kernel} in {} is a function template: its arguments come from the tiling key, but {why}",
                source.display()
            ))
        }
        None => {
            return Err(format!(
                "the kernel entry {kernel} in {} is a function template, but op_host declares no tiling template \
(ASCENDC_TPL_ARGS_DECL / ASCENDC_TPL_SEL, ascendc/host_api/tiling/template_argument.h) to select its arguments",
                source.display()
            ))
        }
    };
    let original = std::fs::canonicalize(source).unwrap_or_else(|_| source.clone());
    let generated = dir.join(format!("{kernel}_tpl_entry.cpp"));
    std::fs::write(&generated, entry_source(&original, kernel, &decl, &args))
        .map_err(|e| format!("cannot write {}: {e}", generated.display()))?;
    let include = original.parent().map(|d| format!("-I{}", d.display()));
    sources[i] = generated;
    Ok(include)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_lines_parse() {
        let r = "op X\ntiling_key 5\ntpl_arg D_T_X type 27\ntpl_arg TILE value 8\ntpl_arg BIG value 4000000000\n";
        let args = report_args(r).unwrap().unwrap();
        let cpp: Vec<String> = args.iter().map(|(_, a)| a.cpp()).collect();
        assert_eq!(
            cpp,
            ["::ascendc_tpl::TypeFromId<27>::type", "8", "4000000000ULL"]
        );
        assert!(report_args("op X\ntiling_key 5\n").is_none());
        assert_eq!(
            report_args("tpl_error key 9 is bad\n"),
            Some(Err("key 9 is bad".to_string()))
        );
    }

    #[test]
    fn template_entries_are_found() {
        let src = "#include \"k.h\"\n// void acos(int) __global__\n/* template */\n\
template <typename D_T_X, int N = (3 > 2)>\n__global__ __aicore__ void acos(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR t)\n{\n\
    acos<D_T_X, N>(x, y, w, t);\n}\n";
        let d = entry_decls(src, "acos");
        assert_eq!(
            d,
            [EntryDecl {
                template: true,
                specifiers: "__global__ __aicore__ void".into(),
                params: 4
            }]
        );
        let plain = "#ifdef __CCE_KT_TEST__\nextern \"C\" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b) {}\n#else\n\
template <int M>\n__global__ __aicore__ void k(GM_ADDR a, GM_ADDR b) {}\n#endif\n";
        let d = entry_decls(plain, "k");
        assert_eq!(d.len(), 2);
        assert!(!d[0].template && d[1].template);
        assert!(entry_decls("void kk(int); int k = 1;", "k").is_empty());
    }
}
