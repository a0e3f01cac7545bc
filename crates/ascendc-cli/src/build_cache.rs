//! The build cache of `ascendc run` and `ascendc op run`: compiled objects and linked programs
//! stored under the hash of everything that decides their bytes, so that an unchanged re-run
//! skips the C++ compiler and the linker.
//!
//! An object's key hashes the compiler (its path, size and modification time), its arguments,
//! the working directory, the compile-relevant environment and the source's text; beside the
//! object the cache keeps the files the compiler read (its `-MD` list) with their sizes,
//! modification times and hashes, and a hit requires each of them unchanged (by size and time,
//! else by content). A program's key hashes the linker arguments, its objects' keys and the
//! simulator library's identity. Per-run temporary files (rewritten `<<<>>>` sources, the
//! product registration, `op run`'s generated files) enter by content: their directory is
//! replaced by a placeholder.
//!
//! Location: `$ASCENDC_CACHE_DIR`, else `$XDG_CACHE_HOME/ascendc`, else `~/.cache/ascendc`;
//! `ASCENDC_CACHE=0` turns it off. The cache keeps at most [`LIMIT_BYTES`], dropping the
//! least recently used entries first. A header that appears later in an earlier include
//! directory (shadowing one the compiler read) is not noticed: `ASCENDC_CACHE=0` rebuilds.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Most bytes the cache keeps (objects, their dependency lists and programs).
pub const LIMIT_BYTES: u64 = 1 << 30;

/// Environment variables that change what the compiler or linker produces.
const BUILD_ENV: [&str; 7] = [
    "CPATH",
    "CPLUS_INCLUDE_PATH",
    "C_INCLUDE_PATH",
    "GCC_EXEC_PREFIX",
    "COMPILER_PATH",
    "LIBRARY_PATH",
    "SOURCE_DATE_EPOCH",
];

/// Marks the per-run temporary directory inside keys and dependency lists.
const TMP_MARK: &str = "<run-tmp>";

/// A cache key under construction: every part is length-prefixed, so no two part lists hash
/// alike.
pub struct Key(blake3::Hasher);

impl Key {
    /// A key for entries of `kind` (`object` or `program`).
    pub fn new(kind: &str) -> Key {
        let mut k = Key(blake3::Hasher::new());
        k.add(env!("CARGO_PKG_VERSION").as_bytes());
        k.add(kind.as_bytes());
        for v in BUILD_ENV {
            k.add(v.as_bytes());
            k.add(std::env::var_os(v).unwrap_or_default().as_encoded_bytes());
        }
        k
    }

    /// Adds one part.
    pub fn add(&mut self, part: &[u8]) {
        self.0.update(&(part.len() as u64).to_le_bytes());
        self.0.update(part);
    }

    /// Adds an argument, its mentions of the run's temporary directory `tmp` replaced by a
    /// placeholder.
    pub fn add_arg(&mut self, arg: &str, tmp: &Path) {
        self.add(relative_to_run(arg, tmp).as_bytes());
    }

    /// Adds a file's identity: canonical path, size and modification time (for the compiler
    /// and the simulator library, whose bytes are large and change only with them).
    pub fn add_file_identity(&mut self, path: &Path) {
        let p = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        self.add(p.as_os_str().as_encoded_bytes());
        let (len, time) = stamp(&p).unwrap_or((u64::MAX, 0));
        self.add(&len.to_le_bytes());
        self.add(&time.to_le_bytes());
    }

    /// Adds a file's contents ([`content_hash`]; a marker when it cannot be read).
    pub fn add_file_contents(&mut self, path: &Path, tmp: &Path) {
        match content_hash(path, tmp) {
            Some(h) => self.add(h.as_bytes()),
            None => self.add(b"<unreadable>"),
        }
    }

    /// The key as hex digits.
    pub fn finish(&self) -> String {
        self.0.finalize().to_hex().to_string()
    }
}

fn relative_to_run(text: &str, tmp: &Path) -> String {
    text.replace(&*tmp.to_string_lossy(), TMP_MARK)
}

/// The hash of a file's contents; a file of the run's temporary directory `tmp` (a rewritten
/// source, a generated launcher) is hashed with its mentions of that directory replaced by the
/// placeholder, as they only name the file itself (`#line`) in its diagnostics.
fn content_hash(path: &Path, tmp: &Path) -> Option<blake3::Hash> {
    let bytes = std::fs::read(path).ok()?;
    let dir = tmp.to_string_lossy();
    if !path.starts_with(tmp) || dir.is_empty() {
        return Some(blake3::hash(&bytes));
    }
    let mut h = blake3::Hasher::new();
    let mut rest = &bytes[..];
    while let Some(at) = rest.windows(dir.len()).position(|w| w == dir.as_bytes()) {
        h.update(&rest[..at]);
        h.update(TMP_MARK.as_bytes());
        rest = &rest[at + dir.len()..];
    }
    h.update(rest);
    Some(h.finalize())
}

