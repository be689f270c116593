//! The compile cache: where the build of a program is kept, and whether it is still good.
//!
//! A build is found by a key, the hash of every input of the build: the tool's identity (its
//! path, size and modification time, and what it says of its version: see
//! [`crate::compiler::identity`]), the flags, and the absolute path and content of each file
//! given to the tool: `judge-build/STEM-KEY`. Two identical `sol.c` in two folders, each
//! including its own `lib.h`, thus have two builds. Beside a build, `STEM-KEY.deps` records
//! every file the compiler read, with the hash of its content: for C and C++ the dependency
//! file of `-MD` (the headers under `#include`, the system's too), for Rust the `dep-info` of
//! `rustc` (the files of `mod x;`), for Java and Kotlin every file of the main file's folder. A
//! build is used only while each of those files still hashes the same; a build without its
//! record (made by an older judge) is made again.
//!
//! Judges running at once share the cache safely. A build is looked at and made only under an
//! exclusive lock on `STEM-KEY.lock` (`flock`): of two judges building the same key, one
//! builds and the other waits, then uses the build. The compiler writes into a folder of its
//! own, new for each build (`.build-XXXXXX`, random name, created exclusively); the finished
//! build and its record are then renamed into place, so the path of a build only ever names a
//! complete one, never a file being written.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The most bytes of a source file hashed for the key.
const SOURCE_MAX: u64 = 256 << 20;

/// One build in the cache.
pub struct Entry {
    /// The build: a binary, or a folder of classes.
    pub out: PathBuf,
    /// The files the compiler read, with their hashes.
    record: PathBuf,
    /// The file locked while the entry is looked at or built.
    lock: PathBuf,
}

impl Entry {
    /// The entry for the build of `files` by `tool` (named with its `identity`) with `flags`,
    /// named after `src`, in `dir` (created if missing).
    ///
    /// # Errors
    /// A file cannot be read or is not a regular file, or the folder cannot be made: the path
    /// and the reason.
    pub fn new(
        dir: &Path,
        files: &[PathBuf],
        (tool, identity): (&str, &str),
        flags: &[&str],
        src: &Path,
    ) -> Result<Entry, String> {
        let mut bytes = Vec::new();
        for part in [tool, identity] {
            bytes.extend(part.as_bytes());
            bytes.push(0);
        }
        for flag in flags {
            bytes.extend(flag.as_bytes());
            bytes.push(0);
        }
        bytes.push(0);
        for f in files {
            let content = crate::regular::read_named(f, SOURCE_MAX)?;
            let path = std::path::absolute(f).unwrap_or_else(|_| f.clone());
            bytes.extend((path.as_os_str().len() as u64).to_le_bytes());
            bytes.extend(path.as_os_str().as_encoded_bytes());
            bytes.extend((content.len() as u64).to_le_bytes());
            bytes.extend(&content);
        }
        let key = fnv1a(FNV_START, &bytes);
        let stem = src.file_stem().unwrap_or_default().to_string_lossy();
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = format!("{stem}-{key:016x}");
        Ok(Entry {
            out: dir.join(&name),
            record: dir.join(format!("{name}.deps")),
            lock: dir.join(format!("{name}.lock")),
        })
    }

    /// Takes the entry's lock, waiting for another judge building it to finish.
    ///
    /// # Errors
    /// The lock file cannot be made or locked.
    pub fn lock(&self) -> Result<Locked<'_>, String> {
        let failed = |e: std::io::Error| format!("{}: {e}", self.lock.display());
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&self.lock)
            .map_err(failed)?;
        file.lock().map_err(failed)?;
        Ok(Locked {
            entry: self,
            _file: file,
        })
    }
}

/// An entry locked: no other judge looks at it or builds it until this is dropped.
pub struct Locked<'a> {
    entry: &'a Entry,
    /// Holds the lock; closing it releases it.
    _file: File,
}

/// A build under way: the private folder the compiler writes into, removed when dropped.
pub struct Build {
    folder: tempfile::TempDir,
    /// Where the compiler writes the build (a file, or a folder for Java and Kotlin).
    pub out: PathBuf,
    /// Where the compiler writes its dependency file.
    pub deps: PathBuf,
}

