//! Describes where two outputs first differ: line and column, a few lines of context, expected
//! against got, whitespace made visible, long lines cut to their head and tail.

use std::fmt::Write;

use crate::lossy::{self, Token};

/// Lines of context shown before the difference, and lines shown from it on each side.
const BEFORE: usize = 2;
const FROM: usize = 3;
/// Lines longer than this (in characters) are cut.
const LONG_LINE: usize = 100;

/// A few lines of a normalized output (see [`window`]): `lines[k]` is line `first + k`
/// (0-based) of an output of `total` lines. The lines are borrowed, never copied.
pub struct Window<'a> {
    first: usize,
    lines: Vec<&'a [u8]>,
    total: usize,
}

impl<'a> Window<'a> {
    /// Line `i` (0-based), if the window holds it.
    fn get(&self, i: usize) -> Option<&'a [u8]> {
        if i >= self.total {
            return None;
        }
        self.lines.get(i.checked_sub(self.first)?).copied()
    }
}

/// The lines of `text` shown around a difference at index `line`, with line endings and trailing
/// whitespace removed, and the number of lines up to the last non-empty one. One pass, and only
/// the window is kept.
#[must_use]
pub fn window(text: &[u8], line: usize) -> Window<'_> {
    let first = line.saturating_sub(BEFORE);
    let mut total = 0;
    let mut lines = Vec::new();
    for (i, l) in lossy::lines(text).enumerate() {
        if !l.is_empty() {
            total = i + 1;
        }
        if (first..line + FROM).contains(&i) {
            lines.push(l);
        }
    }
    Window {
        first,
        lines,
        total,
    }
}

/// The report for two normalized outputs that first differ at index `line`.
#[must_use]
pub fn lines(expected: &Window, got: &Window, line: usize) -> String {
    let (e, g) = (expected.get(line), got.get(line));
    let col = match (e, g) {
        (Some(a), Some(b)) => lossy::common_chars(a, b).0,
        _ => 0,
    };
    let mut out = format!(
        "first difference at line {}, column {} (expected {} {}, got {})\n",
        line + 1,
        col + 1,
        expected.total,
        crate::out::plural(expected.total as u64, "line", "lines"),
        got.total
    );
    let width = (line + FROM).to_string().len();
    for i in line.saturating_sub(BEFORE)..line {
        if let Some(l) = expected.get(i) {
            let _ = writeln!(out, "    {:>width$} | {}", i + 1, shown(l, col));
        }
    }
    block(&mut out, "expected", expected, line, col, width);
    block(&mut out, "got", got, line, col, width);
    out
}

/// Up to `FROM` lines of one side from `line` on, or `<end of output>`.
fn block(out: &mut String, side: &str, text: &Window, line: usize, col: usize, width: usize) {
    let mark = if side == "got" { '+' } else { '-' };
    let _ = writeln!(out, "  {side}:");
    if line >= text.total {
        let _ = writeln!(out, "  {mark} {:>width$} | <end of output>", "");
        return;
    }
    for i in line..(line + FROM).min(text.total) {
        let l = text.get(i).unwrap_or_default();
        let _ = writeln!(out, "  {mark} {:>width$} | {}", i + 1, shown(l, col));
    }
}

/// The report for the first differing token, the `index`-th (1-based).
#[must_use]
pub fn token(index: usize, expected: Option<Token>, got: Option<Token>) -> String {
    let side = |t: Option<Token>| match t {
        Some(t) => format!("{} (line {}, column {})", shown(t.bytes, 0), t.line, t.col),
        None => "<end of output>".to_string(),
    };
    format!(
        "first difference at token {index}\n  expected: {}\n  got:      {}\n",
        side(expected),
        side(got)
    )
}

