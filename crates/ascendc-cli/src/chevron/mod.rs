//! The `<<<blockDim, l2ctrl, stream>>>` kernel launch syntax, rewritten into plain C++ before the
//! compiler sees a source.
//!
//! A token-aware pass: launches inside string and character literals (raw strings included),
//! comments and preprocessor directives are left alone. `kernel<T, 8><<<cfg>>>(args)` becomes
//!
//! ```text
//! ::AscendC::detail::Chevron(::AscendC::detail::Loc("file", line, col), "kernel<T, 8>", "args", kernel<T, 8>, cfg)(args)
//! ```
//!
//! on the same lines (the inserted text has no line breaks; every line break of the launch is
//! kept), after a first line including `ascendc/chevron.h` and a `#line 1 "file"` directive, so the
//! compiler's diagnostics and `__FILE__` / `__LINE__` name the original file and line. The callee
//! must be a function declared `__global__` in one of the sources or the headers they include
//! with `#include "…"`; anything else is an error naming the file and line.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

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

#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Ident,
    Number,
    Literal,
    Punct,
}

#[derive(Clone, Copy, Debug)]
struct Tok {
    kind: Kind,
    start: usize,
    end: usize,
}

/// Splits C++ source into tokens, skipping whitespace, comments and preprocessor directives.
/// String and character literals (with encoding prefixes, raw strings) are one token each.
fn lex(src: &str) -> Vec<Tok> {
    let b = src.as_bytes();
    let n = b.len();
    let mut toks = Vec::new();
    let mut i = 0;
    // True while only whitespace has been seen on the current line (a `#` there starts a directive).
    let mut line_start = true;
    while i < n {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < n && b[i] != b'\n' {
                i += if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = src[i + 2..].find("*/").map_or(n, |e| i + 2 + e + 2);
            continue;
        }
        if c == b'#' && line_start {
            // A directive runs to the end of the line, continued by a backslash.
            while i < n && b[i] != b'\n' {
                if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                    i += 2;
                } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    i = src[i + 2..].find("*/").map_or(n, |e| i + 2 + e + 2);
                } else {
                    i += 1;
                }
            }
            continue;
        }
        line_start = false;
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < n && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &src[start..i];
            if i < n && (b[i] == b'"' || b[i] == b'\'') && is_prefix(word) {
                let end = if word.ends_with('R') && b[i] == b'"' {
                    raw_string_end(src, i)
                } else {
                    quoted_end(b, i)
                };
                toks.push(Tok {
                    kind: Kind::Literal,
                    start,
                    end,
                });
                i = end;
                continue;
            }
            toks.push(Tok {
                kind: Kind::Ident,
                start,
                end: i,
            });
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            i += 1;
            while i < n {
                let d = b[i];
                let sign =
                    (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
                let sep = d == b'\'' && b.get(i + 1).is_some_and(u8::is_ascii_alphanumeric);
                if d.is_ascii_alphanumeric() || d == b'_' || d == b'.' || sign || sep {
                    i += 1;
                } else {
                    break;
                }
            }
            toks.push(Tok {
                kind: Kind::Number,
                start,
                end: i,
            });
            continue;
        }
        if c == b'"' || c == b'\'' {
            let end = quoted_end(b, i);
            toks.push(Tok {
                kind: Kind::Literal,
                start,
                end,
            });
            i = end;
            continue;
        }
        // One character per punctuator token; `<<<` is three adjacent `<` tokens.
        let len = src[i..].chars().next().map_or(1, char::len_utf8);
        i += len;
        toks.push(Tok {
            kind: Kind::Punct,
            start,
            end: i,
        });
    }
    toks
}

/// Encoding prefixes of string and character literals (`R` marks a raw string).
fn is_prefix(word: &str) -> bool {
    matches!(
        word,
        "L" | "u" | "U" | "u8" | "R" | "LR" | "uR" | "UR" | "u8R"
    )
}

/// The end of a quoted literal whose opening quote is at `i` (the end of the line when unclosed).
fn quoted_end(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let mut j = i + 1;
    while j < b.len() && b[j] != q && b[j] != b'\n' {
        j += if b[j] == b'\\' { 2 } else { 1 };
    }
    (j + 1).min(b.len())
}

