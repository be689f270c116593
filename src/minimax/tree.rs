//! The shape of the game tree, read from the header `D B`, and the leaf parser.

use std::io::Read;

use super::error::{show_token, Error, Location};
use super::scanner::Scanner;

/// A leaf score of the maximizing player.
pub type Score = i64;

/// The tree's depth and branching factor.
///
/// Invariant: `depth >= 1`, `branching >= 1`, and `branching^depth` fits in a `u64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub depth: u64,
    pub branching: u64,
}

impl Shape {
    /// Checks a header. Never allocates.
    ///
    /// # Errors
    /// `depth` or `branching` below 1, or more leaves than a `u64` holds.
    pub fn new(depth: u64, branching: u64) -> Result<Shape, Error> {
        let shape = Shape { depth, branching };
        if shape.leaves_below(0).is_none() {
            return Err(Error::TooManyLeaves { depth, branching });
        }
        Ok(shape)
    }

    /// The number of leaves under one node at `level` (the root is level 0), or `None` on overflow.
    pub fn leaves_below(&self, level: u64) -> Option<u64> {
        let height = u32::try_from(self.depth - level).ok();
        match self.branching {
            1 => Some(1),
            b => height.and_then(|h| b.checked_pow(h)),
        }
    }

    /// Reads `D B` from the scanner.
    pub fn read<R: Read>(scanner: &mut Scanner<R>) -> Result<Shape, Error> {
        let depth = read_positive(scanner, "the depth D (an integer >= 1)")?;
        let branching = read_positive(scanner, "the branching factor B (an integer >= 1)")?;
        Shape::new(depth, branching)
    }
}

fn read_positive<R: Read>(scanner: &mut Scanner<R>, expected: &'static str) -> Result<u64, Error> {
    let missing = Location {
        line: scanner.last_line(),
        token: scanner.line_tokens() + 1,
    };
    let (bytes, at) = scanner.next_token()?.ok_or(Error::Missing {
        at: missing,
        expected,
    })?;
    match std::str::from_utf8(bytes)
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
    {
        Some(n) if n >= 1 => Ok(n),
        _ => Err(Error::BadToken {
            at,
            expected,
            found: show_token(bytes),
        }),
    }
}

/// Parses a leaf: an optional sign and decimal digits, within the `i64` range.
pub fn parse_leaf(bytes: &[u8], at: Location) -> Result<Score, Error> {
    let bad = |expected| Error::BadToken {
        at,
        expected,
        found: show_token(bytes),
    };
    let (negative, digits) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, bytes),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(bad("an integer leaf"));
    }
    let mut magnitude: i128 = 0;
    for &d in digits {
        magnitude = magnitude * 10 + i128::from(d - b'0');
        if magnitude > 1 << 63 {
            return Err(bad("a leaf within the i64 range"));
        }
    }
    let value = if negative { -magnitude } else { magnitude };
    Score::try_from(value).map_err(|_| bad("a leaf within the i64 range"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const AT: Location = Location { line: 1, token: 3 };

    #[test]
    fn leaves_parse_over_the_whole_i64_range() {
        assert_eq!(parse_leaf(b"-9223372036854775808", AT).unwrap(), i64::MIN);
        assert_eq!(parse_leaf(b"9223372036854775807", AT).unwrap(), i64::MAX);
        assert_eq!(parse_leaf(b"+0007", AT).unwrap(), 7);
        for bad in [
            &b"9223372036854775808"[..],
            b"-9223372036854775809",
            b"-",
            b"1.5",
            b"x",
            b"99999999999999999999999999999999",
        ] {
            assert!(parse_leaf(bad, AT).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn shapes_reject_overflowing_leaf_counts() {
        assert!(Shape::new(63, 2).is_ok());
        assert!(Shape::new(64, 2).is_err());
        assert!(Shape::new(u64::MAX, 1).is_ok());
        assert_eq!(Shape::new(3, 14).unwrap().leaves_below(1), Some(196));
        assert!(Shape::new(17, 14).is_err());
    }
}
