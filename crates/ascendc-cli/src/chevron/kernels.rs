//! `__global__` declarations: their names (the launch check), their linkage (`extern "C"` kernels
//! get C++ linkage, so a kernel named like a C library function neither conflicts with its
//! declaration in `<cmath>` or `<cstdlib>` nor replaces the library's symbol in the program) and
//! their execution-space qualifier (`__mix__(cube, vec)`, `__cube__`, `__vector__`), recorded
//! at the start of each definition so that a launch finds the kernel's mode from its address.

use super::lex::{closing, is_punct, joined, lex, text, Define, Kind, Tok};
use super::{Diagnostic, Edit};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Macros written between `__global__` and the declarator that take arguments.
const SPECIFIER_MACROS: [&str; 5] = [
    "__mix__",
    "__schedmode__",
    "__attribute__",
    "__declspec",
    "alignas",
];

/// Type keywords that end an unnamed template parameter (`template <int>`).
const TYPE_KEYWORDS: [&str; 16] = [
    "typename", "class", "int", "char", "bool", "short", "long", "unsigned", "signed", "float",
    "double", "auto", "void", "wchar_t", "char16_t", "char32_t",
];

/// A function declaration: token indices into the unit it was found in.
#[derive(Debug)]
pub struct Decl {
    /// The first token: `template`, or the first specifier.
    pub start: usize,
    /// `<` and `>` of the template head.
    pub template: Option<(usize, usize)>,
    /// First and last token of the declarator-id (`ns::k`, `k<int>`).
    pub name: (usize, usize),
    /// `(` and `)` of the parameter list.
    pub params: (usize, usize),
    /// `{` of the body of a definition.
    pub body: Option<usize>,
}

impl Decl {
    /// The unqualified name.
    pub fn simple_name(&self, src: &str, toks: &[Tok]) -> String {
        let (first, last) = unqualified(src, toks, self.name);
        joined(src, &toks[first..=last])
    }
}

/// The unqualified part of the declarator-id `name` (`k` of `ns::k` and of `k<int>`; the pasted
/// `name ## _k` in a macro body).
fn unqualified(src: &str, toks: &[Tok], (first, last): (usize, usize)) -> (usize, usize) {
    let end = (first..=last)
        .find(|&k| is_punct(src, &toks[k], '<'))
        .map_or(last, |lt| lt - 1);
    let start = (first..=end)
        .rev()
        .find(|&k| is_punct(src, &toks[k], ':'))
        .map_or(first, |colon| colon + 1);
    (start, end.max(start))
}

/// The declarator of the declaration whose specifiers start at `from`: the first `name(` or
/// `name<…>(` outside the specifier macros, before any `;`, `{` or `=`.
fn declarator(src: &str, toks: &[Tok], from: usize) -> Option<((usize, usize), (usize, usize))> {
    let mut k = from;
    while k < toks.len() {
        let t = &toks[k];
        if is_punct(src, t, ';') || is_punct(src, t, '{') || is_punct(src, t, '=') {
            return None;
        }
        if is_punct(src, t, '[') && toks.get(k + 1).is_some_and(|u| is_punct(src, u, '[')) {
            k = closing(src, toks, k, ']')? + 1;
            continue;
        }
        if t.kind == Kind::Ident && k + 1 < toks.len() {
            let mut open = k + 1;
            if is_punct(src, &toks[open], '<') {
                open = closing(src, toks, open, '>')? + 1;
            }
            if open < toks.len() && is_punct(src, &toks[open], '(') {
                let close = closing(src, toks, open, ')')?;
                if SPECIFIER_MACROS.contains(&text(src, t)) {
                    k = close + 1;
                    continue;
                }
                // Back over `ns::` qualifiers and `prefix ##` pastes (in a macro body).
                let mut first = k;
                while first >= 2
                    && [':', '#']
                        .iter()
                        .any(|&c| (1..=2).all(|d| is_punct(src, &toks[first - d], c)))
                {
                    first -= 2;
                    if first >= 1 && toks[first - 1].kind == Kind::Ident {
                        first -= 1;
                    }
                }
                return Some(((first, open - 1), (open, close)));
            }
            k = open;
            continue;
        }
        k += 1;
    }
    None
}

