//! Words for `sh`: every command the judge builds is a shell command line, and every path put
//! into one goes through [`quote()`].

use std::path::Path;

/// `p` quoted for `sh`.
#[must_use]
pub fn quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

/// Whether `path` is a file the shell can run: a regular file with an execute bit.
#[must_use]
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
