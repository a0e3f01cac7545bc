//! A small JSON parser and a checker of the Chrome trace-event format (the JSON object form that
//! Perfetto, `chrome://tracing` and speedscope read): event phases and their required fields,
//! metadata naming every process and thread used, and flow arrows that start and finish.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap, HashSet};

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    /// Parses a whole document.
    pub fn parse(text: &str) -> Result<Json, String> {
        let mut p = Parser {
            s: text.as_bytes(),
            i: 0,
        };
        let v = p.value()?;
        p.ws();
        if p.i != p.s.len() {
            return Err(format!("trailing characters at byte {}", p.i));
        }
        Ok(v)
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.get(key),
            _ => None,
        }
    }

    pub fn str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn num(&self) -> Option<f64> {
        match self {
            Json::Num(n) => Some(*n),
            _ => None,
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\n' | b'\r' | b'\t') {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Result<(), String> {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("expected `{}` at byte {}", c as char, self.i))
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.s.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                let mut m = BTreeMap::new();
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Json::Obj(m));
                }
                loop {
                    self.ws();
                    let k = self.string()?;
                    self.eat(b':')?;
                    let v = self.value()?;
                    if m.insert(k.clone(), v).is_some() {
                        return Err(format!("duplicate key `{k}`"));
                    }
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Json::Obj(m));
                        }
                        _ => return Err(format!("expected `,` or `}}` at byte {}", self.i)),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut v = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Json::Arr(v));
                }
                loop {
                    v.push(self.value()?);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Json::Arr(v));
                        }
                        _ => return Err(format!("expected `,` or `]` at byte {}", self.i)),
                    }
                }
            }
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') if self.s[self.i..].starts_with(b"true") => {
                self.i += 4;
                Ok(Json::Bool(true))
            }
            Some(b'f') if self.s[self.i..].starts_with(b"false") => {
                self.i += 5;
                Ok(Json::Bool(false))
            }
            Some(b'n') if self.s[self.i..].starts_with(b"null") => {
                self.i += 4;
                Ok(Json::Null)
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                while self.i < self.s.len()
                    && matches!(
                        self.s[self.i],
                        b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                    )
                {
                    self.i += 1;
                }
                let t = std::str::from_utf8(&self.s[start..self.i]).unwrap();
                t.parse()
                    .map(Json::Num)
                    .map_err(|_| format!("bad number `{t}` at byte {start}"))
            }
            _ => Err(format!("unexpected input at byte {}", self.i)),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        if self.s.get(self.i) != Some(&b'"') {
            return Err(format!("expected a string at byte {}", self.i));
        }
        self.i += 1;
        let mut out = Vec::new();
        while let Some(&c) = self.s.get(self.i) {
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(out).map_err(|e| e.to_string()),
                b'\\' => {
                    let e = *self.s.get(self.i).ok_or("unterminated escape")?;
                    self.i += 1;
                    match e {
                        b'"' | b'\\' | b'/' => out.push(e),
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'u' => {
                            let h = std::str::from_utf8(&self.s[self.i..self.i + 4])
                                .map_err(|e| e.to_string())?;
                            let cp = u32::from_str_radix(h, 16).map_err(|e| e.to_string())?;
                            self.i += 4;
                            let ch = char::from_u32(cp).ok_or("bad \\u escape")?;
                            out.extend(ch.to_string().as_bytes());
                        }
                        _ => return Err(format!("bad escape at byte {}", self.i)),
                    }
                }
                c if c < 0x20 => return Err(format!("control character in string at {}", self.i)),
                c => out.push(c),
            }
        }
        Err("unterminated string".into())
    }
}

/// What a valid trace holds.
#[derive(Debug, Default)]
pub struct Summary {
    /// Processes named by `process_name` metadata.
    pub processes: usize,
    /// (pid, thread name) of every `thread_name` metadata event.
    pub threads: HashSet<(u64, String)>,
    /// Complete events per name.
    pub complete_by_name: HashMap<String, usize>,
    /// Flow arrows (start/finish pairs).
    pub flows: usize,
    /// `args.source` of every complete event.
    pub sources: HashSet<String>,
}

fn field<'a>(e: &'a Json, k: &str, n: usize) -> Result<&'a Json, String> {
    e.get(k).ok_or(format!("event {n} has no `{k}`"))
}

fn uint(e: &Json, k: &str, n: usize) -> Result<u64, String> {
    let v = field(e, k, n)?
        .num()
        .ok_or(format!("event {n}: `{k}` is not a number"))?;
    if v < 0.0 || v.fract() != 0.0 {
        return Err(format!(
            "event {n}: `{k}` = {v} is not a non-negative integer"
        ));
    }
    Ok(v as u64)
}

fn time(e: &Json, k: &str, n: usize) -> Result<f64, String> {
    let v = field(e, k, n)?
        .num()
        .ok_or(format!("event {n}: `{k}` is not a number"))?;
    if !(v >= 0.0 && v.is_finite()) {
        return Err(format!("event {n}: `{k}` = {v} is negative"));
    }
    Ok(v)
}