/// Size in bytes and modification time in nanoseconds since the epoch.
fn stamp(path: &Path) -> Option<(u64, u128)> {
    let m = std::fs::metadata(path).ok()?;
    let t = m.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    Some((m.len(), t.as_nanos()))
}

/// An open cache directory.
pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    /// The cache, or `None` when it is turned off or its directory cannot be made.
    pub fn open() -> Option<Cache> {
        if std::env::var("ASCENDC_CACHE").is_ok_and(|v| matches!(v.as_str(), "0" | "off" | "no")) {
            return None;
        }
        let dir = std::env::var_os("ASCENDC_CACHE_DIR")
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("ascendc"))
            })
            .or_else(|| {
                std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/ascendc"))
            })?;
        std::fs::create_dir_all(&dir).ok()?;
        Some(Cache { dir })
    }

    fn path(&self, key: &str, ext: &str) -> PathBuf {
        self.dir.join(format!("{key}.{ext}"))
    }

    /// The cached object of `key` and the compiler's messages when it was built, when every
    /// file the compiler read then is unchanged (`tmp`: this run's temporary directory).
    pub fn object(&self, key: &str, tmp: &Path) -> Option<(PathBuf, String)> {
        let obj = self.path(key, "o");
        let deps = std::fs::read_to_string(self.path(key, "deps")).ok()?;
        if !obj.is_file() || !deps_unchanged(&deps, tmp) {
            return None;
        }
        touch(&obj);
        let messages = std::fs::read_to_string(self.path(key, "err")).unwrap_or_default();
        Some((obj, messages))
    }

    /// Stores `obj` under `key` with the files listed in the compiler's dependency file
    /// `depfile` and its `messages` (nothing when a listed file cannot be read).
    pub fn store_object(&self, key: &str, obj: &Path, depfile: &Path, messages: &str, tmp: &Path) {
        let Some(list) = std::fs::read_to_string(depfile)
            .ok()
            .and_then(|d| dependency_list(&d, tmp))
        else {
            return;
        };
        // The object last: a lookup finds an object only with its list and messages.
        let _ = self.put(&self.path(key, "err"), messages.as_bytes())
            && self.put(&self.path(key, "deps"), list.as_bytes())
            && std::fs::read(obj).is_ok_and(|bytes| self.put(&self.path(key, "o"), &bytes));
        self.prune();
    }

    /// The cached program of `key`.
    pub fn program(&self, key: &str) -> Option<PathBuf> {
        let p = self.path(key, "exe");
        p.is_file().then(|| {
            touch(&p);
            p
        })
    }

    /// Stores the program `exe` under `key`.
    pub fn store_program(&self, key: &str, exe: &Path) {
        if let Ok(bytes) = std::fs::read(exe) {
            let to = self.path(key, "exe");
            if self.put(&to, &bytes) {
                use std::os::unix::fs::PermissionsExt;
                let _ = std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o755));
            }
        }
        self.prune();
    }

    /// Writes `bytes` to `to` whole or not at all (a temporary file renamed into place, so
    /// concurrent runs never see half an entry).
    fn put(&self, to: &Path, bytes: &[u8]) -> bool {
        let Ok(mut f) = tempfile::NamedTempFile::new_in(&self.dir) else {
            return false;
        };
        f.write_all(bytes).is_ok() && f.persist(to).is_ok()
    }

    /// Drops the least recently used entries while the cache holds more than [`LIMIT_BYTES`]
    /// (down to three quarters of it).
    fn prune(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let mut files: Vec<(SystemTime, u64, PathBuf)> = entries
            .flatten()
            .filter_map(|e| {
                let m = e.metadata().ok()?;
                m.is_file()
                    .then(|| (m.modified().unwrap_or(UNIX_EPOCH), m.len(), e.path()))
            })
            .collect();
        let mut total: u64 = files.iter().map(|f| f.1).sum();
        if total <= LIMIT_BYTES {
            return;
        }
        files.sort();
        for (_, len, path) in files {
            if total <= LIMIT_BYTES / 4 * 3 {
                break;
            }
            if std::fs::remove_file(&path).is_ok() {
                total -= len;
            }
        }
    }
}

/// Marks an entry as used now (pruning drops the oldest first).
fn touch(path: &Path) {
    if let Ok(f) = std::fs::File::options().append(true).open(path) {
        let _ = f.set_modified(SystemTime::now());
    }
}

/// The files of a make-style dependency file (`target: dep dep \` lines; `\ ` escapes a
/// space, `$$` a dollar).
fn dependencies(text: &str) -> Vec<String> {
    let body = text.split_once(": ").map_or(text, |(_, b)| b);
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'\n') => {
                chars.next();
            }
            '\\' if chars.peek() == Some(&' ') => {
                cur.push(' ');
                chars.next();
            }
            '$' if chars.peek() == Some(&'$') => {
                cur.push('$');
                chars.next();
            }
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// One line per file the compiler read: size, modification time, content hash, path (this
/// run's temporary directory as a placeholder). `None` when a file cannot be read.
fn dependency_list(depfile: &str, tmp: &Path) -> Option<String> {
    let mut out = String::new();
    for dep in dependencies(depfile) {
        let path = Path::new(&dep);
        let (len, time) = stamp(path)?;
        let hash = content_hash(path, tmp)?;
        let shown = relative_to_run(&dep, tmp);
        out.push_str(&format!("{len}\t{time}\t{}\t{shown}\n", hash.to_hex()));
    }
    Some(out)
}

