//! Compares a program's output with the expected one, and describes the first difference.

use serde::Deserialize;

use crate::{diff, lossy};

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
    /// An external command decides (see `checker`); not handled by [`compare_bytes`].
    #[value(skip)]
    Checker,
}

/// Returns `None` if `got` matches `expected`, or a description of the first difference.
/// `Mode::Checker` is not a text comparison: it is treated as `Exact` here. Text is compared as
/// UTF-8; bytes that are not valid UTF-8 must be the same bytes, at the same places, on both
/// sides (each invalid sequence and each literal U+FFFD is checked, in order, once the texts
/// with replacement characters match).
///
/// # Complexity
/// Linear in the lengths, and constant memory beyond the report: the outputs are read in place
/// (see the `lossy` module), never copied or decoded into a new string, and the report keeps at
/// most a few lines of each side, each cut to about 100 characters.
#[must_use]
pub fn compare_bytes(mode: Mode, tolerance: f64, expected: &[u8], got: &[u8]) -> Option<String> {
    match mode {
        Mode::Exact | Mode::Checker => exact(expected, got),
        Mode::Tokens => tokens(expected, got, lossy::same),
        Mode::Float => tokens(expected, got, |a, b| {
            lossy::same(a, b) || close(a, b, tolerance)
        }),
    }
    .or_else(|| invalid_difference(expected, got))
}