/// The `{` of the body after the parameter list closing at `close`, when the declaration is a
/// definition (`None` at `;`, `,`, `=` or the end of the unit).
fn body_after(src: &str, toks: &[Tok], close: usize) -> Option<usize> {
    let mut k = close + 1;
    while k < toks.len() {
        let t = &toks[k];
        if is_punct(src, t, '{') {
            return Some(k);
        }
        if is_punct(src, t, ';') || is_punct(src, t, ',') || is_punct(src, t, '=') {
            return None;
        }
        // Another declaration begins (the branches of an `#if` declaring one kernel).
        if t.kind == Kind::Ident && matches!(text(src, t), "__global__" | "extern") {
            return None;
        }
        if is_punct(src, t, '(') {
            k = closing(src, toks, k, ')')?;
        }
        k += 1;
    }
    None
}

/// The start of the declaration holding the specifier at `at`, with its template head: back over
/// identifiers, literals (`extern "C"`), `name(…)` groups and `[[…]]`, to a `template <…>`.
fn decl_start(src: &str, toks: &[Tok], at: usize) -> (usize, Option<(usize, usize)>) {
    let mut s = at;
    while s > 0 {
        let t = &toks[s - 1];
        if matches!(t.kind, Kind::Ident | Kind::Literal) {
            s -= 1;
        } else if is_punct(src, t, ')') || is_punct(src, t, ']') {
            let (open_c, close_c) = if is_punct(src, t, ')') {
                ('(', ')')
            } else {
                ('[', ']')
            };
            let Some(open) = opening(src, toks, s - 1, open_c, close_c) else {
                break;
            };
            // Only a specifier macro's group (`__schedmode__(1)`, `__attribute__((…))`) belongs
            // to this declaration; another declarator's parameters end it.
            if open_c == '('
                && !(open > 0
                    && toks[open - 1].kind == Kind::Ident
                    && SPECIFIER_MACROS.contains(&text(src, &toks[open - 1])))
            {
                break;
            }
            s = if open_c == '(' { open - 1 } else { open };
        } else if is_punct(src, t, '>') {
            let Some(lt) = opening(src, toks, s - 1, '<', '>') else {
                break;
            };
            if lt > 0 && text(src, &toks[lt - 1]) == "template" {
                return (lt - 1, Some((lt, s - 1)));
            }
            break;
        } else {
            break;
        }
    }
    (s, None)
}

/// The index of the token opening the bracket closed at `close`.
fn opening(src: &str, toks: &[Tok], close: usize, open_c: char, close_c: char) -> Option<usize> {
    let mut depth = 0i32;
    for k in (0..=close).rev() {
        if is_punct(src, &toks[k], close_c) {
            depth += 1;
        } else if is_punct(src, &toks[k], open_c) {
            depth -= 1;
            if depth == 0 {
                return Some(k);
            }
        }
    }
    None
}

/// The `__global__` declarations of a unit (code or a `#define` body).
pub fn globals(src: &str, toks: &[Tok]) -> Vec<Decl> {
    let mut out = Vec::new();
    for (g, t) in toks.iter().enumerate() {
        if t.kind != Kind::Ident || text(src, t) != "__global__" {
            continue;
        }
        let (start, template) = decl_start(src, toks, g);
        let Some((name, params)) = declarator(src, toks, g + 1) else {
            continue;
        };
        out.push(Decl {
            start,
            template,
            name,
            params,
            body: body_after(src, toks, params.1),
        });
    }
    out
}

/// The execution-space qualifier among the specifiers `from..to` as (cube, vector) core counts:
/// `__mix__(c, v)`, `__cube__` (1, 0) or `__vector__` (0, 1).
fn qualifier(
    src: &str,
    toks: &[Tok],
    from: usize,
    to: usize,
) -> Result<Option<(String, String)>, String> {
    let mut found: Option<(&str, (String, String))> = None;
    let mut k = from;
    while k < to {
        let word = text(src, &toks[k]);
        let q = match word {
            "__cube__" => Some(("1".to_string(), "0".to_string())),
            "__vector__" => Some(("0".to_string(), "1".to_string())),
            "__mix__" if k + 1 < to && is_punct(src, &toks[k + 1], '(') => {
                let close = closing(src, toks, k + 1, ')').ok_or("unclosed __mix__(")?;
                let args = split_top(src, toks, k + 2, close);
                if args.len() != 2 {
                    return Err("__mix__ takes two numbers: __mix__(cube, vector)".into());
                }
                let arg = |r: &(usize, usize)| joined(src, &toks[r.0..r.1]);
                let q = (arg(&args[0]), arg(&args[1]));
                k = close;
                Some(q)
            }
            _ => None,
        };
        if let Some(q) = q {
            if let Some((first, _)) = found {
                return Err(format!(
                    "two execution-space qualifiers ({first} and {word}): a kernel has one of __mix__(cube, vector), __cube__, __vector__"
                ));
            }
            found = Some((word, q));
        }
        k += 1;
    }
    Ok(found.map(|f| f.1))
}