/// True when every file of a stored dependency list is unchanged: same size and time, or the
/// same contents.
fn deps_unchanged(list: &str, tmp: &Path) -> bool {
    let run_dir = tmp.to_string_lossy();
    list.lines().all(|line| {
        let mut parts = line.splitn(4, '\t');
        let (Some(len), Some(time), Some(hash), Some(path)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return false;
        };
        let path = PathBuf::from(path.replace(TMP_MARK, &run_dir));
        match stamp(&path) {
            Some((l, t)) if l.to_string() == len && t.to_string() == time => true,
            // A run's own file may differ in length by its directory's name.
            Some(_) => content_hash(&path, tmp).is_some_and(|h| h.to_hex().as_str() == hash),
            None => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependency_files_split_into_paths() {
        let d = "obj.o: a.cpp /x/b\\ c.h \\\n /y/$$d.h\n";
        assert_eq!(dependencies(d), ["a.cpp", "/x/b c.h", "/y/$d.h"]);
    }

    #[test]
    fn an_entry_is_found_only_while_its_files_are_unchanged() {
        let root = tempfile::tempdir().unwrap();
        let run = root.path().join("run1");
        std::fs::create_dir_all(&run).unwrap();
        let header = root.path().join("h.h");
        std::fs::write(&header, "#define A 1\n").unwrap();
        std::fs::write(run.join("gen.cpp"), "int x;\n").unwrap();
        let cache = Cache {
            dir: root.path().join("cache"),
        };
        std::fs::create_dir_all(&cache.dir).unwrap();
        let obj = run.join("o.o");
        std::fs::write(&obj, b"object bytes").unwrap();
        let depfile = run.join("o.d");
        let deps = format!(
            "{}: {}/gen.cpp {}\n",
            obj.display(),
            run.display(),
            header.display()
        );
        std::fs::write(&depfile, deps).unwrap();
        cache.store_object("k1", &obj, &depfile, "warning: w\n", &run);
        let stored = cache.path("k1", "o");
        assert_eq!(std::fs::read(&stored).unwrap(), b"object bytes");

        // A later run: another temporary directory with the same generated file.
        let run2 = root.path().join("run2");
        std::fs::create_dir_all(&run2).unwrap();
        std::fs::write(run2.join("gen.cpp"), "int x;\n").unwrap();
        let (hit, messages) = cache.object("k1", &run2).expect("a hit");
        assert_eq!((hit, messages.as_str()), (stored.clone(), "warning: w\n"));
        assert!(cache.object("k2", &run2).is_none());

        // A generated file with other contents, then a changed header: misses.
        std::fs::write(run2.join("gen.cpp"), "int y;\n").unwrap();
        assert!(cache.object("k1", &run2).is_none());
        std::fs::write(run2.join("gen.cpp"), "int x;\n").unwrap();
        std::fs::write(&header, "#define A 2\n").unwrap();
        assert!(cache.object("k1", &run2).is_none());
        std::fs::remove_file(&header).unwrap();
        assert!(cache.object("k1", &run2).is_none());
    }

    #[test]
    fn a_run_file_naming_its_own_directory_hashes_alike_in_every_run() {
        let root = tempfile::tempdir().unwrap();
        let (a, b) = (root.path().join("r1"), root.path().join("run22"));
        for d in [&a, &b] {
            std::fs::create_dir_all(d).unwrap();
            let text = format!("#line 1 \"{0}/k.cpp\"\nint x; // {0}\n", d.display());
            std::fs::write(d.join("k.cpp"), text).unwrap();
        }
        let (ha, hb) = (
            content_hash(&a.join("k.cpp"), &a).unwrap(),
            content_hash(&b.join("k.cpp"), &b).unwrap(),
        );
        assert_eq!(ha, hb);
        // Outside the run's directory the bytes are hashed as they are.
        assert_ne!(content_hash(&b.join("k.cpp"), &a).unwrap(), hb);
    }

    #[test]
    fn keys_differ_by_every_part_and_not_by_the_run_directory() {
        let (a, b) = (Path::new("/tmp/r1"), Path::new("/tmp/r2"));
        let key = |parts: &[&str], tmp: &Path| {
            let mut k = Key::new("object");
            for p in parts {
                k.add_arg(p, tmp);
            }
            k.finish()
        };
        assert_eq!(
            key(&["-O1", "/tmp/r1/x.cpp"], a),
            key(&["-O1", "/tmp/r2/x.cpp"], b)
        );
        assert_ne!(key(&["-O1", "x"], a), key(&["-O2", "x"], a));
        assert_ne!(key(&["-O1x"], a), key(&["-O1", "x"], a));
    }
}
