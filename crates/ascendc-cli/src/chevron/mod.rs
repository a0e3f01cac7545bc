//! The `<<<blockDim, l2ctrl, stream>>>` kernel launch syntax, rewritten into plain C++ before the
//! compiler sees a source, with the kernel declarations the launches need.
//!
//! A token-aware pass: string and character literals (raw strings included) and comments are
//! left alone; code and `#define` bodies are rewritten (line continuations kept).
//! `kernel<T, 8><<<cfg>>>(args)` becomes
//!
//! ```text
//! ::AscendC::detail::Chevron(::AscendC::detail::Loc("file", line, col), "kernel<T, 8>", "args", kernel<T, 8>, cfg)(args)
//! ```
//!
//! on the same lines (the inserted text has no line breaks; every line break of the launch is
//! kept); in a macro body the location is `__FILE__`, `__LINE__` of the expansion and a callee
//! or an argument list that is one macro parameter is named by `#param`. The callee may be any
//! expression naming a kernel: a function, a function template specialization, a variable
//! holding a pointer to one, a macro parameter. When it is a name no `__global__` declaration in
//! the sources (or the headers they include with `#include "…"`) declares, the compiler checks
//! it is not a function ([`kernels`]). The first lines of a rewritten source include the
//! launch's header, define the helpers of kernels declared through macros, and set
//! `#line 1 "file"`, so the compiler's diagnostics and `__FILE__` / `__LINE__` name the original
//! file and line.

mod kernels;
mod lex;

pub use kernels::KernelIndex;

use lex::{closing, is_punct, joined, lex, position, text, Define, Kind, Tok};
use std::collections::BTreeSet;
use std::fmt;

/// An error in a source, with its 1-based line and column.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// The file as given.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (bytes).
    pub column: u32,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

/// A change to a source: bytes `start..end` replaced by `text` (an insertion when empty).
#[derive(Debug, Clone, PartialEq)]
pub struct Edit {
    start: usize,
    end: usize,
    text: String,
}

impl Edit {
    fn insert(at: usize, text: impl Into<String>) -> Edit {
        Edit::replace(at, at, text)
    }

    fn replace(start: usize, end: usize, text: impl Into<String>) -> Edit {
        Edit {
            start,
            end,
            text: text.into(),
        }
    }
}

/// True when tokens `i..i+3` are three adjacent `c` characters (`<<<` or `>>>`).
fn triple(src: &str, toks: &[Tok], i: usize, c: char) -> bool {
    i + 2 < toks.len()
        && (0..3).all(|k| is_punct(src, &toks[i + k], c))
        && toks[i].end == toks[i + 1].start
        && toks[i + 1].end == toks[i + 2].start
}

