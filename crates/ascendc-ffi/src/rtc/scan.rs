//! The `__global__` functions an `aclrtcCreateProg` source defines that `aclrtBinaryGetFunction`
//! finds by name without a name expression: the non-template definitions at namespace scope,
//! by qualified name (`hello_world`, `ns::kernel`). Template kernels need `aclrtcAddNameExpr`.
//!
//! A light token scan: comments, literals and preprocessor lines are skipped (a kernel inside
//! `#if 0` is still seen), namespaces are followed through `namespace a::b {` and
//! `extern "C" {` blocks.

/// A token: an identifier or one punctuation character.
#[derive(Debug, PartialEq)]
enum Tok<'a> {
    Ident(&'a str),
    Punct(char),
    /// A string, character or number literal.
    Literal,
}

/// Byte length of the literal starting at `s` (a quote, or an encoding prefix and a quote), or
/// `None` when `s` does not start one.
fn literal_len(s: &str) -> Option<usize> {
    let (prefix, rest) = ["u8R", "uR", "UR", "LR", "R", "u8", "u", "U", "L", ""]
        .into_iter()
        .find_map(|p| Some((p, s.strip_prefix(p).filter(|r| r.starts_with(['"', '\'']))?)))?;
    if prefix.ends_with('R') && rest.starts_with('"') {
        // R"delim( … )delim"
        let open = rest.find('(')?;
        let close = format!("){}\"", &rest[1..open]);
        let end = rest[open..]
            .find(&close)
            .map_or(rest.len(), |e| open + e + close.len());
        return Some(prefix.len() + end);
    }
    let quote = rest.chars().next()?;
    let mut escaped = false;
    for (i, c) in rest.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '\n' => return Some(prefix.len() + i),
            c if c == quote => return Some(prefix.len() + i + 1),
            _ => {}
        }
    }
    Some(s.len())
}

/// The tokens of `src` outside comments and preprocessor directives.
fn tokens(src: &str) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < src.len() {
        let rest = &src[i..];
        let c = rest.chars().next().unwrap_or(' ');
        if c == '\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
            continue;
        }
        if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
            continue;
        }
        if c == '#' && line_start {
            // A directive runs to the first newline not escaped by a backslash.
            let mut end = rest.len();
            let b = rest.as_bytes();
            for (k, &ch) in b.iter().enumerate() {
                if ch == b'\n' && (k == 0 || b[k - 1] != b'\\') {
                    end = k;
                    break;
                }
            }
            i += end;
            continue;
        }
        line_start = false;
        if let Some(n) = literal_len(rest) {
            out.push(Tok::Literal);
            i += n;
        } else if c.is_alphanumeric() || c == '_' {
            let n = rest
                .find(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                .unwrap_or(rest.len());
            if c.is_ascii_digit() {
                out.push(Tok::Literal);
            } else {
                out.push(Tok::Ident(&rest[..n]));
            }
            i += n;
        } else {
            out.push(Tok::Punct(c));
            i += c.len_utf8();
        }
    }
    out
}

/// Macros written among a kernel's specifiers that take a parenthesised argument.
const SPECIFIER_MACROS: [&str; 4] = ["__mix__", "__attribute__", "__schedmode__", "alignas"];

/// The index of the token closing the bracket opened at `open`.
fn closing(toks: &[Tok], open: usize) -> Option<usize> {
    let (o, c) = match toks.get(open)? {
        Tok::Punct('(') => ('(', ')'),
        Tok::Punct('[') => ('[', ']'),
        Tok::Punct('{') => ('{', '}'),
        _ => return None,
    };
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        if *t == Tok::Punct(o) {
            depth += 1;
        } else if *t == Tok::Punct(c) {
            depth -= 1;
            if depth == 0 {
                return Some(k);
            }
        }
    }
    None
}

/// The declarator-id of the function declared after `__global__` at `g` (`name` or
/// `a::name`) and the index of its parameter list's `(`; `None` for a template-id or when no
/// function is declared.
fn declarator(toks: &[Tok], g: usize) -> Option<(String, usize)> {
    let mut k = g + 1;
    while let Some(t) = toks.get(k) {
        match t {
            Tok::Ident(m)
                if SPECIFIER_MACROS.contains(m) && toks.get(k + 1) == Some(&Tok::Punct('(')) =>
            {
                k = closing(toks, k + 1)? + 1;
            }
            Tok::Punct('[') if toks.get(k + 1) == Some(&Tok::Punct('[')) => {
                k = closing(toks, k)? + 1
            }
            Tok::Punct('(') => break,
            Tok::Punct(';' | '{' | '=' | '<') => return None,
            _ => k += 1,
        }
    }
    // Back from `(` over `ident (:: ident)*`.
    let mut parts = Vec::new();
    let mut at = k.checked_sub(1)?;
    while let Tok::Ident(name) = toks[at] {
        parts.push(name);
        if at >= 3 && toks[at - 1] == Tok::Punct(':') && toks[at - 2] == Tok::Punct(':') {
            at -= 3;
        } else {
            break;
        }
    }
    if parts.is_empty() {
        return None;
    }
    parts.reverse();
    Some((parts.join("::"), k))
}

