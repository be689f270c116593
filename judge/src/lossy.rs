//! Output bytes read as text the way `String::from_utf8_lossy` reads them (each invalid
//! sequence one U+FFFD), but lazily and in place: no copy of a line, however long, and no
//! memory per byte. The comparisons and their reports work on these views, so a 60 MB line
//! costs the judge nothing beyond the output it keeps.

/// The character that stands for an invalid sequence.
pub const REPLACEMENT: char = '\u{FFFD}';

/// The first character of `bytes` as the lossy decoding reads it, and its length in bytes:
/// a valid character, or U+FFFD for the invalid sequence it starts with (as long as
/// `from_utf8_lossy` takes it). `None` on empty input. Constant time: a character or an
/// invalid sequence is at most 4 bytes.
#[must_use]
pub fn first_char(bytes: &[u8]) -> Option<(char, usize)> {
    match *bytes.first()? {
        b if b < 0x80 => Some((char::from(b), 1)),
        _ => {
            let head = &bytes[..bytes.len().min(4)];
            let chunk = head.utf8_chunks().next()?;
            match chunk.valid().chars().next() {
                Some(c) => Some((c, c.len_utf8())),
                None => Some((REPLACEMENT, chunk.invalid().len())),
            }
        }
    }
}

/// The characters of the lossy decoding of `bytes`, in order.
pub fn chars(bytes: &[u8]) -> impl Iterator<Item = char> + '_ {
    bytes.utf8_chunks().flat_map(|chunk| {
        let invalid = (!chunk.invalid().is_empty()).then_some(REPLACEMENT);
        chunk.valid().chars().chain(invalid)
    })
}

/// Whether `a` and `b` read the same once decoded (`\xff` and `\xfe` do: both are one U+FFFD).
#[must_use]
pub fn same(a: &[u8], b: &[u8]) -> bool {
    a == b || common(a, b, false).1
}

/// The number of characters the decodings of `a` and `b` have in common at their start, and
/// whether they are the same. Runs of equal bytes are compared as bytes; only around a byte
/// that differs are characters decoded, each byte at most once.
#[must_use]
pub fn common_chars(a: &[u8], b: &[u8]) -> (usize, bool) {
    common(a, b, true)
}

/// [`common_chars`], counting only if `count` (else the count is 0).
fn common(a: &[u8], b: &[u8], count_them: bool) -> (usize, bool) {
    let counted = |bytes: &[u8]| if count_them { char_count(bytes) } else { 0 };
    let (mut a, mut b) = (a, b);
    let mut count = 0;
    loop {
        let m = a.iter().zip(b).position(|(x, y)| x != y);
        let m = m.unwrap_or(a.len().min(b.len()));
        if m == a.len() && m == b.len() {
            return (count + counted(a), true);
        }
        // Back to the start of a character (or of an invalid sequence) on both sides: a byte
        // that is not a continuation byte starts one, and before `m` both sides are equal.
        let from = m.saturating_sub(4);
        let p = (from..m).rev().find(|&i| !continuation(a[i])).unwrap_or(0);
        count += counted(&a[..p]);
        (a, b) = (&a[p..], &b[p..]);
        // Character by character past the difference.
        let mut passed = 0;
        while passed <= m - p {
            match (first_char(a), first_char(b)) {
                (Some((x, la)), Some((y, lb))) if x == y => {
                    (a, b) = (&a[la..], &b[lb..]);
                    passed += la;
                    count += 1;
                }
                (None, None) => return (count, true),
                _ => return (count, false),
            }
        }
    }
}

/// Whether `b` continues a UTF-8 sequence (`10xxxxxx`).
fn continuation(b: u8) -> bool {
    b & 0xc0 == 0x80
}

/// The byte offsets of the characters at the indices `ks` (ascending) of the decoding of
/// `bytes` (its length for an index past the end). One pass; whole runs of valid text are
/// skipped by counting the bytes that start a character, 64 at a time.
#[must_use]
pub fn char_offsets(bytes: &[u8], ks: &[usize]) -> Vec<usize> {
    if bytes.is_ascii() {
        return ks.iter().map(|&k| k.min(bytes.len())).collect();
    }
    let mut found = Vec::with_capacity(ks.len());
    let mut wanted = ks.iter().copied().peekable();
    // Characters before `at`.
    let mut index = 0;
    let mut at = 0;
    let starts = |b: &[u8]| b.iter().filter(|&&x| !continuation(x)).count();
    for chunk in bytes.utf8_chunks() {
        if wanted.peek().is_none() {
            break;
        }
        let valid = chunk.valid().as_bytes();
        let mut i = 0;
        while let Some(&k) = wanted.peek() {
            if let Some(block) = valid.get(i..i + 64) {
                let n = starts(block);
                if index + n <= k {
                    index += n;
                    i += 64;
                    continue;
                }
            }
            // The character is in this block, or in the valid text's last bytes, or beyond.
            let Some(j) = valid[i..].iter().position(|&x| !continuation(x)) else {
                break;
            };
            if index == k {
                found.push(at + i + j);
                wanted.next();
            } else {
                index += 1;
                i += j + 1;
            }
        }
        at += valid.len();
        if !chunk.invalid().is_empty() {
            while wanted.next_if_eq(&index).is_some() {
                found.push(at);
            }
            index += 1;
            at += chunk.invalid().len();
        }
    }
    found.resize(ks.len(), bytes.len());
    found
}