impl Locked<'_> {
    /// Whether the build exists and every file its compiler read still hashes the same.
    #[must_use]
    pub fn fresh(&self) -> bool {
        let entry = self.entry;
        if std::fs::symlink_metadata(&entry.out).is_err() {
            return false;
        }
        let Ok(text) = std::fs::read_to_string(&entry.record) else {
            return false;
        };
        text.lines().all(|line| {
            let Some((hash, path)) = line.split_once(' ') else {
                return false;
            };
            let hash = u64::from_str_radix(hash, 16).ok();
            hash.is_some() && hash == hash_file(Path::new(path))
        })
    }

    /// A new private folder for a build of the entry, beside it in the cache.
    ///
    /// # Errors
    /// The folder cannot be made.
    pub fn start(&self) -> Result<Build, String> {
        let dir = self.entry.out.parent().unwrap_or(Path::new("."));
        let folder = tempfile::Builder::new()
            .prefix(".build-")
            .tempdir_in(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        let out = folder.path().join("out");
        let deps = folder.path().join("out.d");
        Ok(Build { folder, out, deps })
    }

    /// Records the files in `read` (those the compiler read; repeats are recorded once) and
    /// moves the finished `build` in place of any older one, then its record.
    ///
    /// # Errors
    /// A file the compiler read is gone, or the cache cannot be written.
    pub fn commit(&self, build: Build, read: &[PathBuf]) -> Result<(), String> {
        let entry = self.entry;
        let mut text = String::new();
        let mut seen = std::collections::HashSet::new();
        for path in read.iter().filter(|p| seen.insert(*p)) {
            let hash = hash_file(path)
                .ok_or_else(|| format!("{}: read by the compiler, now gone", path.display()))?;
            text += &format!("{hash:016x} {}\n", path.display());
        }
        let failed = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
        let new_record = build.folder.path().join("record");
        std::fs::write(&new_record, text).map_err(|e| failed(&new_record, e))?;
        if entry.out.is_dir() {
            // A folder is not replaced by `rename`: the old one is moved aside, to go with
            // the build's folder.
            let old = build.folder.path().join("old");
            std::fs::rename(&entry.out, &old).map_err(|e| failed(&entry.out, e))?;
        }
        std::fs::rename(&build.out, &entry.out).map_err(|e| failed(&entry.out, e))?;
        std::fs::rename(&new_record, &entry.record).map_err(|e| failed(&entry.record, e))?;
        Ok(())
    }
}

/// The files named in a Makefile dependency file (`gcc -MD`, `rustc --emit=dep-info`): every
/// prerequisite of every rule, unescaped (`\ `, `\#`, `$$`), without repeats, in order.
#[must_use]
pub fn dependencies(text: &str) -> Vec<PathBuf> {
    let joined = text.replace("\\\n", " ");
    let mut found: Vec<PathBuf> = Vec::new();
    for line in joined.lines() {
        if line.starts_with('#') {
            continue;
        }
        let Some((_, prerequisites)) = split_rule(line) else {
            continue;
        };
        for word in words(prerequisites) {
            let path = PathBuf::from(word);
            if !found.contains(&path) {
                found.push(path);
            }
        }
    }
    found
}

/// `target: prerequisites` split at the first `:` followed by a space or the line's end.
fn split_rule(line: &str) -> Option<(&str, &str)> {
    let bytes = line.as_bytes();
    let at = (0..bytes.len()).find(|&i| {
        bytes[i] == b':' && bytes.get(i + 1).is_none_or(|b| *b == b' ' || *b == b'\t')
    })?;
    Some((&line[..at], &line[at + 1..]))
}

/// The words of a list of prerequisites, split at spaces that are not escaped.
fn words(list: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut chars = list.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if matches!(chars.peek(), Some(' ' | '#' | '\\')) => {
                word.extend(chars.next());
            }
            '$' if chars.peek() == Some(&'$') => {
                chars.next();
                word.push('$');
            }
            ' ' | '\t' => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// Every regular file directly in `dir`, sorted (what `javac` and `kotlinc` may read beside the
/// main file).
#[must_use]
pub fn folder_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|listed| listed.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.is_file());
    files.sort();
    files
}

