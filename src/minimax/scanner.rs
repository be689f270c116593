//! A streaming tokenizer over any reader: whitespace-separated tokens, with line and token numbers,
//! in a fixed-size buffer whatever the size of the input.

use std::io::Read;

use super::error::{show_token, Error, Location};

/// The size of the read buffer. A token longer than this is rejected (no valid token comes close).
const BUFFER: usize = 1 << 16;

/// A separator: space, tab, line feed, carriage return and every other control byte up to 0x20.
/// (One comparison, so that skipping whole buffers vectorizes.)
const fn is_space(b: u8) -> bool {
    b <= b' '
}

/// The number of tokens that start in `bytes`, given that the byte before it is a separator, and
/// the number of line feeds in it.
///
/// Eight bytes at a time (SWAR): each byte's flags live in its high bit, so a token start is a
/// non-separator whose lower neighbour byte (the previous one, little-endian) is a separator.
fn count_starts_and_lines(bytes: &[u8]) -> (u64, u64) {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;
    // High bit of each byte set where the byte is below `n` (1 <= n <= 0x80); exact, no borrows
    // cross bytes since every `(b | 0x80) - n` stays non-negative.
    let below = |x: u64, n: u64| !((x | HIGH) - n * ONES) & !x & HIGH;
    let mut chunks = bytes.chunks_exact(8);
    let (mut starts, mut lines) = (0u64, 0u64);
    let mut prev_space = 0x80u64; // the byte before `bytes` is a separator
    for chunk in &mut chunks {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let space = below(x, 0x21);
        starts += u64::from((!space & HIGH & (space << 8 | prev_space)).count_ones());
        lines += u64::from(below(x ^ (u64::from(b'\n') * ONES), 1).count_ones());
        prev_space = space >> 56;
    }
    let mut prev = prev_space != 0;
    for &b in chunks.remainder() {
        starts += u64::from(prev & !is_space(b));
        lines += u64::from(b == b'\n');
        prev = is_space(b);
    }
    (starts, lines)
}

/// Reads tokens one at a time.
///
/// Invariant: `buf[pos..len]` holds the bytes read but not yet consumed; `line` is the line of
/// `buf[pos]`, `tokens` the number of tokens consumed so far and `line_tokens` the number of
/// them on `last_line`.
pub struct Scanner<R> {
    reader: R,
    buf: Box<[u8]>,
    pos: usize,
    len: usize,
    eof: bool,
    line: u64,
    /// The line of the last token consumed (1 before the first).
    last_line: u64,
    tokens: u64,
    /// The tokens consumed on `last_line` (0 before the first).
    line_tokens: u64,
}

impl<R: Read> Scanner<R> {
    pub fn new(reader: R) -> Self {
        Scanner {
            reader,
            buf: vec![0; BUFFER].into_boxed_slice(),
            pos: 0,
            len: 0,
            eof: false,
            line: 1,
            last_line: 1,
            tokens: 0,
            line_tokens: 0,
        }
    }

    /// The line of the last token consumed (1-based; 1 before the first): where an input that
    /// ends too early is reported.
    pub fn last_line(&self) -> u64 {
        self.last_line
    }

    /// How many tokens have been consumed.
    pub fn tokens(&self) -> u64 {
        self.tokens
    }

    /// How many tokens have been consumed on [`Scanner::last_line`]: the next token on that
    /// line is number `line_tokens() + 1` of it.
    pub fn line_tokens(&self) -> u64 {
        self.line_tokens
    }

    /// Counts one token consumed, starting on the current line.
    fn count_token(&mut self) {
        self.tokens += 1;
        if self.line == self.last_line {
            self.line_tokens += 1;
        } else {
            self.line_tokens = 1;
            self.last_line = self.line;
        }
    }