/// True when the declaration holding the token at `g` starts with a template head: `template`
/// appears between the previous `;`, `{` or `}` and `g`.
fn is_template(toks: &[Tok], g: usize) -> bool {
    toks[..g]
        .iter()
        .rev()
        .take_while(|t| !matches!(t, Tok::Punct(';' | '{' | '}')))
        .any(|t| *t == Tok::Ident("template"))
}

/// True when the declaration whose parameter list closes at `close` has a body.
fn has_body(toks: &[Tok], close: usize) -> bool {
    let mut k = close + 1;
    while let Some(t) = toks.get(k) {
        match t {
            Tok::Punct('{') => return true,
            Tok::Punct(';' | '=' | ',') => return false,
            Tok::Ident("__attribute__") | Tok::Ident("noexcept")
                if toks.get(k + 1) == Some(&Tok::Punct('(')) =>
            {
                match closing(toks, k + 1) {
                    Some(c) => k = c + 1,
                    None => return false,
                }
            }
            Tok::Punct('[') => match closing(toks, k) {
                Some(c) => k = c + 1,
                None => return false,
            },
            _ => k += 1,
        }
    }
    false
}

/// What an open `{` belongs to.
enum Scope {
    /// `namespace a::b {` (the names), or an anonymous namespace (none).
    Namespace(Vec<String>),
    /// `extern "C" {`: no scope of its own.
    Linkage,
    /// A class, function or other block: kernels are not declared there.
    Other,
}

/// The qualified names of the non-template `__global__` functions `src` defines at namespace
/// scope, in source order, each once; a name defined twice (overloads) is left out.
pub fn kernel_definitions(src: &str) -> Vec<String> {
    let toks = tokens(src);
    let mut scopes: Vec<Scope> = Vec::new();
    let mut found: Vec<String> = Vec::new();
    let mut twice: Vec<String> = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        match toks[k] {
            Tok::Punct('{') => {
                let scope = namespace_before(&toks, k).map_or_else(
                    || {
                        if k >= 2
                            && toks[k - 1] == Tok::Literal
                            && toks[k - 2] == Tok::Ident("extern")
                        {
                            Scope::Linkage
                        } else {
                            Scope::Other
                        }
                    },
                    Scope::Namespace,
                );
                scopes.push(scope);
            }
            Tok::Punct('}') => {
                scopes.pop();
            }
            Tok::Ident("__global__") if !scopes.iter().any(|s| matches!(s, Scope::Other)) => {
                if let Some((name, open)) = declarator(&toks, k) {
                    let close = closing(&toks, open);
                    if !is_template(&toks, k) && close.is_some_and(|c| has_body(&toks, c)) {
                        let mut path: Vec<&str> = scopes
                            .iter()
                            .flat_map(|s| match s {
                                Scope::Namespace(n) => n.iter().map(String::as_str).collect(),
                                _ => Vec::new(),
                            })
                            .collect();
                        path.push(&name);
                        let qualified = path.join("::");
                        if found.contains(&qualified) {
                            twice.push(qualified);
                        } else {
                            found.push(qualified);
                        }
                    }
                    // Continue after the parameter list (the body's braces are scanned as scopes).
                    k = close.unwrap_or(open);
                }
            }
            _ => {}
        }
        k += 1;
    }
    found.retain(|n| !twice.contains(n));
    found
}

/// The names of `namespace a::b {` when the `{` at `open` ends one (empty for an anonymous
/// namespace); `None` for any other `{`.
fn namespace_before(toks: &[Tok], open: usize) -> Option<Vec<String>> {
    let mut names = Vec::new();
    let mut k = open;
    loop {
        k = k.checked_sub(1)?;
        match toks[k] {
            Tok::Ident("namespace") => {
                names.reverse();
                return Some(names);
            }
            Tok::Ident("inline") => return None,
            Tok::Ident(n) => names.push(n.to_string()),
            Tok::Punct(':') => {}
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_non_template_definitions_with_their_namespaces() {
        let src = r#"
#include "kernel_operator.h"
#define KERNEL __global__ void broken(
// __global__ void in_comment() {}
const char* s = "__global__ void in_string() {}";
const char* r = R"x(__global__ void in_raw() {})x";
extern "C" __global__ __vector__ void hello_world() { printf("{"); }
extern "C" __global__ __aicore__ void declared_only(GM_ADDR x);
namespace Kernel {
template <typename T>
__global__ __vector__ void add_custom(GM_ADDR x) {}
namespace inner { __global__ __mix__(1, 2) void mixed(GM_ADDR x, int n) { if (n) { } } }
}
namespace a::b { extern "C" { __global__ void deep(GM_ADDR x) {} } }
struct S { void f() { } };
__global__ void twice(int) {}
__global__ void twice(float) {}
"#;
        assert_eq!(
            kernel_definitions(src),
            ["hello_world", "Kernel::inner::mixed", "a::b::deep"]
        );
    }

    #[test]
    fn literals_with_escapes_and_prefixes_are_skipped_whole() {
        assert_eq!(literal_len(r#""a\"b" rest"#), Some(6));
        assert_eq!(literal_len("u8'x' rest"), Some(5));
        assert_eq!(literal_len(r#"R"d(")")d" rest"#), Some(10));
        assert_eq!(literal_len("Rx"), None);
        assert_eq!(
            tokens("a 12u 'c' b"),
            [Tok::Ident("a"), Tok::Literal, Tok::Literal, Tok::Ident("b")]
        );
    }
}