/// The hash of the content of the regular file at `path`, `None` if it is not one (a named pipe
/// is never read) or cannot be read.
fn hash_file(path: &Path) -> Option<u64> {
    let mut file = crate::regular::open(path).ok()?;
    let mut hash = FNV_START;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match file.read(&mut buf) {
            Ok(0) => return Some(hash),
            Ok(n) => hash = fnv1a(hash, &buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

/// FNV-1a, 64 bits, continued from `hash`: a hash that stays the same across Rust versions.
fn fnv1a(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// FNV-1a's offset basis, the hash of nothing.
const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependency_files_of_gcc_and_rustc_are_read() {
        let gcc = "/c/a.partial: /src/a.c /usr/include/stdio.h \\\n \
                   /src/my\\ lib.h /src/x\\#1.h $$HOME.h\n";
        assert_eq!(
            dependencies(gcc),
            [
                "/src/a.c",
                "/usr/include/stdio.h",
                "/src/my lib.h",
                "/src/x#1.h",
                "$HOME.h"
            ]
            .map(PathBuf::from)
        );
        let rustc = "/c/m.partial: /s/main.rs /s/helper.rs\n\n/s/main.rs:\n/s/helper.rs:\n\n\
                     # env-dep:X=1\n";
        assert_eq!(
            dependencies(rustc),
            ["/s/main.rs", "/s/helper.rs"].map(PathBuf::from)
        );
    }

    #[test]
    fn an_entry_is_fresh_while_what_its_compiler_read_is_unchanged() {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let (src, header) = (tmp.path().join("a.c"), tmp.path().join("lib.h"));
        std::fs::write(&src, "#include \"lib.h\"\n").expect("a source");
        std::fs::write(&header, "#define X 1\n").expect("a header");
        let cache = tmp.path().join("cache");
        let gcc = ("gcc", "/usr/bin/gcc 1 2");
        let new = |tool, flags: &[&str]| {
            Entry::new(&cache, std::slice::from_ref(&src), tool, flags, &src).expect("an entry")
        };
        let entry = new(gcc, &["-O2"]);
        assert_ne!(
            entry.out,
            new(gcc, &["-O0"]).out,
            "the flags are in the key"
        );
        let upgraded = ("gcc", "/usr/bin/gcc 1 3");
        assert_ne!(
            entry.out,
            new(upgraded, &["-O2"]).out,
            "the tool's identity too"
        );
        let locked = entry.lock().expect("locked");
        assert!(!locked.fresh());
        let build = locked.start().expect("a build");
        std::fs::write(&build.out, "binary").expect("a build");
        let folder = build.out.parent().expect("a folder").to_path_buf();
        locked
            .commit(build, &[src.clone(), header.clone()])
            .expect("committed");
        assert!(!folder.exists(), "the build's folder is removed");
        assert!(locked.fresh());
        std::fs::write(&header, "#define X 2\n").expect("a header");
        assert!(!locked.fresh(), "a changed header makes the build stale");
        std::fs::write(&header, "#define X 1\n").expect("a header");
        assert!(locked.fresh());
        std::fs::remove_file(&header).expect("removed");
        assert!(!locked.fresh(), "a header gone makes the build stale");
    }

    #[test]
    fn the_same_source_in_two_folders_has_two_entries() {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let cache = tmp.path().join("cache");
        let mut outs = Vec::new();
        for folder in ["A", "B"] {
            let dir = tmp.path().join(folder);
            std::fs::create_dir(&dir).expect("a folder");
            let src = dir.join("sol.c");
            std::fs::write(&src, "int main(void) { return 0; }\n").expect("a source");
            let entry = Entry::new(&cache, std::slice::from_ref(&src), ("gcc", "x"), &[], &src);
            outs.push(entry.expect("an entry").out);
        }
        assert_ne!(outs[0], outs[1]);
    }
}