    /// Moves the unconsumed bytes to the front and reads more behind them. Returns false at the
    /// end of the input.
    fn refill(&mut self) -> Result<bool, Error> {
        if self.eof {
            return Ok(false);
        }
        self.buf.copy_within(self.pos..self.len, 0);
        self.len -= self.pos;
        self.pos = 0;
        loop {
            match self.reader.read(&mut self.buf[self.len..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(n) => {
                    self.len += n;
                    return Ok(true);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Error::Read(e)),
            }
        }
    }

    /// Skips whitespace. Returns false if the input ends first.
    fn skip_space(&mut self) -> Result<bool, Error> {
        loop {
            while self.pos < self.len {
                let b = self.buf[self.pos];
                if !is_space(b) {
                    return Ok(true);
                }
                if b == b'\n' {
                    self.line += 1;
                }
                self.pos += 1;
            }
            if !self.refill()? {
                return Ok(false);
            }
        }
    }

    /// The next token and where it stands, or `None` at the end of the input.
    ///
    /// # Errors
    /// A read error, or a token longer than the buffer.
    pub fn next_token(&mut self) -> Result<Option<(&[u8], Location)>, Error> {
        if !self.skip_space()? {
            return Ok(None);
        }
        self.count_token();
        let at = Location {
            line: self.line,
            token: self.line_tokens,
        };
        let mut end = self.pos;
        loop {
            while end < self.len && !is_space(self.buf[end]) {
                end += 1;
            }
            if end < self.len || self.eof {
                break;
            }
            let consumed = self.pos;
            if consumed == 0 && self.len == self.buf.len() {
                return Err(Error::TokenTooLong { at });
            }
            self.refill()?;
            end -= consumed;
        }
        let start = self.pos;
        self.pos = end;
        Ok(Some((&self.buf[start..end], at)))
    }

    /// Consumes `count` tokens without looking at them. Returns how many it consumed: fewer than
    /// `count` only at the end of the input.
    pub fn skip_tokens(&mut self, count: u64) -> Result<u64, Error> {
        let mut left = count;
        while left > 0 {
            if !self.skip_space()? {
                break;
            }
            // A window of 2(left - 1) bytes holds fewer than `left` token starts (a token and its
            // separator take two bytes at least), so it is skipped whole, at a linear cost.
            let room = usize::try_from(left - 1)
                .unwrap_or(usize::MAX / 2)
                .saturating_mul(2);
            let window = (self.len - self.pos).min(room);
            if window > 0 {
                let chunk = &self.buf[self.pos..self.pos + window];
                let (starts, lines) = count_starts_and_lines(chunk);
                let tail = chunk
                    .iter()
                    .rposition(|&b| !is_space(b))
                    .map_or(0, |i| i + 1);
                let trailing_lines = count_starts_and_lines(&chunk[tail..]).1;
                let cut = tail == chunk.len();
                // The tokens of the chunk's last line with a token: those after the chunk's
                // last newline before it, or, with none, those of the line it starts on.
                let last_line = self.line + lines - trailing_lines;
                self.line_tokens = match chunk[..tail].iter().rposition(|&b| b == b'\n') {
                    Some(nl) => count_starts_and_lines(&chunk[nl + 1..tail]).0,
                    None if self.line == self.last_line => self.line_tokens + starts,
                    None => starts,
                };
                left -= starts;
                self.tokens += starts;
                self.line += lines;
                self.last_line = last_line;
                self.pos += window;
                if cut {
                    self.skip_token_body()?;
                }
                continue;
            }
            left -= 1;
            self.count_token();
            self.skip_token_body()?;
        }
        Ok(count - left)
    }

    /// Consumes the non-space bytes at the cursor, across buffer refills.
    fn skip_token_body(&mut self) -> Result<(), Error> {
        loop {
            while self.pos < self.len {
                if is_space(self.buf[self.pos]) {
                    return Ok(());
                }
                self.pos += 1;
            }
            if !self.refill()? {
                return Ok(());
            }
        }
    }

    /// Fails if any token is left.
    ///
    /// # Errors
    /// [`Error::Trailing`] on the first token left, or a read error.
    pub fn expect_end(&mut self) -> Result<(), Error> {
        match self.next_token()? {
            None => Ok(()),
            Some((bytes, at)) => Err(Error::Trailing {
                at,
                found: show_token(bytes),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    /// The plain byte-by-byte definition of `count_starts_and_lines`.
    fn plain_starts_and_lines(bytes: &[u8]) -> (u64, u64) {
        let mut prev = true;
        let (mut starts, mut lines) = (0, 0);
        for &b in bytes {
            starts += u64::from(prev && !super::is_space(b));
            lines += u64::from(b == b'\n');
            prev = super::is_space(b);
        }
        (starts, lines)
    }

    #[test]
    fn swar_counts_match_the_plain_definition() {
        // Every byte value, at every offset and length, in a deterministic pseudo-random mix.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut bytes = Vec::new();
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let pick = [
                b' ', b'\n', b'7', b'-', 0x20, 0x21, 0x00, 0x7f, 0x80, 0xa0, 0xff, b'\t',
            ];
            bytes.push(if state.is_multiple_of(3) {
                (state >> 8) as u8
            } else {
                pick[(state >> 16) as usize % pick.len()]
            });
        }
        for start in 0..9 {
            for len in [0, 1, 7, 8, 9, 15, 16, 17, 100, 1000, 19_000] {
                let slice = &bytes[start..start + len];
                assert_eq!(
                    super::count_starts_and_lines(slice),
                    plain_starts_and_lines(slice),
                    "start {start} len {len}"
                );
            }
        }
    }

    use super::*;

    /// A reader that hands out one byte per call, to force every token across a refill.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            match self.0.split_first() {
                Some((&b, rest)) if !out.is_empty() => {
                    out[0] = b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    fn all_tokens<R: Read>(mut s: Scanner<R>) -> Vec<(String, u64, u64)> {
        let mut out = Vec::new();
        while let Some((t, at)) = s.next_token().unwrap() {
            out.push((String::from_utf8_lossy(t).into_owned(), at.line, at.token));
        }
        out
    }

    #[test]
    fn tokens_keep_their_line_and_number_across_refills() {
        let text = b"  12 -3\n\n4\t+5 \r\n 678  ";
        // Numbered within their line.
        let expected = vec![
            ("12".to_string(), 1, 1),
            ("-3".to_string(), 1, 2),
            ("4".to_string(), 3, 1),
            ("+5".to_string(), 3, 2),
            ("678".to_string(), 4, 1),
        ];
        assert_eq!(all_tokens(Scanner::new(&text[..])), expected);
        assert_eq!(all_tokens(Scanner::new(Trickle(text))), expected);
    }

    #[test]
    fn skipping_counts_tokens_and_stops_at_the_end() {
        let mut s = Scanner::new(Trickle(b"a bb\nccc d"));
        assert_eq!(s.skip_tokens(3).unwrap(), 3);
        assert_eq!(s.last_line(), 2);
        assert_eq!(s.tokens(), 3);
        let (t, at) = s.next_token().unwrap().unwrap();
        assert_eq!((t, at.line, at.token), (&b"d"[..], 2, 2));
        assert_eq!(s.skip_tokens(5).unwrap(), 0);
    }

    #[test]
    fn bulk_skips_keep_counts_and_lines() {
        let text: Vec<u8> = (0..50_000)
            .flat_map(|i| format!("{i}{}", if i % 7 == 6 { "\n" } else { " " }).into_bytes())
            .collect();
        let mut s = Scanner::new(&text[..]);
        assert_eq!(s.skip_tokens(49_990).unwrap(), 49_990);
        assert_eq!(s.tokens(), 49_990);
        assert_eq!(s.last_line(), 49_989 / 7 + 1);
        assert_eq!(s.line_tokens(), 49_989 % 7 + 1);
        let (t, at) = s.next_token().unwrap().unwrap();
        assert_eq!(
            (t, at.token, at.line),
            (&b"49990"[..], 49_990 % 7 + 1, 49_990 / 7 + 1)
        );
        assert_eq!(s.skip_tokens(100).unwrap(), 9);
        let mut s = Scanner::new(Trickle(&text[..2000]));
        let n = s.skip_tokens(u64::MAX).unwrap();
        assert_eq!(n, all_tokens(Scanner::new(&text[..2000])).len() as u64);
    }

    /// After skipping any number of tokens, in bulk or one by one, the next token has the line
    /// and the number within its line that reading every token gives it; lines of every length,
    /// blank lines included.
    #[test]
    fn skips_keep_the_token_number_within_the_line() {
        let text: Vec<u8> = (0..30_000u32)
            .flat_map(|i| {
                let sep = match (i % 5, i % 11, i % 97) {
                    (_, _, 0) => "\n\n \n",
                    (4, _, _) | (_, 3, _) => "\n",
                    _ => " ",
                };
                format!("{i}{sep}").into_bytes()
            })
            .collect();
        let all = all_tokens(Scanner::new(&text[..]));
        for skip in [0, 1, 2, 4, 5, 6, 13, 96, 97, 98, 500, 1_001, 9_999, 29_998] {
            for trickle in [false, true] {
                let next = if trickle {
                    let mut s = Scanner::new(Trickle(&text[..]));
                    assert_eq!(s.skip_tokens(skip).unwrap(), skip);
                    s.next_token().unwrap().map(|(_, at)| (at.line, at.token))
                } else {
                    let mut s = Scanner::new(&text[..]);
                    assert_eq!(s.skip_tokens(skip).unwrap(), skip);
                    s.next_token().unwrap().map(|(_, at)| (at.line, at.token))
                };
                let (_, line, token) = &all[skip as usize];
                assert_eq!(
                    next,
                    Some((*line, *token)),
                    "skip {skip}, trickle {trickle}"
                );
            }
        }
    }

    #[test]
    fn a_token_longer_than_the_buffer_is_an_error() {
        let long = vec![b'7'; BUFFER + 10];
        let mut s = Scanner::new(&long[..]);
        assert!(matches!(s.next_token(), Err(Error::TokenTooLong { .. })));
    }
}