/// `bytes` without the whitespace that ends it, as `str::trim_end` on the decoded text
/// (an invalid sequence is never whitespace). Read from the end only: a whitespace character
/// is ASCII or one of a few 2- and 3-byte sequences, whose lead byte always starts a character.
#[must_use]
pub fn trim_end(bytes: &[u8]) -> &[u8] {
    let mut bytes = bytes;
    loop {
        let width = match bytes {
            [.., b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r'] => 1,
            [.., 0xc2, 0x85 | 0xa0] => 2,
            [.., 0xe1, 0x9a, 0x80]
            | [.., 0xe2, 0x80, 0x80..=0x8a | 0xa8 | 0xa9 | 0xaf]
            | [.., 0xe2, 0x81, 0x9f]
            | [.., 0xe3, 0x80, 0x80] => 3,
            _ => return bytes,
        };
        bytes = &bytes[..bytes.len() - width];
    }
}

/// The lines of `bytes` as `str::lines` splits them (at `\n`; no line after a final `\n`, none
/// in empty input), untrimmed.
pub fn raw_lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let count = if bytes.is_empty() { 0 } else { usize::MAX };
    body.split(|&b| b == b'\n').take(count)
}

/// The lines of `bytes` (see [`raw_lines`]), each without its trailing whitespace (the `\r` of
/// a `\r\n` with it), as `str::lines` and `str::trim_end` on the decoded text.
pub fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    raw_lines(bytes).map(trim_end)
}

/// The number of characters of the decoding of `bytes`.
#[must_use]
pub fn char_count(bytes: &[u8]) -> usize {
    if bytes.is_ascii() {
        return bytes.len();
    }
    bytes
        .utf8_chunks()
        .map(|c| c.valid().chars().count() + usize::from(!c.invalid().is_empty()))
        .sum()
}

/// A token and where it starts (1-based line, and column in characters).
#[derive(Clone, Copy, Debug)]
pub struct Token<'a> {
    pub bytes: &'a [u8],
    pub line: usize,
    pub col: usize,
}

/// The tokens of `bytes`: runs of characters that are not whitespace (`char::is_whitespace`
/// on the decoded text, so U+00A0 separates and an invalid byte belongs to a token), with
/// their places. Lazy.
#[must_use]
pub fn tokens(bytes: &[u8]) -> Tokens<'_> {
    Tokens {
        rest: bytes,
        line: 1,
        col: 0,
    }
}

/// The iterator of [`tokens`].
pub struct Tokens<'a> {
    rest: &'a [u8],
    /// The line of the first byte of `rest` (1-based).
    line: usize,
    /// The characters before `rest` on its line.
    col: usize,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        while let Some((c, len)) = first_char(self.rest).filter(|(c, _)| c.is_whitespace()) {
            self.rest = &self.rest[len..];
            if c == '\n' {
                self.line += 1;
                self.col = 0;
            } else {
                self.col += 1;
            }
        }
        if self.rest.is_empty() {
            return None;
        }
        let token = Token {
            bytes: self.rest,
            line: self.line,
            col: self.col + 1,
        };
        let mut end = 0;
        loop {
            // ASCII that is not whitespace, a byte at a time; the rest decoded.
            let run = self.rest[end..]
                .iter()
                .position(|b| !b.is_ascii() || b.is_ascii_whitespace() || *b == b'\x0b')
                .unwrap_or(self.rest.len() - end);
            end += run;
            self.col += run;
            match first_char(&self.rest[end..]) {
                Some((c, len)) if !c.is_whitespace() => {
                    end += len;
                    self.col += 1;
                }
                _ => break,
            }
        }
        self.rest = &self.rest[end..];
        Some(Token {
            bytes: &token.bytes[..end],
            ..token
        })
    }
}

