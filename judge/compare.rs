//! Compares a program's output with the expected one, and describes the first difference.

use serde::Deserialize;

/// How outputs are compared, set per suite.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Line endings and trailing whitespace at line ends and at the file end are normalized.
    #[default]
    Exact,
    /// Whitespace-insensitive.
    Tokens,
    /// Tokens, with numbers equal within an absolute or relative tolerance.
    Float,
}

/// Returns `None` if `got` matches `expected`, or a description of the first difference.
#[must_use]
pub fn compare(mode: Mode, tolerance: f64, expected: &str, got: &str) -> Option<String> {
    match mode {
        Mode::Exact => exact(expected, got),
        Mode::Tokens => tokens(expected, got, |a, b| a == b),
        Mode::Float => tokens(expected, got, |a, b| a == b || close(a, b, tolerance)),
    }
}

fn lines(text: &str) -> Vec<&str> {
    let mut v: Vec<&str> = text.lines().map(str::trim_end).collect();
    while v.last() == Some(&"") {
        v.pop();
    }
    v
}

fn exact(expected: &str, got: &str) -> Option<String> {
    let (e, g) = (lines(expected), lines(got));
    let n = e.len().max(g.len());
    let line = (0..n).find(|&i| e.get(i) != g.get(i))?;
    let (el, gl) = (e.get(line).copied(), g.get(line).copied());
    let col = match (el, gl) {
        (Some(a), Some(b)) => a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count() + 1,
        _ => 1,
    };
    let mut msg = format!("first difference at line {}, column {col}\n", line + 1);
    let from = line.saturating_sub(2);
    for (i, l) in e.iter().enumerate().take(line).skip(from) {
        msg += &format!("  {:>4} | {}\n", i + 1, visible(l));
    }
    msg += &format!(
        "  expected: {}\n",
        el.map_or("<end of output>".into(), visible)
    );
    msg += &format!(
        "  got:      {}\n",
        gl.map_or("<end of output>".into(), visible)
    );
    Some(msg)
}

fn tokens(expected: &str, got: &str, eq: impl Fn(&str, &str) -> bool) -> Option<String> {
    let mut e = expected.split_whitespace();
    let mut g = got.split_whitespace();
    let mut i = 0;
    loop {
        i += 1;
        match (e.next(), g.next()) {
            (None, None) => return None,
            (a, b) if a.zip(b).is_some_and(|(a, b)| eq(a, b)) => {}
            (a, b) => {
                return Some(format!(
                    "first difference at token {i}\n  expected: {}\n  got:      {}\n",
                    a.map_or("<end of output>".into(), visible),
                    b.map_or("<end of output>".into(), visible)
                ))
            }
        }
    }
}

fn close(a: &str, b: &str, tol: f64) -> bool {
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => {
            let d = (x - y).abs();
            d <= tol || d <= tol * x.abs().max(y.abs())
        }
        _ => false,
    }
}

/// Makes whitespace visible and cuts long lines to their head and tail.
fn visible(s: &str) -> String {
    let shown: String = s
        .chars()
        .map(|c| match c {
            ' ' => '·',
            '\t' => '→',
            '\r' => '␍',
            c => c,
        })
        .collect();
    let chars: Vec<char> = shown.chars().collect();
    if chars.len() > 120 {
        let head: String = chars[..60].iter().collect();
        let tail: String = chars[chars.len() - 40..].iter().collect();
        format!("{head} … {tail}")
    } else {
        shown
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
    }

    #[test]
    fn tokens_and_float() {
        assert_eq!(compare(Mode::Tokens, 0.0, "1 2\n3", "1\n2 3"), None);
        assert!(compare(Mode::Tokens, 0.0, "1 2", "1 2 3").is_some());
        assert_eq!(compare(Mode::Float, 1e-6, "0.5", "0.5000001"), None);
        assert!(compare(Mode::Float, 1e-6, "0.5", "0.51").is_some());
    }
}