/// The decoded `bytes` with whitespace and control characters made visible, cut around `col` if
/// long: at most about 100 characters (`LONG_LINE`), whatever the length of `bytes`, found
/// without a copy. Valid UTF-8 is cut at offsets found by counting bytes (fast); other bytes in
/// one pass over the decoded characters, keeping only those that may be shown.
#[must_use]
pub fn shown(bytes: &[u8], col: usize) -> String {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return shown_decoded(bytes, col);
    };
    let n = lossy::char_count(bytes);
    if n <= LONG_LINE {
        return text.chars().map(visible).collect();
    }
    let ends: Vec<usize> = cut(n, col).iter().flat_map(|&(a, b)| [a, b]).collect();
    let offsets = lossy::char_offsets(bytes, &ends);
    let parts: Vec<String> = offsets
        .chunks_exact(2)
        .map(|r| text[r[0]..r[1]].chars().map(visible).collect())
        .collect();
    parts.join(" … ")
}

/// The ranges of character indices shown of a line of `n` characters cut around `col`: its
/// head, around `col`, its tail, merged where they meet.
fn cut(n: usize, col: usize) -> Vec<(usize, usize)> {
    let mut ranges = [
        (0, 30),
        (col.saturating_sub(20).min(n), (col + 30).min(n)),
        (n - 20, n),
    ];
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (a, b) in ranges {
        match merged.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    merged
}

/// [`shown`] for bytes that are not valid UTF-8: one pass over the decoded characters.
fn shown_decoded(bytes: &[u8], col: usize) -> String {
    let middle = col.saturating_sub(20)..col + 30;
    // Index and character of every one that may be shown: the first LONG_LINE + 1 (enough for
    // a short line, and the head), those around `col`, and the last 20.
    let mut kept: std::collections::BTreeMap<usize, char> = std::collections::BTreeMap::new();
    let mut last: std::collections::VecDeque<(usize, char)> = std::collections::VecDeque::new();
    let mut n = 0;
    for (i, c) in lossy::chars(bytes).enumerate() {
        if i <= LONG_LINE || middle.contains(&i) {
            kept.insert(i, c);
        }
        if last.len() == 20 {
            last.pop_front();
        }
        last.push_back((i, c));
        n = i + 1;
    }
    kept.extend(last);
    if n <= LONG_LINE {
        return kept.values().copied().map(visible).collect();
    }
    let parts: Vec<String> = cut(n, col)
        .iter()
        .map(|&(a, b)| kept.range(a..b).map(|(_, &c)| visible(c)).collect())
        .collect();
    parts.join(" … ")
}

/// `s` with control characters (C0, DEL, C1; not spaces or line breaks) made visible, as
/// [`shown`] does: for a program's stderr in a report.
#[must_use]
pub fn controls(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            ' ' | '\n' => c,
            c if (c as u32) < 0x20 || c == '\x7f' => visible(c),
            '\u{80}'..='\u{9f}' => '\u{FFFD}',
            c => c,
        })
        .collect()
}

/// [`visible`], for the reference comparison of the tests.
#[cfg(test)]
pub(crate) fn visible_for_tests(c: char) -> char {
    visible(c)
}

/// [`cut`], for the reference comparison of the tests.
#[cfg(test)]
pub(crate) fn cut_for_tests(n: usize, col: usize) -> Vec<(usize, usize)> {
    cut(n, col)
}

fn visible(c: char) -> char {
    match c {
        ' ' => '·',
        '\t' => '→',
        '\r' => '␍',
        c if (c as u32) < 0x20 => char::from_u32(0x2400 + c as u32).unwrap_or('?'),
        '\x7f' => '␡',
        c => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_keep_head_column_and_tail() {
        let s: String = (0..300)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        let cut = shown(s.as_bytes(), 150);
        assert!(cut.starts_with(&s[..30]));
        assert!(cut.contains(&s[130..180]));
        assert!(cut.ends_with(&s[280..]));
        assert_eq!(cut.matches(" … ").count(), 2);
    }

    #[test]
    fn tokens_know_their_place() {
        let t: Vec<_> = lossy::tokens(b"a  b\n\tc")
            .map(|t| (t.bytes, t.line, t.col))
            .collect();
        assert_eq!(t, [(&b"a"[..], 1, 1), (b"b", 1, 4), (b"c", 2, 2)]);
    }

    #[test]
    fn whitespace_is_visible() {
        assert_eq!(shown(b"a b\tc\r\x01", 0), "a·b→c␍␁");
    }
}
