//! Compares a program's output with the expected one, and describes the first difference.

use serde::Deserialize;

use crate::diff;

/// How outputs are compared, set per suite.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Line endings and trailing whitespace at line ends and at the file end are normalized.
    #[default]
    Exact,
    /// Whitespace-insensitive.
    Tokens,
    /// Tokens, with numbers equal within an absolute or relative tolerance.
    Float,
    /// An external command decides (see `checker`); not handled by [`compare`].
    #[value(skip)]
    Checker,
}

/// Returns `None` if `got` matches `expected`, or a description of the first difference.
/// `Mode::Checker` is not a text comparison: it is treated as `Exact` here.
#[must_use]
pub fn compare(mode: Mode, tolerance: f64, expected: &str, got: &str) -> Option<String> {
    match mode {
        Mode::Exact | Mode::Checker => exact(expected, got),
        Mode::Tokens => tokens(expected, got, |a, b| a == b),
        Mode::Float => tokens(expected, got, |a, b| a == b || close(a, b, tolerance)),
    }
}

/// [`compare`] on raw bytes. Text is compared as UTF-8; bytes that are not valid UTF-8 must be the
/// same bytes, at the same places, on both sides (each invalid sequence and each literal U+FFFD is
/// checked, in order, once the texts with replacement characters match).
#[must_use]
pub fn compare_bytes(mode: Mode, tolerance: f64, expected: &[u8], got: &[u8]) -> Option<String> {
    compare(
        mode,
        tolerance,
        &String::from_utf8_lossy(expected),
        &String::from_utf8_lossy(got),
    )
    .or_else(|| invalid_difference(expected, got))
}

/// What each U+FFFD of the lossy decoding of `bytes` stands for, in order: `None` for a literal
/// U+FFFD, the invalid bytes otherwise. Lazy, so that comparing costs no memory per byte.
fn replacements(bytes: &[u8]) -> impl Iterator<Item = Option<&[u8]>> {
    bytes.utf8_chunks().flat_map(|chunk| {
        let literal = chunk.valid().matches('\u{FFFD}').map(|_| None);
        let invalid = Some(chunk.invalid()).filter(|b| !b.is_empty());
        literal.chain(invalid.map(Some))
    })
}

/// When the lossy texts match, their replacement characters line up: the first one whose bytes
/// differ, described.
fn invalid_difference(expected: &[u8], got: &[u8]) -> Option<String> {
    let (mut e, mut g) = (replacements(expected), replacements(got));
    let show = |r: Option<Option<&[u8]>>| match r {
        Some(Some(b)) => format!("the bytes {}", hex(b)),
        Some(None) => "a U+FFFD character".to_owned(),
        None => "nothing".to_owned(),
    };
    for i in 1.. {
        match (e.next(), g.next()) {
            (None, None) => return None,
            (a, b) if a == b => {}
            (a, b) => {
                return Some(format!(
                    "invalid UTF-8 differs (replacement {i}): expected {}, got {}",
                    show(a),
                    show(b)
                ))
            }
        }
    }
    None
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\x{b:02x}")).collect()
}

/// The lines of `text` with line endings and trailing whitespace removed (trailing empty lines
/// are ignored by the comparison).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().map(str::trim_end)
}

/// Compares line by line, keeping nothing per line: a 64 MiB output of empty lines costs no
/// more memory than a short one. Only around a difference are a few lines kept, for its report.
fn exact(expected: &str, got: &str) -> Option<String> {
    let line = first_difference(expected, got)?;
    let (e, g) = (diff::window(expected, line), diff::window(got, line));
    Some(diff::lines(&e, &g, line))
}

/// The index of the first line where `expected` and `got` differ once normalized (see [`lines`]),
/// or `None` if they match.
fn first_difference(expected: &str, got: &str) -> Option<usize> {
    let (mut e, mut g) = (lines(expected), lines(got));
    let mut i = 0;
    loop {
        match (e.next(), g.next()) {
            (None, None) => return None,
            (Some(a), Some(b)) if a == b => {}
            // One side has ended: the other matches if the rest of it is empty lines.
            (Some(a), None) => return (!a.is_empty() || !e.all(str::is_empty)).then_some(i),
            (None, Some(b)) => return (!b.is_empty() || !g.all(str::is_empty)).then_some(i),
            (Some(_), Some(_)) => return Some(i),
        }
        i += 1;
    }
}

fn tokens(expected: &str, got: &str, eq: impl Fn(&str, &str) -> bool) -> Option<String> {
    let mut e = diff::tokens(expected);
    let mut g = diff::tokens(got);
    let mut index = 0;
    loop {
        index += 1;
        match (e.next(), g.next()) {
            (None, None) => return None,
            (Some(a), Some(b)) if eq(a.text, b.text) => {}
            (a, b) => return Some(diff::token(index, a, b)),
        }
    }
}

fn close(a: &str, b: &str, tol: f64) -> bool {
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) if x.is_finite() && y.is_finite() => {
            let d = (x - y).abs();
            d <= tol || d <= tol * x.abs().max(y.abs())
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_ignores_trailing_whitespace_and_crlf() {
        assert_eq!(
            compare(Mode::Exact, 0.0, "1 2\n3\n", "1 2  \r\n3\n\n"),
            None
        );
        assert!(compare(Mode::Exact, 0.0, "1 2\n3\n", "1  2\n3\n").is_some());
        assert!(compare(Mode::Exact, 0.0, "1\n", "").is_some());
        assert!(compare(Mode::Exact, 0.0, "1\n\n2\n", "1\n2\n").is_some());
    }

    #[test]
    fn tokens_and_float() {
        assert_eq!(compare(Mode::Tokens, 0.0, "1 2\n3", "1\n2 3"), None);
        assert!(compare(Mode::Tokens, 0.0, "1 2", "1 2 3").is_some());
        assert_eq!(compare(Mode::Float, 1e-6, "0.5", "0.5000001"), None);
        assert_eq!(compare(Mode::Float, 1e-6, "1e9", "1000000001"), None);
        assert!(compare(Mode::Float, 1e-6, "0.5", "0.51").is_some());
        assert!(compare(Mode::Float, 1e-6, "nan", "nan").is_none());
        assert!(compare(Mode::Float, 1e-6, "1", "nan").is_some());
        assert!(compare(Mode::Float, 1e-6, "inf", "1e308").is_some());
    }

    #[test]
    fn invalid_utf8_is_compared_as_bytes() {
        for mode in [Mode::Exact, Mode::Tokens, Mode::Float] {
            assert!(compare_bytes(mode, 0.0, b"\xff\n", b"\xfe\n").is_some());
            assert!(compare_bytes(mode, 0.0, "\u{FFFD}\n".as_bytes(), b"\xff\n").is_some());
            assert_eq!(compare_bytes(mode, 0.0, b"a \xff\n", b"a \xff  \r\n"), None);
        }
    }
}