/// The change of bracket depth at `t`: +1 at `(`, `[`, `{`, `<`, -1 at their partners.
fn depth_step(src: &str, t: &Tok) -> i32 {
    match (t.kind, text(src, t)) {
        (Kind::Punct, "(" | "[" | "{" | "<") => 1,
        (Kind::Punct, ")" | "]" | "}" | ">") => -1,
        _ => 0,
    }
}

/// The comma-separated parts of tokens `from..to` at bracket depth 0, as token ranges.
fn split_top(src: &str, toks: &[Tok], from: usize, to: usize) -> Vec<(usize, usize)> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = from;
    for (k, t) in toks.iter().enumerate().take(to).skip(from) {
        depth += depth_step(src, t);
        if depth == 0 && is_punct(src, t, ',') {
            parts.push((start, k));
            start = k + 1;
        }
    }
    if start < to {
        parts.push((start, to));
    }
    parts
}

/// The end of range `r` before its top-level `=` (a default argument).
fn before_default(src: &str, toks: &[Tok], r: (usize, usize)) -> usize {
    let mut depth = 0i32;
    for (k, t) in toks.iter().enumerate().take(r.1).skip(r.0) {
        depth += depth_step(src, t);
        if depth == 0 && is_punct(src, t, '=') {
            return k;
        }
    }
    r.1
}

/// The template arguments naming the head's own parameters (`<T, N, Ts...>`), naming unnamed
/// parameters with edits; `None` when the head cannot be read.
fn own_template_args(
    src: &str,
    toks: &[Tok],
    head: (usize, usize),
    edits: &mut Vec<Edit>,
) -> Option<String> {
    let mut args = Vec::new();
    for (n, part) in split_top(src, toks, head.0 + 1, head.1)
        .into_iter()
        .enumerate()
    {
        let end = before_default(src, toks, part);
        let decl = &toks[part.0..end];
        let last = decl.last()?;
        let pack = decl
            .windows(3)
            .any(|w| w.iter().all(|t| is_punct(src, t, '.')));
        let named = decl.len() >= 2
            && last.kind == Kind::Ident
            && !TYPE_KEYWORDS.contains(&text(src, last))
            && !is_punct(src, &decl[decl.len() - 2], ':');
        let name = if named {
            text(src, last).to_string()
        } else {
            let name = format!("ascendc_tparam{n}");
            edits.push(Edit::insert(last.end, format!(" {name}")));
            name
        };
        args.push(if pack { format!("{name}...") } else { name });
    }
    Some(format!("<{}>", args.join(", ")))
}

/// The statement recording `decl`'s qualifier `(cube, vec)` at the start of its body (empty
/// strings: no qualifier, the headers' default): it names the kernel by a pointer of its own
/// type, so that overloads (a kernel named `abs` beside the C library's) resolve to it.
pub fn entry_statement(
    src: &str,
    toks: &[Tok],
    decl: &Decl,
    (cube, vec): &(String, String),
    edits: &mut Vec<Edit>,
) -> Option<String> {
    let (first, last) = decl.name;
    let mut name = joined(src, &toks[first..=last]);
    if let Some(head) = decl.template {
        if head.1 > head.0 + 1 {
            name.push_str(&own_template_args(src, toks, head, edits)?);
        }
    }
    let params: Vec<String> = split_top(src, toks, decl.params.0 + 1, decl.params.1)
        .into_iter()
        .map(|r| joined(src, &toks[r.0..before_default(src, toks, r)]))
        .collect();
    Some(if cube.is_empty() {
        format!(
            " (void)::AscendC::detail::UnqualifiedKernelEntry<void (*)({}), &{name}, ASCENDC_KERNEL_DEFAULT_MIX>::registered;",
            params.join(", ")
        )
    } else {
        format!(
            " (void)::AscendC::detail::KernelEntry<void (*)({}), &{name}, {cube}, {vec}>::registered;",
            params.join(", ")
        )
    })
}

