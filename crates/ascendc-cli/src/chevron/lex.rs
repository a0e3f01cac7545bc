//! C++ tokens as the launch rewrite needs them: identifiers, numbers, literals (string and
//! character, with encoding prefixes and raw strings, one token each) and one-character
//! punctuators (`<<<` is three adjacent `<`). Comments and white space are skipped; the tokens of
//! each preprocessor directive are kept apart, line continuations included, so `#define` bodies
//! can be rewritten like code.

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Kind {
    Ident,
    Number,
    Literal,
    Punct,
}

/// A token: its kind and byte range in the source.
#[derive(Clone, Copy, Debug)]
pub struct Tok {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

/// A `#define`: its name, its parameters when it is function-like (`__VA_ARGS__` stands for
/// `...`) and the tokens of its body.
#[derive(Debug)]
pub struct Define {
    pub name: String,
    pub params: Option<Vec<String>>,
    pub body: Vec<Tok>,
}

impl Define {
    /// True when `word` is one of the macro's parameters (`__VA_ARGS__` in a variadic macro).
    pub fn is_param(&self, word: &str) -> bool {
        self.params
            .as_ref()
            .is_some_and(|p| p.iter().any(|q| q == word))
    }
}

/// A lexed source: the tokens outside directives, the `#define`s and the `#include "…"` names.
pub struct Lexed {
    pub toks: Vec<Tok>,
    pub defines: Vec<Define>,
    pub quoted_includes: Vec<String>,
}

/// Splits C++ source into tokens, directives apart (see the module documentation).
pub fn lex(src: &str) -> Lexed {
    let b = src.as_bytes();
    let n = b.len();
    let mut code = Vec::new();
    let mut directives: Vec<Vec<Tok>> = Vec::new();
    let mut i = 0;
    // True while only white space has been seen on the current line (a `#` there starts a directive).
    let mut line_start = true;
    let mut in_directive = false;
    while i < n {
        let c = b[i];
        if c == b'\\' && b.get(i + 1) == Some(&b'\n') {
            i += 2;
            continue;
        }
        if c == b'\n' {
            line_start = true;
            in_directive = false;
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
        let starts_directive = c == b'#' && line_start;
        line_start = false;
        let tok = token(src, i);
        i = tok.end;
        if starts_directive {
            in_directive = true;
            directives.push(Vec::new());
        }
        match directives.last_mut() {
            Some(d) if in_directive => d.push(tok),
            _ => code.push(tok),
        }
    }
    let mut defines = Vec::new();
    let mut quoted_includes = Vec::new();
    for d in directives {
        let word = |k: usize| d.get(k).map(|t| &src[t.start..t.end]);
        match word(1) {
            Some("define") if d.get(2).is_some_and(|t| t.kind == Kind::Ident) => {
                defines.push(define(src, &d));
            }
            Some("include") => {
                if let Some(t) = d.get(2).filter(|t| t.kind == Kind::Literal) {
                    let lit = &src[t.start..t.end];
                    if let Some(name) = lit.strip_prefix('"').and_then(|l| l.strip_suffix('"')) {
                        quoted_includes.push(name.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    Lexed {
        toks: code,
        defines,
        quoted_includes,
    }
}

/// The `#define` whose tokens (from `#`) are `d`.
fn define(src: &str, d: &[Tok]) -> Define {
    let name_tok = d[2];
    let name = src[name_tok.start..name_tok.end].to_string();
    let function_like = d
        .get(3)
        .is_some_and(|t| t.start == name_tok.end && is_punct(src, t, '('));
    if !function_like {
        return Define {
            name,
            params: None,
            body: d[3..].to_vec(),
        };
    }
    let mut params = Vec::new();
    let mut k = 4;
    while k < d.len() && !is_punct(src, &d[k], ')') {
        let t = &d[k];
        if t.kind == Kind::Ident {
            params.push(src[t.start..t.end].to_string());
        } else if is_punct(src, t, '.') && params.last().is_none_or(|p| p != "__VA_ARGS__") {
            // `...` alone is spelled `__VA_ARGS__` in the body (`name...` keeps `name`).
            if d.get(k - 1).is_none_or(|p| p.kind != Kind::Ident) {
                params.push("__VA_ARGS__".to_string());
            }
        }
        k += 1;
    }
    Define {
        name,
        params: Some(params),
        body: d.get(k + 1..).map(<[Tok]>::to_vec).unwrap_or_default(),
    }
}

/// The token starting at `i` (not white space or a comment).
fn token(src: &str, i: usize) -> Tok {
    let b = src.as_bytes();
    let n = b.len();
    let c = b[i];
    let start = i;
    let mut i = i;
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
            return Tok {
                kind: Kind::Literal,
                start,
                end,
            };
        }
        return Tok {
            kind: Kind::Ident,
            start,
            end: i,
        };
    }
    if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
        i += 1;
        while i < n {
            let d = b[i];
            let sign = (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
            let sep = d == b'\'' && b.get(i + 1).is_some_and(u8::is_ascii_alphanumeric);
            if d.is_ascii_alphanumeric() || d == b'_' || d == b'.' || sign || sep {
                i += 1;
            } else {
                break;
            }
        }
        return Tok {
            kind: Kind::Number,
            start,
            end: i,
        };
    }
    if c == b'"' || c == b'\'' {
        return Tok {
            kind: Kind::Literal,
            start,
            end: quoted_end(b, i),
        };
    }
    let len = src[i..].chars().next().map_or(1, char::len_utf8);
    Tok {
        kind: Kind::Punct,
        start,
        end: i + len,
    }
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

/// True when `t` is the one-character punctuator `c`.
pub fn is_punct(src: &str, t: &Tok, c: char) -> bool {
    t.kind == Kind::Punct && t.end - t.start == c.len_utf8() && src[t.start..t.end].starts_with(c)
}

/// The text of `t`.
pub fn text<'a>(src: &'a str, t: &Tok) -> &'a str {
    &src[t.start..t.end]
}

/// The tokens `toks` as one line of text: a space wherever the source had white space, a comment
/// or a line break between two tokens, nothing where they touched.
pub fn joined(src: &str, toks: &[Tok]) -> String {
    let mut out = String::new();
    for (k, t) in toks.iter().enumerate() {
        if k > 0 && toks[k - 1].end != t.start {
            out.push(' ');
        }
        out.push_str(text(src, t));
    }
    out
}

/// The index of the token closing the bracket opened at `open` (`(`, `[`, `{` or `<` with
/// `close` its partner), counting only that bracket pair.
pub fn closing(src: &str, toks: &[Tok], open: usize, close: char) -> Option<usize> {
    let opener = src[toks[open].start..].chars().next()?;
    let mut depth = 0i32;
    for (m, t) in toks.iter().enumerate().skip(open) {
        if is_punct(src, t, opener) {
            depth += 1;
        } else if is_punct(src, t, close) {
            depth -= 1;
            if depth == 0 {
                return Some(m);
            }
        }
    }
    None
}

/// Line and column (1-based) of byte `at`.
pub fn position(src: &str, at: usize) -> (u32, u32) {
    let before = &src[..at];
    let line = before.bytes().filter(|&c| c == b'\n').count() as u32 + 1;
    let col = at - before.rfind('\n').map_or(0, |p| p + 1) + 1;
    (line, col as u32)
}
