//! The compile cache: where the build of a program is kept, and whether it is still good.
//!
//! A build is found by a key, the hash of the compiler, its flags and the names and contents of
//! the files given to it: `judge-build/STEM-KEY`. Beside it, `STEM-KEY.deps` records every file
//! the compiler read, with the hash of its content: for C and C++ the dependency file of `-MD`
//! (the headers under `#include`, the system's too), for Rust the `dep-info` of `rustc` (the
//! files of `mod x;`), for Java and Kotlin every file of the main file's folder. A build is used
//! only while each of those files still hashes the same; a build without its record (made by an
//! older judge) is made again.

use std::io::Read;
use std::path::{Path, PathBuf};

/// One build in the cache.
pub struct Entry {
    /// The build: a binary, or a folder of classes.
    pub out: PathBuf,
    /// The files the compiler read, with their hashes.
    record: PathBuf,
}

impl Entry {
    /// The entry for the build of `files` by `tool` with `flags`, named after `src`, in `dir`
    /// (created if missing).
    ///
    /// # Errors
    /// A file cannot be read, or the folder cannot be made: the path and the reason.
    pub fn new(
        dir: &Path,
        files: &[PathBuf],
        tool: &str,
        flags: &[&str],
        src: &Path,
    ) -> Result<Entry, String> {
        let mut bytes = tool.as_bytes().to_vec();
        bytes.push(0);
        for flag in flags {
            bytes.extend(flag.as_bytes());
            bytes.push(0);
        }
        bytes.push(0);
        for f in files {
            let content = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
            bytes.extend(f.file_name().unwrap_or_default().as_encoded_bytes());
            bytes.push(0);
            bytes.extend(&content);
            bytes.push(0);
        }
        let key = fnv1a(FNV_START, &bytes);
        let stem = src.file_stem().unwrap_or_default().to_string_lossy();
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let out = dir.join(format!("{stem}-{key:016x}"));
        let record = dir.join(format!("{stem}-{key:016x}.deps"));
        Ok(Entry { out, record })
    }

    /// Where the compiler writes, before [`Entry::commit`].
    #[must_use]
    pub fn partial(&self) -> PathBuf {
        self.out.with_extension("partial")
    }

    /// Where the compiler writes its dependency file.
    #[must_use]
    pub fn dep_file(&self) -> PathBuf {
        self.out.with_extension("partial.d")
    }

    /// Whether the build exists and every file its compiler read still hashes the same.
    #[must_use]
    pub fn fresh(&self) -> bool {
        if !self.out.exists() {
            return false;
        }
        let Ok(text) = std::fs::read_to_string(&self.record) else {
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

    /// Records the files in `read` (those the compiler read; repeats are recorded once) and
    /// moves the partial build in place of any older one.
    ///
    /// # Errors
    /// A file the compiler read is gone, or the cache cannot be written.
    pub fn commit(&self, read: &[PathBuf]) -> Result<(), String> {
        let mut text = String::new();
        let mut seen = std::collections::HashSet::new();
        for path in read.iter().filter(|p| seen.insert(*p)) {
            let hash = hash_file(path)
                .ok_or_else(|| format!("{}: read by the compiler, now gone", path.display()))?;
            text += &format!("{hash:016x} {}\n", path.display());
        }
        let failed = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
        let new_record = self.record.with_extension("deps.partial");
        std::fs::write(&new_record, text).map_err(|e| failed(&new_record, e))?;
        if self.out.is_dir() {
            std::fs::remove_dir_all(&self.out).map_err(|e| failed(&self.out, e))?;
        }
        std::fs::rename(self.partial(), &self.out).map_err(|e| failed(&self.out, e))?;
        std::fs::rename(&new_record, &self.record).map_err(|e| failed(&self.record, e))?;
        let _ = std::fs::remove_file(self.dep_file());
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
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let mut file = std::fs::File::open(path).ok()?;
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
        let entry = Entry::new(&cache, std::slice::from_ref(&src), "gcc", &["-O2"], &src)
            .expect("an entry");
        let other = Entry::new(&cache, std::slice::from_ref(&src), "gcc", &["-O0"], &src)
            .expect("an entry");
        assert_ne!(entry.out, other.out, "the flags are in the key");
        assert!(!entry.fresh());
        std::fs::write(entry.partial(), "binary").expect("a build");
        entry
            .commit(&[src.clone(), header.clone()])
            .expect("committed");
        assert!(entry.fresh());
        std::fs::write(&header, "#define X 2\n").expect("a header");
        assert!(!entry.fresh(), "a changed header makes the build stale");
        std::fs::write(&header, "#define X 1\n").expect("a header");
        assert!(entry.fresh());
        std::fs::remove_file(&header).expect("removed");
        assert!(!entry.fresh(), "a header gone makes the build stale");
    }
}
