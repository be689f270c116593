//! Reading the line modes' commands in bounded memory: a line longer than [`MAX_LINE`] bytes is
//! read to its end and dropped, never held whole.

use std::io::{self, BufRead};

/// The longest line the line modes take, in bytes, its end of line not counted. Every command
/// fits in a few dozen bytes; the bound leaves room for a long file name after `save`.
pub const MAX_LINE: usize = 4096;

/// What [`read_line`] found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Read {
    /// A line, now in the buffer (without its `\n`; a last line may lack it).
    Line,
    /// A line longer than the limit, skipped to its end; the buffer holds its first bytes.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads one line of `input` into `line` (cleared first), keeping at most `max` bytes: a longer
/// line is consumed to its end (or the end of the input) without growing `line`, so memory stays
/// bounded whatever the input. A `\r` before the `\n` is kept (the commands trim it).
///
/// # Errors
/// A read error other than an interruption, which is retried.
pub fn read_line<R: BufRead + ?Sized>(
    input: &mut R,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<Read> {
    line.clear();
    let mut seen = 0usize;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(match seen {
                0 => Read::End,
                n if n > max => Read::TooLong,
                _ => Read::Line,
            });
        }
        let (chunk, ends) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], true),
            None => (available, false),
        };
        let room = max.saturating_sub(line.len()).min(chunk.len());
        line.extend_from_slice(&chunk[..room]);
        seen = seen.saturating_add(chunk.len());
        let used = chunk.len() + usize::from(ends);
        input.consume(used);
        if ends {
            return Ok(if seen > max {
                Read::TooLong
            } else {
                Read::Line
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Read as _};

    /// Every line of `text` read with a limit of `max` through a buffer of `capacity` bytes.
    fn lines(text: &[u8], max: usize, capacity: usize) -> Vec<(Read, Vec<u8>)> {
        let mut input = BufReader::with_capacity(capacity, text);
        let mut line = Vec::new();
        let mut found = Vec::new();
        loop {
            let r = read_line(&mut input, &mut line, max).expect("no error");
            assert!(line.len() <= max, "kept {} bytes", line.len());
            if r == Read::End {
                return found;
            }
            found.push((r, line.clone()));
        }
    }

    /// The same lines by the standard library, with the verdict the limit gives.
    fn reference(text: &[u8], max: usize) -> Vec<(Read, Vec<u8>)> {
        let mut found = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let (line, next) = match rest.iter().position(|&b| b == b'\n') {
                Some(i) => (&rest[..i], &rest[i + 1..]),
                None => (rest, &rest[rest.len()..]),
            };
            let kept = line[..line.len().min(max)].to_vec();
            let verdict = if line.len() > max {
                Read::TooLong
            } else {
                Read::Line
            };
            found.push((verdict, kept));
            rest = next;
        }
        found
    }

    #[test]
    fn lines_agree_with_a_plain_split_whatever_the_buffer() {
        // Every text over the alphabet {a, \n} up to 9 bytes, limits 0 to 4, buffers 1 to 5.
        for len in 0..=9u32 {
            for bits in 0..1u32 << len {
                let text: Vec<u8> = (0..len)
                    .map(|i| if bits >> i & 1 == 1 { b'\n' } else { b'a' })
                    .collect();
                for max in 0..=4 {
                    for capacity in 1..=5 {
                        assert_eq!(
                            lines(&text, max, capacity),
                            reference(&text, max),
                            "{text:?} max {max} capacity {capacity}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_line_of_a_gigabyte_is_skipped_in_bounded_memory() {
        let huge = io::repeat(b'x').take(1 << 30);
        let mut input = BufReader::new(huge.chain(&b"\nquit\n"[..]));
        let mut line = Vec::new();
        let r = read_line(&mut input, &mut line, MAX_LINE).expect("no error");
        assert_eq!(r, Read::TooLong);
        assert!(line.capacity() <= 2 * MAX_LINE, "{}", line.capacity());
        assert_eq!(
            read_line(&mut input, &mut line, MAX_LINE).ok(),
            Some(Read::Line)
        );
        assert_eq!(line, b"quit");
    }
}