/// The end of a raw string `R"delim( … )delim"` whose quote is at `i`.
fn raw_string_end(src: &str, i: usize) -> usize {
    let rest = &src[i + 1..];
    let Some(open) = rest.find('(') else {
        return src.len();
    };
    let close = format!("){}\"", &rest[..open]);
    rest[open..]
        .find(&close)
        .map_or(src.len(), |e| i + 1 + open + e + close.len())
}

/// Line and column (1-based) of byte `at`.
fn position(src: &str, at: usize) -> (u32, u32) {
    let before = &src[..at];
    let line = before.bytes().filter(|&c| c == b'\n').count() as u32 + 1;
    let col = at - before.rfind('\n').map_or(0, |p| p + 1) + 1;
    (line, col as u32)
}

fn is_punct(src: &str, t: &Tok, c: char) -> bool {
    t.kind == Kind::Punct && t.end - t.start == c.len_utf8() && src[t.start..t.end].starts_with(c)
}

/// True when tokens `i..i+3` are three adjacent `c` characters (`<<<` or `>>>`).
fn triple(src: &str, toks: &[Tok], i: usize, c: char) -> bool {
    i + 2 < toks.len()
        && (0..3).all(|k| is_punct(src, &toks[i + k], c))
        && toks[i].end == toks[i + 1].start
        && toks[i + 1].end == toks[i + 2].start
}

/// The names of the functions declared or defined with `__global__` in `src`.
pub fn kernel_names(src: &str) -> BTreeSet<String> {
    let toks = lex(src);
    let mut names = BTreeSet::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind != Kind::Ident || &src[t.start..t.end] != "__global__" {
            continue;
        }
        for j in i + 1..toks.len() {
            let u = &toks[j];
            if is_punct(src, u, ';') || is_punct(src, u, '{') || is_punct(src, u, '=') {
                break;
            }
            if is_punct(src, u, '(') {
                if toks[j - 1].kind == Kind::Ident {
                    names.insert(src[toks[j - 1].start..toks[j - 1].end].to_string());
                }
                break;
            }
        }
    }
    names
}

/// The `#include "…"` names in `src`.
fn quoted_includes(src: &str) -> Vec<String> {
    src.lines()
        .filter_map(|l| {
            let l = l.trim_start().strip_prefix('#')?.trim_start();
            let rest = l.strip_prefix("include")?.trim_start().strip_prefix('"')?;
            Some(rest[..rest.find('"')?].to_string())
        })
        .collect()
}

/// The kernels declared in `sources` and in the headers they include with `#include "…"`
/// (found next to the including file or in `dirs`), recursively.
pub fn kernels_in(sources: &[PathBuf], dirs: &[PathBuf]) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut todo: Vec<PathBuf> = sources.to_vec();
    while let Some(p) = todo.pop() {
        let key = p.canonicalize().unwrap_or_else(|_| p.clone());
        if !seen.insert(key) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        names.extend(kernel_names(&text));
        let here = p.parent().map(Path::to_path_buf).unwrap_or_default();
        for inc in quoted_includes(&text) {
            let found = std::iter::once(&here)
                .chain(dirs)
                .map(|d| d.join(&inc))
                .find(|c| c.is_file());
            todo.extend(found);
        }
    }
    names
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
        return Err("<<<…>>> must follow the name of a __global__ kernel function");
    }
    j -= 1;
    let name = src[toks[j].start..toks[j].end].to_string();
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

/// The index of the `)` closing the `(` at token `open`.
fn closing_paren(src: &str, toks: &[Tok], open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (m, t) in toks.iter().enumerate().skip(open) {
        if is_punct(src, t, '(') {
            depth += 1;
        } else if is_punct(src, t, ')') {
            depth -= 1;
            if depth == 0 {
                return Some(m);
            }
        }
    }
    None
}