/// The tokens of already decoded `text` with their line and column (1-based, in characters),
/// split the plain way: the reference that [`tokens`] and the comparison's tests are checked
/// against.
#[cfg(test)]
pub(crate) fn decoded_tokens_for_tests(text: &str) -> Vec<(String, usize, usize)> {
    let mut v = Vec::new();
    for (i, l) in text.split('\n').enumerate() {
        let mut col = 0;
        for w in l.split(char::is_whitespace) {
            if !w.is_empty() {
                v.push((w.to_owned(), i + 1, col + 1));
            }
            col += w.chars().count() + 1;
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples with every kind of sequence: ASCII, multi-byte characters, Unicode whitespace,
    /// invalid and truncated sequences, a literal U+FFFD, line ends.
    const PIECES: [&[u8]; 20] = [
        b"a",
        b"7",
        b" ",
        b"\t",
        b"\r",
        b"\n",
        "\u{a0}".as_bytes(),
        "\u{3000}".as_bytes(),
        "\u{85}".as_bytes(),
        "\u{2028}".as_bytes(),
        "\u{200b}".as_bytes(),
        b"\xe2\x80",
        "é".as_bytes(),
        "\u{1F600}".as_bytes(),
        "\u{FFFD}".as_bytes(),
        b"\xff",
        b"\xe2\x82",
        b"\xf0\x9f\x98",
        b"\xc0\x80",
        b"\xed\xa0\x80",
    ];

    /// Every sequence of up to 4 pieces, and some longer ones.
    fn samples() -> Vec<Vec<u8>> {
        let mut all = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..3 {
            let mut next = Vec::new();
            for s in &last {
                for p in PIECES {
                    let mut t: Vec<u8> = s.clone();
                    t.extend_from_slice(p);
                    next.push(t);
                }
            }
            all.extend(next.iter().cloned());
            last = next;
        }
        let mut seed = 7u64;
        for _ in 0..2000 {
            let mut t = Vec::new();
            for _ in 0..12 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                t.extend_from_slice(PIECES[(seed >> 33) as usize % PIECES.len()]);
            }
            all.push(t);
        }
        all
    }

    #[test]
    fn chars_and_first_char_decode_as_from_utf8_lossy() {
        for s in samples() {
            let lossy = String::from_utf8_lossy(&s);
            assert!(chars(&s).eq(lossy.chars()), "{s:?}");
            assert_eq!(char_count(&s), lossy.chars().count(), "{s:?}");
            let mut stepped = Vec::new();
            let mut rest = &s[..];
            while let Some((c, len)) = first_char(rest) {
                stepped.push(c);
                rest = &rest[len..];
            }
            assert!(stepped.iter().copied().eq(lossy.chars()), "{s:?}");
        }
    }

    #[test]
    fn trim_end_and_lines_match_str() {
        for s in samples() {
            let lossy = String::from_utf8_lossy(&s);
            let ours: Vec<String> = lines(&s)
                .map(|l| String::from_utf8_lossy(l).into_owned())
                .collect();
            let theirs: Vec<&str> = lossy.lines().map(str::trim_end).collect();
            assert_eq!(ours, theirs, "{s:?}");
        }
    }

    #[test]
    fn tokens_match_a_split_of_the_decoded_text() {
        for s in samples() {
            let theirs = decoded_tokens_for_tests(&String::from_utf8_lossy(&s));
            let ours: Vec<(String, usize, usize)> = tokens(&s)
                .map(|t| (String::from_utf8_lossy(t.bytes).into_owned(), t.line, t.col))
                .collect();
            assert_eq!(ours, theirs, "{s:?}");
        }
    }

    #[test]
    fn same_and_common_chars_agree_with_the_decodings() {
        let all = samples();
        for a in all.iter().step_by(37) {
            for b in all.iter().step_by(29) {
                let (x, y) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
                assert_eq!(same(a, b), x == y, "{a:?} {b:?}");
                let common = x.chars().zip(y.chars()).take_while(|(p, q)| p == q).count();
                assert_eq!(common_chars(a, b), (common, x == y), "{a:?} {b:?}");
            }
            // Against itself with one byte changed or cut.
            for i in 0..a.len() {
                for edit in [0x01u8, 0x40, 0x80, 0xc0] {
                    let mut b = a.clone();
                    b[i] ^= edit;
                    let (x, y) = (String::from_utf8_lossy(a), String::from_utf8_lossy(&b));
                    let common = x.chars().zip(y.chars()).take_while(|(p, q)| p == q).count();
                    assert_eq!(common_chars(a, &b), (common, x == y), "{a:?} {b:?}");
                }
                let (x, y) = (String::from_utf8_lossy(a), String::from_utf8_lossy(&a[..i]));
                let common = x.chars().zip(y.chars()).take_while(|(p, q)| p == q).count();
                assert_eq!(common_chars(a, &a[..i]), (common, x == y), "{a:?} {i}");
            }
        }
    }

    #[test]
    fn char_offsets_find_the_characters() {
        let mut long = "é".repeat(100).into_bytes();
        long.extend_from_slice(b"\xffab");
        long.extend("x".repeat(200).bytes());
        for s in samples().into_iter().step_by(7).chain([long]) {
            let mut offsets = Vec::new();
            let mut at = 0;
            while let Some((_, len)) = first_char(&s[at..]) {
                offsets.push(at);
                at += len;
            }
            let ks: Vec<usize> = (0..offsets.len() + 2).collect();
            let expected: Vec<usize> = ks
                .iter()
                .map(|&k| offsets.get(k).copied().unwrap_or(s.len()))
                .collect();
            assert_eq!(char_offsets(&s, &ks), expected, "{s:?}");
            for (k, &e) in expected.iter().enumerate() {
                assert_eq!(char_offsets(&s, &[k, k]), [e, e], "{s:?} {k}");
            }
        }
    }
}
