//! Writing the judge's own output without panicking when stdout or stderr is closed early
//! (`judge | head`): `print!` would panic on the broken pipe; here the text is dropped instead.

use std::io::Write;

/// Writes `text` to stdout, as is.
pub fn stdout(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// Writes `text` to stderr, as is.
pub fn stderr(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}