/// Rewrites every `<<<…>>>` launch of `src` (named `file` in diagnostics and `#line`); `None`
/// when there is none. `kernels` are the names a launch may call.
pub fn rewrite(
    src: &str,
    file: &str,
    kernels: &BTreeSet<String>,
) -> Result<Option<String>, Diagnostic> {
    let toks = lex(src);
    let err = |at: usize, message: String| {
        let (line, column) = position(src, at);
        Diagnostic {
            file: file.to_string(),
            line,
            column,
            message,
        }
    };
    let mut out = String::with_capacity(src.len() + 256);
    let mut copied = 0;
    let mut launches = 0;
    let mut i = 0;
    while i < toks.len() {
        if !triple(src, &toks, i, '<') {
            i += 1;
            continue;
        }
        let open = toks[i].start;
        let (first, name) = callee(src, &toks, i).map_err(|m| err(open, m.into()))?;
        let callee_start = toks[first].start;
        if !kernels.contains(&name) {
            return Err(err(
                callee_start,
                format!(
                    "`{name}` is launched with <<<…>>> but no __global__ function of that name is declared in the sources or the headers they include"
                ),
            ));
        }
        // The launch configuration, up to `>>>` outside brackets.
        let mut k = i + 3;
        let mut depth = 0i32;
        while k < toks.len() && !(depth == 0 && triple(src, &toks, k, '>')) {
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
        let config = &src[toks[i + 2].end..toks[k].start];
        if config.trim().is_empty() {
            return Err(err(
                open,
                "empty launch configuration: write <<<blockDim, l2ctrl, stream>>>".into(),
            ));
        }
        let close = toks[k + 2].end;
        // The kernel arguments in parentheses.
        let args_open = k + 3;
        if args_open >= toks.len() || !is_punct(src, &toks[args_open], '(') {
            return Err(err(
                close,
                format!("expected `(` with the arguments of `{name}` after >>>"),
            ));
        }
        let args_close = closing_paren(src, &toks, args_open).ok_or_else(|| {
            err(
                toks[args_open].start,
                format!("unclosed `(` in the arguments of `{name}`"),
            )
        })?;
        let args = &src[toks[args_open].end..toks[args_close].start];
        let callee_text = &src[callee_start..toks[i - 1].end];
        let (line, column) = position(src, callee_start);
        out.push_str(&src[copied..callee_start]);
        out.push_str(&format!(
            "::AscendC::detail::Chevron(::AscendC::detail::Loc(\"{}\", {line}, {column}), \"{}\", \"{}\", ",
            c_path(file),
            c_string(callee_text),
            c_string(args)
        ));
        out.push_str(callee_text);
        out.push_str(", ");
        out.push_str(config);
        out.push(')');
        copied = close;
        launches += 1;
        i = args_open;
    }
    if launches == 0 {
        return Ok(None);
    }
    out.push_str(&src[copied..]);
    Ok(Some(format!(
        "#include \"ascendc/chevron.h\"\n#line 1 \"{}\"\n{out}",
        c_path(file)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernels(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|s| s.to_string()).collect()
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
    fn strings_comments_raw_strings_and_directives_are_left_alone() {
        let src = concat!(
            "const char* a = \"k<<<1, nullptr, s>>>(x)\";\n",
            "// k<<<1, nullptr, s>>>(x)\n",
            "/* k<<<1,\n nullptr, s>>>(x) */\n",
            "auto r = R\"x(k<<<1, 0, 0>>>(\")x\";\n",
            "char c = '<'; int n = 1'000;\n",
            "#define LAUNCH k<<<1, nullptr, s>>>(x)\n",
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
    fn launch_of_a_non_kernel_is_an_error_with_its_line() {
        let src = "void host(int);\nint main() {\n  host<<<1, nullptr, nullptr>>>(3);\n}\n";
        let e = rewrite(src, "main.asc", &kernels(&["k"])).unwrap_err();
        assert_eq!((e.line, e.column), (3, 3));
        assert!(
            e.to_string().starts_with(
                "main.asc:3:3: error: `host` is launched with <<<…>>> but no __global__ function"
            ),
            "{e}"
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
    }

    #[test]
    fn kernel_names_are_found_in_declarations_and_definitions() {
        let src = concat!(
            "extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y);\n",
            "template <typename T, int N>\n__global__ __aicore__ void tk(GM_ADDR x) { }\n",
            "#define K __global__ void not_this(int)\n",
            "// __global__ void nor_this(int);\n",
            "__aicore__ inline void helper(int a);\n",
        );
        assert_eq!(kernel_names(src), kernels(&["add_custom", "tk"]));
    }

    #[test]
    fn includes_are_followed_for_kernel_declarations() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("k.h"),
            "__global__ __aicore__ void from_header(GM_ADDR x);\n",
        )
        .unwrap();
        let main = dir.path().join("main.cpp");
        std::fs::write(&main, "#include \"k.h\"\n#include <vector>\n").unwrap();
        assert_eq!(kernels_in(&[main], &[]), kernels(&["from_header"]));
    }
}
