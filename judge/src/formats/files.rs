//! Listing a package's folders safely: names sorted, case names without whitespace or control
//! characters, every file inside the package (a symlink may share a case between groups, never
//! reach outside), and every case and answer a regular file (see [`crate::regular`]).

use std::path::{Path, PathBuf};

/// The entries of `dir` (files or folders as `want_dirs` says), names sorted.
///
/// # Errors
/// `dir` cannot be read, or a name is not UTF-8.
pub fn entries(dir: &Path, want_dirs: bool) -> Result<Vec<String>, String> {
    let read = std::fs::read_dir(dir).map_err(|e| format!("{}: {}", dir.display(), plain(&e)))?;
    let mut names = Vec::new();
    for entry in read {
        let entry = entry.map_err(|e| format!("{}: {}", dir.display(), plain(&e)))?;
        let path = entry.path();
        if path.is_dir() != want_dirs {
            continue;
        }
        let name = entry
            .file_name()
            .into_string()
            .map_err(|n| format!("{}: a name that is not UTF-8", dir.join(n).display()))?;
        names.push(name);
    }
    names.sort();
    Ok(names)
}

/// The stems of the files `NAME<ext>` in `dir`, sorted; each file is a regular file.
///
/// # Errors
/// `dir` cannot be read; a name holds whitespace (the formats' tools split on it) or control
/// characters; a file is not a regular file.
pub fn stems(dir: &Path, ext: &str) -> Result<Vec<String>, String> {
    let mut stems = Vec::new();
    for name in entries(dir, false)? {
        if let Some(stem) = name.strip_suffix(ext) {
            if stem.is_empty() || stem.chars().any(|c| c.is_whitespace() || c.is_control()) {
                return Err(format!(
                    "{}: a case name must not be empty or hold spaces or control characters",
                    crate::terminal::shown(&dir.join(&name).display().to_string())
                ));
            }
            regular(&dir.join(&name))?;
            stems.push(stem.to_string());
        }
    }
    Ok(stems)
}

/// Whether `dir` holds a `NAME.in` file.
///
/// # Errors
/// `dir` cannot be read.
pub fn any_input(dir: &Path) -> Result<bool, String> {
    Ok(entries(dir, false)?.iter().any(|n| n.ends_with(".in")))
}

/// `path`, checked to be inside the package `root` once symlinks are resolved.
///
/// # Errors
/// The file cannot be resolved, or it lies outside `root`.
pub fn inside(path: &Path, root: &Path) -> Result<PathBuf, String> {
    let real = path
        .canonicalize()
        .map_err(|e| format!("{}: {}", path.display(), plain(&e)))?;
    let root = root
        .canonicalize()
        .map_err(|e| format!("{}: {}", root.display(), plain(&e)))?;
    if real.starts_with(&root) {
        Ok(path.to_path_buf())
    } else {
        Err(format!(
            "{}: a link to {}, outside the package",
            path.display(),
            real.display()
        ))
    }
}

/// `path`, checked to be inside the package `root` and to be a regular file (links followed):
/// a case's input or answer.
///
/// # Errors
/// As [`inside`] and [`regular`].
pub fn case_file(path: &Path, root: &Path) -> Result<PathBuf, String> {
    let path = inside(path, root)?;
    regular(&path)?;
    Ok(path)
}

/// Checks that `path` (links followed) is a regular file: not a folder, a named pipe (which
/// would make the judge wait forever) or a device (which would be read without end).
///
/// # Errors
/// It is not, or cannot be looked at: the path and the reason.
pub fn regular(path: &Path) -> Result<(), String> {
    crate::regular::check(path).map_err(|e| format!("{}: {}", path.display(), plain(&e)))
}

/// The first of `dir/stem<ext>` for `exts` that exists, checked to lie inside `root` and to be
/// a regular file.
///
/// # Errors
/// None exists (the message names the first), the file lies outside `root`, or it is not a
/// regular file.
pub fn answer(dir: &Path, stem: &str, exts: &[&str], root: &Path) -> Result<PathBuf, String> {
    for ext in exts {
        let path = dir.join(format!("{stem}{ext}"));
        if path.exists() || path.is_symlink() {
            return case_file(&path, root);
        }
    }
    Err(format!(
        "{}: missing (the answer of {})",
        dir.join(format!("{stem}{}", exts[0])).display(),
        dir.join(format!("{stem}.in")).display()
    ))
}

/// Reads `path`, a configuration file (a regular file of at most
/// [`crate::regular::CONFIG_MAX`] bytes), as UTF-8 text.
///
/// # Errors
/// The file cannot be read, is not a regular file, is too large, or is not UTF-8.
pub fn text(path: &Path) -> Result<String, String> {
    let bytes = crate::regular::read_named(path, crate::regular::CONFIG_MAX)?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// An I/O error's message without Rust's ` (os error N)` suffix.
#[must_use]
pub fn plain(e: &std::io::Error) -> String {
    crate::regular::plain(e)
}