/// Escapes text for a C++ string literal on one line (runs of white space become one space).
fn c_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for ch in s.chars() {
        if ch.is_whitespace() {
            space = true;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        match ch {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '?' => out.push_str("\\?"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes a file name for `#line` and `Loc` (kept as is apart from `\` and `"`).
fn c_path(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The start of the callee whose name or template argument list ends at token `i - 1`
/// (`i` is the first `<` of `<<<`): (index of its first token, its unqualified name).
fn callee(src: &str, toks: &[Tok], i: usize) -> Result<(usize, String), &'static str> {
    let mut j = i;
    if j > 0 && is_punct(src, &toks[j - 1], '>') {
        let mut depth = 0i32;
        let mut k = j - 1;
        loop {
            let t = &toks[k];
            if is_punct(src, t, '>') {
                depth += 1;
            } else if is_punct(src, t, '<') {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            if k == 0 {
                return Err("unbalanced template arguments before <<<");
            }
            k -= 1;
        }
        j = k;
    }
    if j == 0 || toks[j - 1].kind != Kind::Ident {
        return Err(
            "<<<…>>> must follow the name of a __global__ kernel function or a pointer to one",
        );
    }
    j -= 1;
    let name = text(src, &toks[j]).to_string();
    while j >= 3
        && is_punct(src, &toks[j - 1], ':')
        && is_punct(src, &toks[j - 2], ':')
        && toks[j - 3].kind == Kind::Ident
    {
        j -= 3;
    }
    if j >= 2 && is_punct(src, &toks[j - 1], ':') && is_punct(src, &toks[j - 2], ':') {
        j -= 2;
    }
    Ok((j, name))
}

/// A string literal naming `toks` in a launch: `#p` when they are one parameter of `define`.
fn named(src: &str, toks: &[Tok], define: Option<&Define>) -> String {
    match (toks, define) {
        ([t], Some(d)) if d.is_param(text(src, t)) => format!("#{}", text(src, t)),
        _ => format!("\"{}\"", c_string(&joined(src, toks))),
    }
}

/// Edits rewriting the `<<<…>>>` launches of a unit (`define`: the macro whose body `toks` is);
/// returns how many there were.
fn launches(
    src: &str,
    file: &str,
    toks: &[Tok],
    define: Option<&Define>,
    kernels: &BTreeSet<String>,
    edits: &mut Vec<Edit>,
    err: &dyn Fn(usize, String) -> Diagnostic,
) -> Result<usize, Diagnostic> {
    let mut count = 0;
    let mut i = 0;
    while i < toks.len() {
        if !triple(src, toks, i, '<') {
            i += 1;
            continue;
        }
        let open = toks[i].start;
        let (first, name) = callee(src, toks, i).map_err(|m| err(open, m.into()))?;
        let callee_start = toks[first].start;
        // The launch configuration, up to `>>>` outside brackets.
        let mut k = i + 3;
        let mut depth = 0i32;
        while k < toks.len() && !(depth == 0 && triple(src, toks, k, '>')) {
            let t = &toks[k];
            if is_punct(src, t, '(') || is_punct(src, t, '[') || is_punct(src, t, '{') {
                depth += 1;
            } else if is_punct(src, t, ')') || is_punct(src, t, ']') || is_punct(src, t, '}') {
                depth -= 1;
            }
            k += 1;
        }
        if k >= toks.len() {
            return Err(err(open, "<<< without a matching >>>".into()));
        }
        if k == i + 3 {
            return Err(err(
                open,
                "empty launch configuration: write <<<blockDim, l2ctrl, stream>>>".into(),
            ));
        }
        let config = &src[toks[i + 2].end..toks[k].start];
        let close = toks[k + 2].end;
        // The kernel arguments in parentheses.
        let args_open = k + 3;
        if args_open >= toks.len() || !is_punct(src, &toks[args_open], '(') {
            return Err(err(
                close,
                format!("expected `(` with the arguments of `{name}` after >>>"),
            ));
        }
        let args_close = closing(src, toks, args_open, ')').ok_or_else(|| {
            err(
                toks[args_open].start,
                format!("unclosed `(` in the arguments of `{name}`"),
            )
        })?;
        let callee_toks = &toks[first..i];
        let callee_text = &src[callee_start..toks[i - 1].end];
        let loc = match define {
            Some(_) => "::AscendC::detail::Loc(__FILE__, __LINE__, 0)".to_string(),
            None => {
                let (line, column) = position(src, callee_start);
                format!(
                    "::AscendC::detail::Loc(\"{}\", {line}, {column})",
                    c_path(file)
                )
            }
        };
        let kernel = if define.is_none() && !kernels.contains(&name) {
            format!("::AscendC::detail::UndeclaredCallee<decltype({callee_text})>({callee_text})")
        } else {
            callee_text.to_string()
        };
        edits.push(Edit::replace(
            callee_start,
            close,
            format!(
                "::AscendC::detail::Chevron({loc}, {}, {}, {kernel}, {config})",
                named(src, callee_toks, define),
                named(src, &toks[args_open + 1..args_close], define),
            ),
        ));
        count += 1;
        i = args_open;
    }
    Ok(count)
}

/// Edits recording the qualifiers of kernels declared through macros at their invocations
/// (`KERNEL(k) {` gets the helper's statement after `{`); returns the helpers used.
fn macro_entries<'a>(
    src: &str,
    toks: &[Tok],
    index: &'a KernelIndex,
    edits: &mut Vec<Edit>,
) -> BTreeSet<&'a str> {
    let mut used = BTreeSet::new();
    for (k, t) in toks.iter().enumerate() {
        let Some(m) = index.entry_macros.get(text(src, t)) else {
            continue;
        };
        if !toks.get(k + 1).is_some_and(|u| is_punct(src, u, '(')) {
            continue;
        }
        let Some(close) = closing(src, toks, k + 1, ')') else {
            continue;
        };
        if toks.get(close + 1).is_some_and(|u| is_punct(src, u, '{')) {
            let args = joined(src, &toks[k + 2..close]);
            edits.push(Edit::insert(
                toks[close + 1].end,
                format!(" {}({args})", m.helper),
            ));
            used.insert(m.definition.as_str());
        }
    }
    used
}

/// Rewrites the launches and kernel declarations of `src` (named `file` in diagnostics and
/// `#line`); `None` when nothing changes. `index` holds the kernels of all the program's sources.
pub fn rewrite(src: &str, file: &str, index: &KernelIndex) -> Result<Option<String>, Diagnostic> {
    let lexed = lex(src);
    let err = |at: usize, message: String| {
        let (line, column) = position(src, at);
        Diagnostic {
            file: file.to_string(),
            line,
            column,
            message,
        }
    };
    let mut edits = Vec::new();
    let mut launched = false;
    let mut recorded = false;
    let units = std::iter::once((&lexed.toks[..], None))
        .chain(lexed.defines.iter().map(|d| (&d.body[..], Some(d))));
    for (toks, define) in units {
        launched |= launches(src, file, toks, define, &index.names, &mut edits, &err)? > 0;
        recorded |= kernels::record_qualifiers(src, toks, &mut edits, &err)?;
        let linkage = kernels::c_linkage_kernels(src, toks, &index.names);
        edits.extend(
            linkage
                .into_iter()
                .filter(|(_, name)| !index.c_linkage.contains(name))
                .map(|(edit, _)| edit),
        );
    }
    let helpers = macro_entries(src, &lexed.toks, index, &mut edits);
    if edits.is_empty() {
        return Ok(None);
    }
    let mut out = String::with_capacity(src.len() + 512);
    if launched {
        out.push_str("#include \"ascendc/chevron.h\"\n");
    } else if recorded || !helpers.is_empty() {
        out.push_str("#include \"ascendc/kernel_entry.h\"\n");
    }
    for h in helpers {
        out.push_str(&format!("#define {h}\n"));
    }
    out.push_str(&format!("#line 1 \"{}\"\n", c_path(file)));
    edits.sort_by_key(|e| (e.start, e.end));
    let mut copied = 0;
    for e in edits {
        if e.start < copied {
            continue;
        }
        out.push_str(&src[copied..e.start]);
        out.push_str(&e.text);
        copied = e.end;
    }
    out.push_str(&src[copied..]);
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernels(names: &[&str]) -> KernelIndex {
        KernelIndex {
            names: names.iter().map(|s| s.to_string()).collect(),
            ..KernelIndex::default()
        }
    }

    fn body(out: &str) -> &str {
        out.split_once("#line 1 \"k.asc\"\n").unwrap().1
    }

    #[test]
    fn plain_launch_keeps_args_and_lines() {
        let src = "void f() {\n    add<<<8, nullptr, stream>>>(x, y, z);\n}\n";
        let out = rewrite(src, "k.asc", &kernels(&["add"])).unwrap().unwrap();
        assert!(out.starts_with("#include \"ascendc/chevron.h\"\n#line 1 \"k.asc\"\n"));
        let b = body(&out);
        assert_eq!(
            b.lines().nth(1).unwrap(),
            "    ::AscendC::detail::Chevron(::AscendC::detail::Loc(\"k.asc\", 2, 5), \"add\", \"x, y, z\", add, 8, nullptr, stream)(x, y, z);"
        );
        assert_eq!(b.lines().count(), src.lines().count());
    }

    #[test]
    fn templates_with_shift_tokens_and_qualified_names() {
        let src = "ns::k<half, Vec<int, 2>><<<blocks(n), nullptr, s>>>(a, (b, c), d[(1)]);";
        let out = rewrite(src, "k.asc", &kernels(&["k"])).unwrap().unwrap();
        assert_eq!(
            body(&out),
            "::AscendC::detail::Chevron(::AscendC::detail::Loc(\"k.asc\", 1, 1), \"ns::k<half, Vec<int, 2>>\", \"a, (b, c), d[(1)]\", ns::k<half, Vec<int, 2>>, blocks(n), nullptr, s)(a, (b, c), d[(1)]);"
        );
    }

    #[test]
    fn a_callee_no_kernel_declaration_names_is_checked_by_the_compiler() {
        let src = "auto selected = c ? ka : kb;\nselected<<<b, nullptr, s>>>(x);\n";
        let out = rewrite(src, "k.asc", &kernels(&["ka", "kb"]))
            .unwrap()
            .unwrap();
        assert!(
            body(&out).contains("\"selected\", \"x\", ::AscendC::detail::UndeclaredCallee<decltype(selected)>(selected), b, nullptr, s)(x);"),
            "{out}"
        );
    }

    #[test]
    fn strings_comments_raw_strings_and_other_directives_are_left_alone() {
        let src = concat!(
            "const char* a = \"k<<<1, nullptr, s>>>(x)\";\n",
            "// k<<<1, nullptr, s>>>(x)\n",
            "/* k<<<1,\n nullptr, s>>>(x) */\n",
            "auto r = R\"x(k<<<1, 0, 0>>>(\")x\";\n",
            "char c = '<'; int n = 1'000;\n",
            "#pragma message(\"k<<<1, nullptr, s>>>(x)\")\n",
            "#if A <<<B\n#endif\n",
        );
        assert_eq!(rewrite(src, "k.asc", &kernels(&["k"])).unwrap(), None);
    }

    #[test]
    fn a_launch_after_literals_is_still_found() {
        let src = "auto r = R\"(>>>)\"; char c = '\\''; k<<<1, nullptr, s>>>(\"<<<\", ')');\n";
        let out = rewrite(src, "k.asc", &kernels(&["k"])).unwrap().unwrap();
        assert!(
            body(&out).ends_with("\"\\\"<<<\\\", ')'\", k, 1, nullptr, s)(\"<<<\", ')');\n"),
            "{out}"
        );
    }

    #[test]
    fn multi_line_launch_keeps_every_line_break() {
        let src = "int main() {\n  k<<<8,\n      nullptr,\n      s>>>(x,\n  y);\n  return 0;\n}\n";
        let out = rewrite(src, "k.asc", &kernels(&["k"])).unwrap().unwrap();
        let b = body(&out);
        assert_eq!(b.lines().count(), src.lines().count());
        assert_eq!(b.lines().nth(5).unwrap(), "  return 0;");
        assert!(
            b.contains("\"x, y\", k, 8,\n      nullptr,\n      s)(x,\n  y);"),
            "{b}"
        );
    }

    #[test]
    fn launches_in_macro_bodies_name_the_expansion_site_and_stringize_parameters() {
        let src = concat!(
            "#define LAUNCH(k) k<<<8, nullptr, stream>>>(x, y, z)\n",
            "#define LAUNCH_ALL(k, ...) \\\n    k<<<8, \\\n      nullptr, s>>>(__VA_ARGS__)\n",
            "#define LAUNCH_ADD add<<<1, nullptr, s>>>(x)\n",
            "int main() { LAUNCH(add_custom); }\n",
        );
        let out = rewrite(src, "k.asc", &kernels(&[])).unwrap().unwrap();
        let b = body(&out);
        assert_eq!(b.lines().count(), src.lines().count());
        let loc = "::AscendC::detail::Chevron(::AscendC::detail::Loc(__FILE__, __LINE__, 0)";
        assert_eq!(
            b.lines().next().unwrap(),
            format!("#define LAUNCH(k) {loc}, #k, \"x, y, z\", k, 8, nullptr, stream)(x, y, z)")
        );
        assert_eq!(
            b.lines().nth(2).unwrap(),
            format!("    {loc}, #k, #__VA_ARGS__, k, 8, \\")
        );
        assert_eq!(b.lines().nth(3).unwrap(), "      nullptr, s)(__VA_ARGS__)");
        assert_eq!(
            b.lines().nth(4).unwrap(),
            format!("#define LAUNCH_ADD {loc}, \"add\", \"x\", add, 1, nullptr, s)(x)")
        );
    }

    #[test]
    fn malformed_launches_are_errors() {
        let k = kernels(&["k"]);
        let e = rewrite("k<<<1, nullptr, s>>>;", "a.cpp", &k).unwrap_err();
        assert!(e.message.contains("expected `(`"), "{e}");
        let e = rewrite("x = 1;\nk<<<>>>(a);", "a.cpp", &k).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("empty launch configuration"), "{e}");
        let e = rewrite("k<<<1, 2, 3(a);", "a.cpp", &k).unwrap_err();
        assert!(e.message.contains("without a matching >>>"), "{e}");
        let e = rewrite("(1)<<<1, 2, 3>>>(a);", "a.cpp", &k).unwrap_err();
        assert!(e.message.contains("must follow the name"), "{e}");
        let e = rewrite("k<<<1, 2, 3>>>(a;", "a.cpp", &k).unwrap_err();
        assert!(e.message.contains("unclosed `(`"), "{e}");
        let e = rewrite("#define L(k) \\\n  k<<<1, 2>>>;\n", "a.cpp", &k).unwrap_err();
        assert_eq!((e.line, e.column), (2, 14));
    }
}