/// Edits recording the qualifier of every qualified `__global__` definition of a unit; `Ok(true)`
/// when there was one.
pub fn record_qualifiers(
    src: &str,
    toks: &[Tok],
    edits: &mut Vec<Edit>,
    err: &dyn Fn(usize, String) -> Diagnostic,
) -> Result<bool, Diagnostic> {
    let mut any = false;
    let decls = globals(src, toks);
    for (i, d) in decls.iter().enumerate() {
        let Some(open) = d.body else {
            continue;
        };
        let q = qualifier(src, toks, d.start, d.name.0).map_err(|m| err(toks[d.start].start, m))?;
        // Declarations right before this one without a body of their own (the branches of an
        // `#if`: the preprocessor keeps one): when their qualifiers differ, each branch declares
        // a marker and the body records the marker that survives.
        let mut branches = vec![(d, q.clone())];
        for p in decls[..i].iter().rev() {
            let first = branches.last().expect("non-empty").0.start;
            if p.body.is_some()
                || p.params.1 + 1 != first
                || p.simple_name(src, toks) != d.simple_name(src, toks)
            {
                break;
            }
            let pq =
                qualifier(src, toks, p.start, p.name.0).map_err(|m| err(toks[p.start].start, m))?;
            branches.push((p, pq));
        }
        if branches.len() > 1 && d.template.is_none() && branches.iter().any(|(_, b)| *b != q) {
            let name = d.simple_name(src, toks);
            for (b, bq) in &branches {
                let (c, v) = bq.clone().unwrap_or(("-1".into(), "-1".into()));
                edits.push(Edit::insert(
                    toks[b.start].start,
                    format!("void ascendc_kq_{name}(::AscendC::detail::KernelQual<{c}, {v}>); "),
                ));
            }
            let params: Vec<String> = split_top(src, toks, d.params.0 + 1, d.params.1)
                .into_iter()
                .map(|r| joined(src, &toks[r.0..before_default(src, toks, r)]))
                .collect();
            edits.push(Edit::insert(
                toks[open].end,
                format!(
                    " (void)::AscendC::detail::BranchKernelEntry<void (*)({}), &{name}, decltype(::AscendC::detail::QualOf(&ascendc_kq_{name})), ASCENDC_KERNEL_DEFAULT_MIX>::registered;",
                    params.join(", ")
                ),
            ));
            any = true;
            continue;
        }
        // A kernel without a qualifier runs as its headers say (`ASCENDC_KERNEL_DEFAULT_MIX`:
        // the high-level Matmul's message passing makes it a mixed kernel, as the device's
        // compiler does).
        let q = q.unwrap_or_default();
        let statement = entry_statement(src, toks, d, &q, edits).ok_or_else(|| {
            err(
                toks[d.start].start,
                format!(
                    "cannot read the template parameters of `{}`",
                    d.simple_name(src, toks)
                ),
            )
        })?;
        edits.push(Edit::insert(toks[open].end, statement));
        any = true;
    }
    Ok(any)
}

/// The C-linkage declarations of a unit that declare kernels (those with `__global__` among
/// their specifiers or naming a known kernel), each with the edit giving it C++ linkage and the
/// kernel's name: `extern "C" decl` becomes `extern "C++" decl`; inside `extern "C" { … }` the
/// declaration gets `extern "C++"` in front.
pub fn c_linkage_kernels(
    src: &str,
    toks: &[Tok],
    kernels: &BTreeSet<String>,
) -> Vec<(Edit, String)> {
    let kernel_at = |from: usize| {
        let (name, _) = declarator(src, toks, from)?;
        let d = Decl {
            start: from,
            template: None,
            name,
            params: (0, 0),
            body: None,
        };
        let simple = d.simple_name(src, toks);
        let global = (from..name.0).any(|k| text(src, &toks[k]) == "__global__");
        (global || kernels.contains(&simple)).then_some(simple)
    };
    let mut out = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        if text(src, t) != "extern" || k + 2 >= toks.len() {
            continue;
        }
        let lit = &toks[k + 1];
        if lit.kind != Kind::Literal || text(src, lit) != "\"C\"" {
            continue;
        }
        if !is_punct(src, &toks[k + 2], '{') {
            if let Some(name) = kernel_at(k + 2) {
                out.push((Edit::replace(lit.start, lit.end, "\"C++\""), name));
            }
            continue;
        }
        let Some(close) = closing(src, toks, k + 2, '}') else {
            continue;
        };
        // Declarations start after the block's `{`, a `;` or a body's `}` at its top level.
        let mut starts = vec![k + 3];
        let mut depth = 0i32;
        for (m, u) in toks.iter().enumerate().take(close).skip(k + 3) {
            if !is_punct(src, u, '<') && !is_punct(src, u, '>') {
                depth += depth_step(src, u);
            }
            if depth == 0 && (is_punct(src, u, '}') || is_punct(src, u, ';')) {
                starts.push(m + 1);
            }
        }
        for s in starts.into_iter().filter(|&s| s < close) {
            let linked = text(src, &toks[s]) == "extern"
                && toks.get(s + 1).is_some_and(|u| u.kind == Kind::Literal);
            if let Some(name) = kernel_at(s).filter(|_| !linked) {
                out.push((Edit::insert(toks[s].start, "extern \"C++\" "), name));
            }
        }
    }
    out
}