/// What each U+FFFD of the lossy decoding of `bytes` stands for, in order: `None` for a literal
/// U+FFFD, the invalid bytes otherwise. Lazy, so that comparing costs no memory per byte.
fn replacements(bytes: &[u8]) -> impl Iterator<Item = Option<&[u8]>> {
    bytes.utf8_chunks().flat_map(|chunk| {
        // A literal U+FFFD is the bytes EF BF BD, which can only be that character.
        let valid = chunk.valid().as_bytes();
        let literal = (0..valid.len())
            .filter(move |&i| valid[i..].starts_with(&[0xef, 0xbf, 0xbd]))
            .map(|_| None);
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

/// Compares line by line, keeping nothing per line: a 64 MiB output of empty lines, or one
/// line of 64 MiB, costs no more memory than a short one. Only around a difference are a few
/// lines kept (borrowed), for its report.
fn exact(expected: &[u8], got: &[u8]) -> Option<String> {
    let line = first_difference(expected, got)?;
    let (e, g) = (diff::window(expected, line), diff::window(got, line));
    Some(diff::lines(&e, &g, line))
}

/// The index of the first line where `expected` and `got` differ once normalized (see
/// [`lossy::lines`]), or `None` if they match. Trailing empty lines are ignored.
fn first_difference(expected: &[u8], got: &[u8]) -> Option<usize> {
    let (mut e, mut g) = (text_lines(expected), text_lines(got));
    let mut i = 0;
    loop {
        match (e.next(), g.next()) {
            (None, None) => return None,
            (Some(a), Some(b)) if a == b || lossy::same(trimmed(a), trimmed(b)) => {}
            // One side has ended: the other matches if the rest of it is empty lines.
            (Some(a), None) => return (!blank(a) || !e.all(blank)).then_some(i),
            (None, Some(b)) => return (!blank(b) || !g.all(blank)).then_some(i),
            (Some(_), Some(_)) => return Some(i),
        }
        i += 1;
    }
}

/// The raw lines of `text` (trimmed only when they differ: most lines of an accepted output
/// are equal as they are).
fn text_lines(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    lossy::raw_lines(text)
}

fn trimmed(line: &[u8]) -> &[u8] {
    lossy::trim_end(line)
}

fn blank(line: &[u8]) -> bool {
    trimmed(line).is_empty()
}

fn tokens(expected: &[u8], got: &[u8], eq: impl Fn(&[u8], &[u8]) -> bool) -> Option<String> {
    let mut e = lossy::tokens(expected);
    let mut g = lossy::tokens(got);
    let mut index = 0;
    loop {
        index += 1;
        match (e.next(), g.next()) {
            (None, None) => return None,
            (Some(a), Some(b)) if eq(a.bytes, b.bytes) => {}
            (a, b) => return Some(diff::token(index, a, b)),
        }
    }
}

/// Whether `a` and `b` are finite numbers within `tol` of each other, absolutely or relatively.
/// A token that is not valid UTF-8 is not a number.
fn close(a: &[u8], b: &[u8], tol: f64) -> bool {
    match (std::str::from_utf8(a), std::str::from_utf8(b)) {
        (Ok(a), Ok(b)) => close_str(a, b, tol),
        _ => false,
    }
}

fn close_str(a: &str, b: &str, tol: f64) -> bool {
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

    fn compare(mode: Mode, tolerance: f64, expected: &str, got: &str) -> Option<String> {
        compare_bytes(mode, tolerance, expected.as_bytes(), got.as_bytes())
    }

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

    /// The comparison as it was before it read bytes in place: both outputs decoded into new
    /// strings, lines collected, long lines collected into characters. The new one must say
    /// exactly what it said.
    mod reference {
        use std::fmt::Write;

        use super::super::{close_str, invalid_difference, Mode};

        pub fn compare_bytes(mode: Mode, tol: f64, expected: &[u8], got: &[u8]) -> Option<String> {
            let (e, g) = (
                String::from_utf8_lossy(expected),
                String::from_utf8_lossy(got),
            );
            match mode {
                Mode::Exact | Mode::Checker => exact(&e, &g),
                Mode::Tokens => tokens(&e, &g, |a, b| a == b),
                Mode::Float => tokens(&e, &g, |a, b| a == b || close_str(a, b, tol)),
            }
            .or_else(|| invalid_difference(expected, got))
        }

        fn exact<'a>(e: &'a str, g: &'a str) -> Option<String> {
            let line = first_difference(e, g)?;
            let (we, wg) = (window(e), window(g));
            let (te, tg) = (total(&we), total(&wg));
            let get = |w: &[&'a str], t: usize, i: usize| (i < t).then(|| w[i]);
            let col = match (get(&we, te, line), get(&wg, tg, line)) {
                (Some(a), Some(b)) => a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count(),
                _ => 0,
            };
            let plural = if te == 1 { "line" } else { "lines" };
            let mut out = format!(
                "first difference at line {}, column {} (expected {te} {plural}, got {tg})\n",
                line + 1,
                col + 1
            );
            let width = (line + 3).to_string().len();
            for i in line.saturating_sub(2)..line {
                if let Some(l) = get(&we, te, i) {
                    let _ = writeln!(out, "    {:>width$} | {}", i + 1, shown(l, col));
                }
            }
            for (side, mark, w, t) in [("expected", '-', &we, te), ("got", '+', &wg, tg)] {
                let _ = writeln!(out, "  {side}:");
                if line >= t {
                    let _ = writeln!(out, "  {mark} {:>width$} | <end of output>", "");
                }
                for (i, l) in w.iter().enumerate().take((line + 3).min(t)).skip(line) {
                    let _ = writeln!(out, "  {mark} {:>width$} | {}", i + 1, shown(l, col));
                }
            }
            Some(out)
        }

        fn window(text: &str) -> Vec<&str> {
            text.lines().map(str::trim_end).collect()
        }

        fn first_difference(expected: &str, got: &str) -> Option<usize> {
            let (mut e, mut g) = (
                expected.lines().map(str::trim_end),
                got.lines().map(str::trim_end),
            );
            let mut i = 0;
            loop {
                match (e.next(), g.next()) {
                    (None, None) => return None,
                    (Some(a), Some(b)) if a == b => {}
                    (Some(a), None) => {
                        return (!a.is_empty() || !e.all(str::is_empty)).then_some(i)
                    }
                    (None, Some(b)) => {
                        return (!b.is_empty() || !g.all(str::is_empty)).then_some(i)
                    }
                    (Some(_), Some(_)) => return Some(i),
                }
                i += 1;
            }
        }

        fn total(lines: &[&str]) -> usize {
            lines
                .iter()
                .rposition(|l| !l.is_empty())
                .map_or(0, |i| i + 1)
        }

        fn tokens(e: &str, g: &str, eq: impl Fn(&str, &str) -> bool) -> Option<String> {
            let (et, gt) = (
                crate::lossy::decoded_tokens_for_tests(e),
                crate::lossy::decoded_tokens_for_tests(g),
            );
            let index = (0..).find(|&i| match (et.get(i), gt.get(i)) {
                (None, None) => true,
                (Some(a), Some(b)) => !eq(&a.0, &b.0),
                _ => true,
            })?;
            if index >= et.len().max(gt.len()) {
                return None;
            }
            let side = |t: Option<&(String, usize, usize)>| match t {
                Some((w, l, c)) => format!("{} (line {l}, column {c})", shown(w, 0)),
                None => "<end of output>".to_string(),
            };
            Some(format!(
                "first difference at token {}\n  expected: {}\n  got:      {}\n",
                index + 1,
                side(et.get(index)),
                side(gt.get(index))
            ))
        }

        fn shown(s: &str, col: usize) -> String {
            let chars: Vec<char> = crate::lossy::chars(s.as_bytes())
                .map(crate::diff::visible_for_tests)
                .collect();
            if chars.len() <= 100 {
                return chars.into_iter().collect();
            }
            let parts: Vec<String> = crate::diff::cut_for_tests(chars.len(), col)
                .iter()
                .map(|&(a, b)| chars[a..b].iter().collect())
                .collect();
            parts.join(" … ")
        }
    }

    /// Random outputs built from pieces that exercise every rule: whitespace of all kinds,
    /// line ends, numbers, invalid bytes, a literal U+FFFD, long runs.
    fn outputs() -> Vec<Vec<u8>> {
        let pieces: [&[u8]; 19] = [
            b"1",
            b"1.0",
            b"2",
            b"-0",
            b"1e3",
            b"a",
            b" ",
            b"\t",
            b"\r\n",
            b"\n",
            b"\n\n",
            "\u{a0}".as_bytes(),
            "é".as_bytes(),
            "\u{FFFD}".as_bytes(),
            b"\xff",
            b"\xfe",
            b"\xe2\x82",
            b"\x1b",
            &[b'x'; 150],
        ];
        let mut seed = 11u64;
        let mut next = move |m: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % m
        };
        let mut all = Vec::new();
        for _ in 0..600 {
            let mut t = Vec::new();
            for _ in 0..next(14) {
                t.extend_from_slice(pieces[next(pieces.len())]);
            }
            all.push(t);
        }
        all
    }

    #[test]
    fn reports_are_those_of_the_decoding_comparison() {
        let all = outputs();
        let mut differences = 0;
        for (k, e) in all.iter().enumerate() {
            // Each output against a few others and against small edits of itself.
            let mut others: Vec<Vec<u8>> = (1..4)
                .map(|d| all[(k * 7 + d) % all.len()].clone())
                .collect();
            for cut in [1, 2] {
                let mut t = e.clone();
                t.truncate(e.len().saturating_sub(cut));
                others.push(t);
                let mut t = e.clone();
                if let Some(b) = t.get_mut(e.len() / 2) {
                    *b ^= cut as u8;
                }
                others.push(t);
            }
            for g in &others {
                for mode in [Mode::Exact, Mode::Tokens, Mode::Float] {
                    for tol in [0.0, 1e-6] {
                        let new = compare_bytes(mode, tol, e, g);
                        let old = reference::compare_bytes(mode, tol, e, g);
                        assert_eq!(new, old, "{mode:?} {e:?} {g:?}");
                        differences += usize::from(new.is_some());
                    }
                }
            }
        }
        assert!(differences > 1000, "{differences}");
    }

    #[test]
    fn a_long_line_is_shown_cut() {
        let long = vec![0xffu8; 100_000];
        let d = compare_bytes(Mode::Exact, 0.0, b"1\n", &long).expect("a difference");
        assert!(d.len() < 1000, "{d}");
        assert!(d.contains("first difference at line 1, column 1"), "{d}");
        let mut got = vec![b'a'; 100_000];
        let expected = got.clone();
        got[70_000] = b'b';
        let d = compare_bytes(Mode::Tokens, 0.0, &expected, &got).expect("a difference");
        assert!(d.len() < 1000, "{d}");
    }
}
