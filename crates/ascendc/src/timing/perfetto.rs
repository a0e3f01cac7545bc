//! Chrome trace-event JSON (read by Perfetto, `chrome://tracing` and speedscope): timestamps in
//! µs at the product's clock, one process per core, one thread per pipe.

use super::Timeline;
use crate::core::trace::{InstrKind, Pipe};
use crate::error::SourceLoc;
use rustc_hash::FxHashMap;
use std::fmt::Write;

/// Appends `s` to `out` as a JSON string.
fn quote(out: &mut String, s: &str) {
    out.push('"');
    if !s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push_str(s);
    } else {
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                }
                c => out.push(c),
            }
        }
    }
    out.push('"');
}

/// Appends what `f` writes to `out` as a JSON string (`scratch` holds the unquoted text).
fn quote_with(out: &mut String, scratch: &mut String, f: impl FnOnce(&mut String)) {
    scratch.clear();
    f(scratch);
    quote(out, scratch);
}

/// The pipe's thread name (`MTE2`, `V`, …).
fn pipe_name(p: Pipe) -> &'static str {
    p.c_name().trim_start_matches("PIPE_")
}

/// The thread an instruction is drawn on: its pipe, `PIPE_ALL` barriers on the scalar unit's.
fn lane(p: Pipe) -> Pipe {
    if p == Pipe::ALL {
        Pipe::S
    } else {
        p
    }
}

pub(super) fn render(t: &Timeline) -> String {
    // µs rounded to a multiple of 2^-12 µs (0.24 ns, finer than a cycle): such binary fractions
    // add exactly, so a slice's ts + dur equals the next slice's ts when they touch, in any
    // reader's double arithmetic.
    let us = |cycles: u64| (t.table.micros(cycles) * 4096.0).round() / 4096.0;
    let mut out = String::from("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"product\":");
    quote(&mut out, t.profile.soc);
    let _ = writeln!(
        out,
        ",\"clock_ghz\":{},\"model\":\"ascendc-sim timing estimate\"}},\"traceEvents\":[",
        t.table.clock_ghz
    );
    let bytes: usize = t.cores.iter().map(|c| 300 * c.slices.len()).sum();
    out.reserve(bytes);
    let mut scratch = String::new();
    // The quoted text of each call site, made once.
    let mut sources: FxHashMap<SourceLoc, String> = FxHashMap::default();
    // Events are separated by ",\n".
    let mut first = true;
    let mut next = |out: &mut String| {
        if !std::mem::take(&mut first) {
            out.push_str(",\n");
        }
    };
    for (pid, c) in t.cores.iter().enumerate() {
        next(&mut out);
        out.push_str(r#"{"ph":"M","name":"process_name","pid":"#);
        let _ = write!(out, r#"{pid},"tid":0,"args":{{"name":"#);
        quote_with(&mut out, &mut scratch, |s| {
            let _ = write!(s, "{} (block {})", c.core, c.core.block_idx);
        });
        out.push_str("}}");
        next(&mut out);
        let _ = write!(
            out,
            r#"{{"ph":"M","name":"process_sort_index","pid":{pid},"tid":0,"args":{{"sort_index":{pid}}}}}"#
        );
        for p in Pipe::ALL_PIPES {
            if p == Pipe::ALL || !c.slices.iter().any(|s| lane(s.pipe) == p) {
                continue;
            }
            let tid = p as usize;
            next(&mut out);
            let _ = write!(
                out,
                r#"{{"ph":"M","name":"thread_name","pid":{pid},"tid":{tid},"args":{{"name":"{}"}}}}"#,
                pipe_name(p)
            );
            next(&mut out);
            let _ = write!(
                out,
                r#"{{"ph":"M","name":"thread_sort_index","pid":{pid},"tid":{tid},"args":{{"sort_index":{tid}}}}}"#
            );
        }
        for (s, k) in c.slices.iter().zip(&c.costs) {
            next(&mut out);
            out.push_str(r#"{"ph":"X","name":"#);
            match s.kind {
                InstrKind::Op | InstrKind::Barrier => quote(&mut out, s.api),
                InstrKind::SetFlag(e, id) => quote_with(&mut out, &mut scratch, |o| {
                    let _ = write!(o, "SetFlag<{e:?}>({id})");
                }),
                InstrKind::WaitFlag(e, id) => quote_with(&mut out, &mut scratch, |o| {
                    let _ = write!(o, "WaitFlag<{e:?}>({id})");
                }),
            }
            // The slice is the pipe's occupancy (slices of one pipe never overlap, as the
            // trace-event format requires of one thread); the result latency goes in `args`.
            let lane = lane(s.pipe);
            let _ = write!(
                out,
                r#","cat":"{}","pid":{pid},"tid":{},"ts":{},"dur":{},"args":{{"source":"#,
                pipe_name(lane),
                lane as usize,
                us(s.start),
                us(s.busy_end) - us(s.start),
            );
            let source = sources.entry(s.location).or_insert_with(|| {
                let mut q = String::new();
                quote_with(&mut q, &mut scratch, |o| {
                    let _ = write!(o, "{}", s.location);
                });
                q
            });
            out.push_str(source);
            out.push_str(r#","api":"#);
            quote(&mut out, s.api);
            let _ = write!(
                out,
                r#","cycles":{},"start_cycle":{},"result_cycle":{}"#,
                s.busy_end - s.start,
                s.start,
                s.end
            );
            if k.busy > k.ideal {
                let _ = write!(out, r#","bank_conflict_cycles":{}"#, k.busy - k.ideal);
            }
            if k.gm_bytes > 0 {
                let _ = write!(out, r#","gm_bytes":{}"#, k.gm_bytes);
            }
            out.push_str("}}");
        }
        for (n, f) in c.flows.iter().enumerate() {
            let id = (pid << 20) | n;
            let (a, b) = (&c.slices[f.set], &c.slices[f.wait]);
            for (ph, s, ts) in [
                (r#""s""#, a, us(a.start)),
                (r#""f","bp":"e""#, b, us(b.start.max(a.start))),
            ] {
                next(&mut out);
                let _ = write!(out, r#"{{"ph":{ph},"name":"#);
                quote_with(&mut out, &mut scratch, |o| {
                    let _ = write!(o, "{:?}({})", f.event, f.id);
                });
                let _ = write!(
                    out,
                    r#","cat":"flag","id":{id},"pid":{pid},"tid":{},"ts":{ts}}}"#,
                    lane(s.pipe) as usize
                );
            }
        }
    }
    out.push_str("\n]}\n");
    out
}
