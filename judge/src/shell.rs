//! Words for `sh`: every command the judge builds is a shell command line, and every path put
//! into one goes through [`quote()`].

use std::path::Path;

/// `p` quoted for `sh`.
#[must_use]
pub fn quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}