/// A function-like macro whose body declares a qualified `__global__` kernel without its body
/// (`#define KERNEL(name) __global__ __mix__(1, 2) void name(GM_ADDR x)` used as
/// `KERNEL(k) { … }`): the statement recording the qualifier, as a macro of the same parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct EntryMacro {
    /// `ascendc_kernel_entry_KERNEL(name) statement`: the text after `#define `.
    pub definition: String,
    /// The name of that macro.
    pub helper: String,
}

/// The kernels a set of sources declares: names (for the launch check), the kernels whose C
/// linkage a header fixes, and the macros that declare qualified kernels.
#[derive(Debug, Default)]
pub struct KernelIndex {
    /// Unqualified names of `__global__` functions, declared directly or through a macro.
    pub names: BTreeSet<String>,
    /// Kernels a header (not rewritten) declares `extern "C"`: their declarations in the sources
    /// keep C linkage too.
    pub c_linkage: BTreeSet<String>,
    /// Macros declaring a qualified kernel whose body follows the invocation, by macro name.
    pub entry_macros: BTreeMap<String, EntryMacro>,
}

/// One part of a kernel name spelled in a macro body: a parameter or fixed text (`name ## _k`).
enum Piece {
    Param(usize),
    Fixed(String),
}

impl KernelIndex {
    /// The kernels declared in `sources` and in the headers they include with `#include "…"`
    /// (found next to the including file or in `dirs`), recursively.
    pub fn of(sources: &[PathBuf], dirs: &[PathBuf]) -> KernelIndex {
        let mut files = Vec::new();
        let mut seen = BTreeSet::new();
        let mut todo: Vec<(PathBuf, bool)> = sources.iter().map(|s| (s.clone(), false)).collect();
        while let Some((p, header)) = todo.pop() {
            let key = p.canonicalize().unwrap_or_else(|_| p.clone());
            if !seen.insert(key) {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            let here = p.parent().map(Path::to_path_buf).unwrap_or_default();
            for inc in lex(&text).quoted_includes {
                let found = std::iter::once(&here)
                    .chain(dirs)
                    .map(|d| d.join(&inc))
                    .find(|c| c.is_file());
                todo.extend(found.map(|f| (f, true)));
            }
            files.push((text, header));
        }
        KernelIndex::build(&files)
    }

    /// The kernels declared in the source texts `texts` (no headers).
    #[cfg(test)]
    pub fn of_texts(texts: &[&str]) -> KernelIndex {
        let files: Vec<(String, bool)> = texts.iter().map(|t| (t.to_string(), false)).collect();
        KernelIndex::build(&files)
    }

    /// The kernels declared in `files`: (text, true for a header).
    fn build(files: &[(String, bool)]) -> KernelIndex {
        let mut index = KernelIndex::default();
        let lexed: Vec<_> = files.iter().map(|(t, _)| lex(t)).collect();
        // Macros whose body names a kernel after their parameters, with the name's pieces and
        // whether a header's body declares it `extern "C"`.
        let mut named_by: BTreeMap<String, (Vec<Piece>, bool)> = BTreeMap::new();
        for ((src, header), l) in files.iter().zip(&lexed) {
            for d in globals(src, &l.toks) {
                index.names.insert(d.simple_name(src, &l.toks));
            }
            for m in &l.defines {
                let c_linkage =
                    *header && !c_linkage_kernels(src, &m.body, &BTreeSet::new()).is_empty();
                for d in globals(src, &m.body) {
                    let pieces = name_pieces(src, &m.body, &d, m);
                    let fixed: Option<String> = pieces
                        .iter()
                        .map(|p| match p {
                            Piece::Fixed(s) => Some(s.as_str()),
                            Piece::Param(_) => None,
                        })
                        .collect();
                    if let Some(name) = fixed {
                        if c_linkage {
                            index.c_linkage.insert(name.clone());
                        }
                        index.names.insert(name);
                    } else {
                        named_by.insert(m.name.clone(), (pieces, c_linkage));
                    }
                    if let Some(e) = entry_macro(src, m, &d) {
                        index.entry_macros.insert(m.name.clone(), e);
                    }
                }
            }
        }
        for ((src, _), l) in files.iter().zip(&lexed) {
            for (k, t) in l.toks.iter().enumerate() {
                let Some((pieces, c_linkage)) = named_by.get(text(src, t)) else {
                    continue;
                };
                if !l.toks.get(k + 1).is_some_and(|u| is_punct(src, u, '(')) {
                    continue;
                }
                let Some(close) = closing(src, &l.toks, k + 1, ')') else {
                    continue;
                };
                let args = split_top(src, &l.toks, k + 2, close);
                let name: Option<String> = pieces
                    .iter()
                    .map(|p| match p {
                        Piece::Fixed(s) => Some(s.clone()),
                        Piece::Param(i) => args.get(*i).map(|r| joined(src, &l.toks[r.0..r.1])),
                    })
                    .collect();
                if let Some(name) = name {
                    if *c_linkage {
                        index.c_linkage.insert(name.clone());
                    }
                    index.names.insert(name);
                }
            }
        }
        for ((src, _), l) in files.iter().zip(&lexed).filter(|((_, h), _)| *h) {
            let kernels = c_linkage_kernels(src, &l.toks, &index.names);
            index
                .c_linkage
                .extend(kernels.into_iter().map(|(_, name)| name));
        }
        index
    }
}

/// The pieces of the kernel name `d` declares in the body of macro `m`.
fn name_pieces(src: &str, body: &[Tok], d: &Decl, m: &Define) -> Vec<Piece> {
    let (first, last) = unqualified(src, body, d.name);
    (first..=last)
        .filter(|&k| body[k].kind == Kind::Ident)
        .map(|k| {
            let word = text(src, &body[k]);
            let params = m.params.as_deref().unwrap_or_default();
            match params.iter().position(|p| p == word) {
                Some(i) => Piece::Param(i),
                None => Piece::Fixed(word.to_string()),
            }
        })
        .collect()
}

/// The entry macro of a function-like macro `m` whose body ends with the qualified kernel
/// declaration `d` (no body, no `;`).
fn entry_macro(src: &str, m: &Define, d: &Decl) -> Option<EntryMacro> {
    let params = m.params.as_ref()?;
    if d.body.is_some() || d.template.is_some() || d.params.1 + 1 != m.body.len() {
        return None;
    }
    let q = qualifier(src, &m.body, d.start, d.name.0).ok()??;
    let statement = entry_statement(src, &m.body, d, &q, &mut Vec::new())?;
    let helper = format!("ascendc_kernel_entry_{}", m.name);
    let list: Vec<&str> = params
        .iter()
        .map(|p| {
            if p == "__VA_ARGS__" {
                "..."
            } else {
                p.as_str()
            }
        })
        .collect();
    Some(EntryMacro {
        definition: format!("{helper}({}){statement}", list.join(", ")),
        helper,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chevron::rewrite;

    fn names(index: &KernelIndex) -> Vec<&str> {
        index.names.iter().map(String::as_str).collect()
    }

    fn body(out: &str) -> &str {
        out.split_once("#line 1 \"k.asc\"\n").unwrap().1
    }

    #[test]
    fn kernel_names_come_from_declarations_definitions_and_macros() {
        let src = concat!(
            "extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y);\n",
            "template <typename T, int N>\n__global__ __aicore__ void tk(GM_ADDR x) { }\n",
            "__global__ __mix__(1, 2) void mixed(GM_ADDR x);\n",
            "__schedmode__(1) __global__ __mix__(1, 2) __aicore__ void batch(GM_ADDR x);\n",
            "#define K __global__ void in_macro(int)\n",
            "#define KERNEL_DEF(name) extern \"C\" __global__ __aicore__ void name(GM_ADDR x)\n",
            "#define PASTED(op) __global__ void op##_kernel(GM_ADDR x) {}\n",
            "KERNEL_DEF(from_macro) { }\nPASTED(sub)\n",
            "// __global__ void nor_this(int);\n",
            "__aicore__ inline void helper(int a);\n",
        );
        let index = KernelIndex::of_texts(&[src]);
        assert_eq!(
            names(&index),
            [
                "add_custom",
                "batch",
                "from_macro",
                "in_macro",
                "mixed",
                "sub_kernel",
                "tk"
            ]
        );
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
        assert_eq!(names(&KernelIndex::of(&[main], &[])), ["from_header"]);
    }

    #[test]
    fn kernels_a_header_declares_extern_c_keep_c_linkage() {
        let dir = tempfile::tempdir().unwrap();
        let header = concat!(
            "extern \"C\" __global__ __aicore__ void in_header(GM_ADDR x);\n",
            "#define KERNEL_DEF(name) extern \"C\" __global__ void name(GM_ADDR x)\n",
        );
        std::fs::write(dir.path().join("k.h"), header).unwrap();
        let src = concat!(
            "#include \"k.h\"\n",
            "extern \"C\" __global__ __aicore__ void in_header(GM_ADDR x) {}\n",
            "KERNEL_DEF(from_header_macro) {}\n",
            "extern \"C\" __global__ __aicore__ void own(GM_ADDR x) {}\n",
        );
        let main = dir.path().join("main.cpp");
        std::fs::write(&main, src).unwrap();
        let index = KernelIndex::of(&[main], &[]);
        let kept: Vec<&str> = index.c_linkage.iter().map(String::as_str).collect();
        assert_eq!(kept, ["from_header_macro", "in_header"]);
        let out = rewrite(src, "k.asc", &index).unwrap().unwrap();
        let lines: Vec<&str> = body(&out).lines().collect();
        assert!(lines[1].starts_with("extern \"C\" __global__"), "{out}");
        assert!(lines[3].starts_with("extern \"C++\" __global__"), "{out}");
    }

    #[test]
    fn extern_c_kernels_get_cxx_linkage() {
        let src = concat!(
            "extern \"C\" __global__ __aicore__ void sqrt(GM_ADDR x, GM_ADDR y) {}\n",
            "extern \"C\" void add_custom(uint8_t* x);\n",
            "extern \"C\" int printf(const char* f, ...);\n",
            "extern \"C\" {\nvoid exp(GM_ADDR x);\nint other(int);\n__global__ void log(GM_ADDR x) {}\n}\n",
            "#define KERNEL_DEF(name) extern \"C\" __global__ void name(GM_ADDR x)\n",
        );
        let index = KernelIndex::of_texts(&[
            src,
            "__global__ void add_custom(uint8_t*);\n__global__ void exp(GM_ADDR);",
        ]);
        let out = rewrite(src, "k.asc", &index).unwrap().unwrap();
        assert!(
            out.starts_with("#include \"ascendc/kernel_entry.h\"\n#line 1 \"k.asc\"\n"),
            "{out}"
        );
        let lines: Vec<&str> = body(&out).lines().collect();
        assert_eq!(lines.len(), src.lines().count());
        assert!(lines[0].starts_with("extern \"C++\" __global__ __aicore__ void sqrt("));
        assert_eq!(lines[1], "extern \"C++\" void add_custom(uint8_t* x);");
        assert_eq!(lines[2], "extern \"C\" int printf(const char* f, ...);");
        assert_eq!(lines[4], "extern \"C++\" void exp(GM_ADDR x);");
        assert_eq!(lines[5], "int other(int);");
        assert_eq!(lines[6], "extern \"C++\" __global__ void log(GM_ADDR x) { (void)::AscendC::detail::UnqualifiedKernelEntry<void (*)(GM_ADDR x), &log, ASCENDC_KERNEL_DEFAULT_MIX>::registered;}");
        assert!(lines[8].starts_with("#define KERNEL_DEF(name) extern \"C++\" __global__"));
    }

    #[test]
    fn qualified_definitions_record_their_ratio_at_the_start_of_the_body() {
        let src = concat!(
            "__global__ __mix__(1, 2) void mixed(GM_ADDR x, int32_t n = 4) {\n}\n",
            "template <typename T, int N, typename = void, int, typename... Ts>\n",
            "__global__ __cube__ void tk(__gm__ T* x, Ts... rest) { }\n",
            "extern \"C\" __global__ __vector__ __aicore__ void abs(GM_ADDR x);\n",
            "__global__ __aicore__ void plain(GM_ADDR x) { }\n",
        );
        let out = rewrite(src, "k.asc", &KernelIndex::of_texts(&[src]))
            .unwrap()
            .unwrap();
        assert!(
            out.starts_with("#include \"ascendc/kernel_entry.h\"\n#line 1"),
            "{out}"
        );
        let lines: Vec<&str> = body(&out).lines().collect();
        assert_eq!(lines.len(), src.lines().count());
        let entry = " (void)::AscendC::detail::KernelEntry<";
        assert_eq!(
            lines[0],
            format!("__global__ __mix__(1, 2) void mixed(GM_ADDR x, int32_t n = 4) {{{entry}void (*)(GM_ADDR x, int32_t n), &mixed, 1, 2>::registered;")
        );
        assert_eq!(
            lines[2],
            "template <typename T, int N, typename ascendc_tparam2 = void, int ascendc_tparam3, typename... Ts>"
        );
        assert_eq!(
            lines[3],
            format!("__global__ __cube__ void tk(__gm__ T* x, Ts... rest) {{{entry}void (*)(__gm__ T* x, Ts... rest), &tk<T, N, ascendc_tparam2, ascendc_tparam3, Ts...>, 1, 0>::registered; }}")
        );
        assert_eq!(
            lines[4],
            "extern \"C++\" __global__ __vector__ __aicore__ void abs(GM_ADDR x);"
        );
        // Without a qualifier the headers decide (ASCENDC_KERNEL_DEFAULT_MIX).
        assert_eq!(lines[5], "__global__ __aicore__ void plain(GM_ADDR x) { (void)::AscendC::detail::UnqualifiedKernelEntry<void (*)(GM_ADDR x), &plain, ASCENDC_KERNEL_DEFAULT_MIX>::registered; }");
    }

    #[test]
    fn the_branches_of_an_if_declaring_one_kernel_each_record_their_own_qualifier() {
        let src = concat!(
            "#if SCENARIO == 2\n",
            "extern \"C\" __global__ __cube__ void k(GM_ADDR x)\n",
            "#else\n",
            "extern \"C\" __global__ __aicore__ void k(GM_ADDR x)\n",
            "#endif\n",
            "{\n}\n",
        );
        let out = rewrite(src, "k.asc", &KernelIndex::of_texts(&[src]))
            .unwrap()
            .unwrap();
        let lines: Vec<&str> = body(&out).lines().collect();
        assert_eq!(lines.len(), src.lines().count());
        assert!(
            lines[1].starts_with("void ascendc_kq_k(::AscendC::detail::KernelQual<1, 0>); extern"),
            "{out}"
        );
        assert!(
            lines[3]
                .starts_with("void ascendc_kq_k(::AscendC::detail::KernelQual<-1, -1>); extern"),
            "{out}"
        );
        assert!(lines[5].contains("BranchKernelEntry<void (*)(GM_ADDR x), &k, decltype(::AscendC::detail::QualOf(&ascendc_kq_k)), ASCENDC_KERNEL_DEFAULT_MIX>::registered;"), "{out}");
    }

    #[test]
    fn two_qualifiers_are_an_error() {
        let src = "\n__global__ __cube__ __mix__(1, 2) void k(GM_ADDR x) {}\n";
        let e = rewrite(src, "k.asc", &KernelIndex::of_texts(&[src])).unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        assert!(e.message.contains("two execution-space qualifiers"), "{e}");
    }

    #[test]
    fn macros_declaring_qualified_kernels_record_them_at_each_definition() {
        let src = concat!(
            "#define KERNEL_DEF(name, T) extern \"C\" __global__ __mix__(1, 2) void name(__gm__ T* x, \\\n    GM_ADDR y)\n",
            "#define BODY_DEF(name) __global__ __cube__ void name(GM_ADDR x) { run(x); }\n",
            "KERNEL_DEF(add_custom, float) {\n}\n",
            "KERNEL_DEF(declared_only, half);\n",
            "BODY_DEF(cube_kernel)\n",
        );
        let index = KernelIndex::of_texts(&[src]);
        let out = rewrite(src, "k.asc", &index).unwrap().unwrap();
        let entry = "(void)::AscendC::detail::KernelEntry<";
        assert!(
            out.starts_with(&format!("#include \"ascendc/kernel_entry.h\"\n#define ascendc_kernel_entry_KERNEL_DEF(name, T) {entry}void (*)(__gm__ T* x, GM_ADDR y), &name, 1, 2>::registered;\n#line 1")),
            "{out}"
        );
        let lines: Vec<&str> = body(&out).lines().collect();
        assert_eq!(lines.len(), src.lines().count());
        assert_eq!(
            lines[2],
            format!("#define BODY_DEF(name) __global__ __cube__ void name(GM_ADDR x) {{ {entry}void (*)(GM_ADDR x), &name, 1, 0>::registered; run(x); }}")
        );
        assert_eq!(
            lines[3],
            "KERNEL_DEF(add_custom, float) { ascendc_kernel_entry_KERNEL_DEF(add_custom, float)"
        );
        assert_eq!(lines[5], "KERNEL_DEF(declared_only, half);");
    }
}
