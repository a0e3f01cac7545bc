//! Chrome trace-event JSON (read by Perfetto, `chrome://tracing` and speedscope): timestamps in
//! µs at the product's clock, one process per core, one thread per pipe.

use super::Timeline;
use crate::core::trace::{InstrKind, Pipe};
use std::fmt::Write;

/// Quotes a string as a JSON string.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
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
    out.push('"');
    out
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
    let mut ev: Vec<String> = Vec::new();
    for (pid, c) in t.cores.iter().enumerate() {
        ev.push(format!(
            r#"{{"ph":"M","name":"process_name","pid":{pid},"tid":0,"args":{{"name":{}}}}}"#,
            quote(&format!("{} (block {})", c.core, c.core.block_idx))
        ));
        ev.push(format!(
            r#"{{"ph":"M","name":"process_sort_index","pid":{pid},"tid":0,"args":{{"sort_index":{pid}}}}}"#
        ));
        for p in Pipe::ALL_PIPES {
            if p == Pipe::ALL || !c.slices.iter().any(|s| lane(s.pipe) == p) {
                continue;
            }
            let tid = p as usize;
            ev.push(format!(
                r#"{{"ph":"M","name":"thread_name","pid":{pid},"tid":{tid},"args":{{"name":"{}"}}}}"#,
                pipe_name(p)
            ));
            ev.push(format!(
                r#"{{"ph":"M","name":"thread_sort_index","pid":{pid},"tid":{tid},"args":{{"sort_index":{tid}}}}}"#
            ));
        }
        for (s, k) in c.slices.iter().zip(&c.costs) {
            let name = match s.kind {
                InstrKind::Op | InstrKind::Barrier => s.api.to_string(),
                InstrKind::SetFlag(e, id) => format!("SetFlag<{e:?}>({id})"),
                InstrKind::WaitFlag(e, id) => format!("WaitFlag<{e:?}>({id})"),
            };
            // The slice is the pipe's occupancy (slices of one pipe never overlap, as the
            // trace-event format requires of one thread); the result latency goes in `args`.
            let mut args = format!(
                r#""source":{},"api":{},"cycles":{},"start_cycle":{},"result_cycle":{}"#,
                quote(&s.location.to_string()),
                quote(s.api),
                s.busy_end - s.start,
                s.start,
                s.end
            );
            if k.busy > k.ideal {
                let _ = write!(args, r#","bank_conflict_cycles":{}"#, k.busy - k.ideal);
            }
            if k.gm_bytes > 0 {
                let _ = write!(args, r#","gm_bytes":{}"#, k.gm_bytes);
            }
            ev.push(format!(
                r#"{{"ph":"X","name":{},"cat":"{}","pid":{pid},"tid":{},"ts":{},"dur":{},"args":{{{args}}}}}"#,
                quote(&name),
                pipe_name(lane(s.pipe)),
                lane(s.pipe) as usize,
                us(s.start),
                us(s.busy_end) - us(s.start),
            ));
        }
        for (n, f) in c.flows.iter().enumerate() {
            let id = (pid << 20) | n;
            let (a, b) = (&c.slices[f.set], &c.slices[f.wait]);
            let name = quote(&format!("{:?}({})", f.event, f.id));
            ev.push(format!(
                r#"{{"ph":"s","name":{name},"cat":"flag","id":{id},"pid":{pid},"tid":{},"ts":{}}}"#,
                lane(a.pipe) as usize,
                us(a.start)
            ));
            ev.push(format!(
                r#"{{"ph":"f","bp":"e","name":{name},"cat":"flag","id":{id},"pid":{pid},"tid":{},"ts":{}}}"#,
                lane(b.pipe) as usize,
                us(b.start.max(a.start))
            ));
        }
    }
    let mut out = String::from("{\"displayTimeUnit\":\"ns\",\"otherData\":{");
    let _ = writeln!(
        out,
        "\"product\":{},\"clock_ghz\":{},\"model\":\"ascendc-sim timing estimate\"}},\"traceEvents\":[",
        quote(t.profile.soc),
        t.table.clock_ghz
    );
    out.push_str(&ev.join(",\n"));
    out.push_str("\n]}\n");
    out
}
