//! Writing the judge's own output without panicking when stdout or stderr is closed early
//! (`judge | head`): `print!` would panic on the broken pipe; here the text is dropped instead.
//! Any other write error (a full disk: `judge > /dev/full`) is kept, and makes the judge fail.
//! Everything written goes through [`crate::terminal::text`]: control characters are shown as
//! pictures, whatever file, name or program the text came from; only [`stdout_raw`] and
//! [`stderr_raw`] write bytes as they are: a bundled source, meant for a file, and the
//! judge's own colours and progress line around text already shown.

use std::io::Write;
use std::sync::OnceLock;

/// The first error met writing stdout, other than a broken pipe.
static WRITE_ERROR: OnceLock<String> = OnceLock::new();

/// Writes `text` to stdout, its control characters shown (see [`crate::terminal::text`]).
pub fn stdout(text: &str) {
    stdout_raw(&crate::terminal::text(text));
}

/// Writes `text` to stdout, as is: for content meant for a file, such as a bundled source.
pub fn stdout_raw(text: &str) {
    let mut out = std::io::stdout().lock();
    let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    if let Err(e) = written {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let _ = WRITE_ERROR.set(e.to_string());
        }
    }
}

/// The first error met writing stdout, other than a broken pipe (the reader stopped reading).
#[must_use]
pub fn write_error() -> Option<&'static str> {
    WRITE_ERROR.get().map(String::as_str)
}

/// `one` for 1, `many` otherwise: `1 line`, `2 lines`.
#[must_use]
pub fn plural<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// Checks, before any work, that a file can later be written at `path` given with `flag`: its
/// folder exists and it is not itself a folder.
///
/// # Errors
/// Says which and where.
pub fn writable(flag: &str, path: &std::path::Path) -> Result<(), String> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    if path.is_dir() {
        Err(format!(
            "{flag} {}: is a folder, not a file",
            path.display()
        ))
    } else if !folder.is_dir() {
        Err(format!(
            "{flag} {}: no folder {} to write it in",
            path.display(),
            folder.display()
        ))
    } else {
        Ok(())
    }
}

/// Writes `bytes` to the file at `path`.
///
/// # Errors
/// The file cannot be written: the path and the reason.
pub fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `text` to stderr, its control characters shown (see [`crate::terminal::text`]).
pub fn stderr(text: &str) {
    stderr_raw(&crate::terminal::text(text));
}

/// Writes `text` to stderr, as is: for the judge's own progress line.
pub fn stderr_raw(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}