/// Checks the trace-event JSON object format: `traceEvents` an array of objects, each with a
/// known `ph`; `X` with string `name`, integer `pid`/`tid`, non-negative `ts`/`dur` and an
/// object `args`, slices of one thread nested or disjoint; `M` naming processes and threads through `args.name`; `s`/`f` flow events
/// with `id`, `cat` and `name`, every start finished once, never before it started; and every
/// (pid, tid) carrying events named by metadata.
pub fn validate(doc: &Json) -> Result<Summary, String> {
    let events = match doc.get("traceEvents") {
        Some(Json::Arr(v)) => v,
        _ => return Err("no `traceEvents` array".into()),
    };
    if let Some(u) = doc.get("displayTimeUnit") {
        if !matches!(u.str(), Some("ms" | "ns")) {
            return Err("`displayTimeUnit` must be \"ms\" or \"ns\"".into());
        }
    }
    let mut s = Summary::default();
    let mut procs = HashSet::new();
    let mut named_threads = HashSet::new();
    let mut used = HashSet::new();
    let mut slices: HashMap<(u64, u64), Vec<(f64, f64)>> = HashMap::new();
    let mut starts: HashMap<(String, u64), f64> = HashMap::new();
    let mut finishes: HashMap<(String, u64), f64> = HashMap::new();
    for (n, e) in events.iter().enumerate() {
        if !matches!(e, Json::Obj(_)) {
            return Err(format!("event {n} is not an object"));
        }
        let ph = field(e, "ph", n)?
            .str()
            .ok_or(format!("event {n}: `ph` is not a string"))?;
        let pid = uint(e, "pid", n)?;
        let tid = uint(e, "tid", n)?;
        let name = field(e, "name", n)?
            .str()
            .ok_or(format!("event {n}: `name` is not a string"))?;
        match ph {
            "X" => {
                let ts = time(e, "ts", n)?;
                let dur = time(e, "dur", n)?;
                slices.entry((pid, tid)).or_default().push((ts, ts + dur));
                let args = field(e, "args", n)?;
                if !matches!(args, Json::Obj(_)) {
                    return Err(format!("event {n}: `args` is not an object"));
                }
                if let Some(src) = args.get("source").and_then(Json::str) {
                    s.sources.insert(src.to_string());
                }
                used.insert((pid, tid));
                *s.complete_by_name.entry(name.to_string()).or_default() += 1;
            }
            "M" => {
                let arg = field(e, "args", n)?;
                match name {
                    "process_name" | "thread_name" => {
                        let v = arg
                            .get("name")
                            .and_then(Json::str)
                            .ok_or(format!("event {n}: metadata without `args.name`"))?;
                        if name == "process_name" {
                            procs.insert(pid);
                        } else {
                            named_threads.insert((pid, tid));
                            s.threads.insert((pid, v.to_string()));
                        }
                    }
                    "process_sort_index" | "thread_sort_index" => {
                        arg.get("sort_index")
                            .and_then(Json::num)
                            .ok_or(format!("event {n}: sort index without a number"))?;
                    }
                    other => return Err(format!("event {n}: unknown metadata `{other}`")),
                }
            }
            "s" | "f" => {
                let ts = time(e, "ts", n)?;
                field(e, "cat", n)?
                    .str()
                    .ok_or(format!("event {n}: `cat` is not a string"))?;
                let id = uint(e, "id", n)?;
                if ph == "f" && e.get("bp").and_then(Json::str) != Some("e") {
                    return Err(format!(
                        "event {n}: a flow finish must bind to its enclosing slice (`bp`: \"e\")"
                    ));
                }
                let map = if ph == "s" {
                    &mut starts
                } else {
                    &mut finishes
                };
                if map.insert((name.to_string(), id), ts).is_some() {
                    return Err(format!("event {n}: flow id {id} used twice"));
                }
                used.insert((pid, tid));
            }
            other => return Err(format!("event {n}: unexpected phase `{other}`")),
        }
    }
    for (k, ts) in &starts {
        let f = finishes
            .get(k)
            .ok_or(format!("flow {k:?} starts but never finishes"))?;
        if f < ts {
            return Err(format!(
                "flow {k:?} finishes at {f} before it starts at {ts}"
            ));
        }
    }
    if finishes.len() != starts.len() {
        return Err("a flow finishes without a start".into());
    }
    // Slices of one thread nest or are disjoint: a slice that starts inside another ends inside it.
    for ((pid, tid), v) in &mut slices {
        v.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.total_cmp(&a.1)));
        let mut open: Vec<(f64, f64)> = Vec::new();
        for &(a, b) in v.iter() {
            while open.last().is_some_and(|o| o.1 <= a) {
                open.pop();
            }
            if let Some(o) = open.last() {
                if b > o.1 {
                    return Err(format!(
                        "pid {pid} tid {tid}: slice [{a}, {b}] overlaps [{}, {}] without nesting",
                        o.0, o.1
                    ));
                }
            }
            open.push((a, b));
        }
    }
    for (pid, tid) in &used {
        if !procs.contains(pid) {
            return Err(format!("pid {pid} has no process_name"));
        }
        if !named_threads.contains(&(*pid, *tid)) {
            return Err(format!("pid {pid} tid {tid} has no thread_name"));
        }
    }
    s.processes = procs.len();
    s.flows = starts.len();
    Ok(s)
}
