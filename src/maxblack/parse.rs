//! Reading `N K` (a square) or `N M K` (N rows, M columns).

use std::io::Read;
use std::num::IntErrorKind;

use super::error::Error;
use super::MAX_N;

/// One puzzle: grids of `rows` x `cols` cells with no `k` black cells in a row.
///
/// Invariant (checked by [`Puzzle::new`] and [`Puzzle::rectangle`]): `1 <= rows, cols <= MAX_N`
/// and `k >= 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Puzzle {
    rows: usize,
    cols: usize,
    k: usize,
}

impl Puzzle {
    /// The square puzzle for `n` and `k`, or `None` unless `1 <= n <= MAX_N` and `k >= 1`.
    #[must_use]
    pub fn new(n: usize, k: usize) -> Option<Puzzle> {
        Puzzle::rectangle(n, n, k)
    }

    /// The puzzle for `rows` x `cols` grids, or `None` unless both are in `1..=MAX_N` and
    /// `k >= 1`.
    #[must_use]
    pub fn rectangle(rows: usize, cols: usize, k: usize) -> Option<Puzzle> {
        let side = 1..=MAX_N;
        (side.contains(&rows) && side.contains(&cols) && k >= 1).then_some(Puzzle { rows, cols, k })
    }

    /// The number of rows.
    #[must_use]
    pub fn rows(self) -> usize {
        self.rows
    }

    /// The number of columns.
    #[must_use]
    pub fn cols(self) -> usize {
        self.cols
    }

    /// The run length no line may hold.
    #[must_use]
    pub fn k(self) -> usize {
        self.k
    }
}

/// Reads `N K` (an N x N square) or `N M K` (N rows, M columns) on the first line; blank lines
/// may follow, nothing else.
///
/// # Errors
/// [`Error::Read`] if the input cannot be read or is not UTF-8, [`Error::Missing`] if a number is
/// missing (a K too large for a `usize` is read as `usize::MAX`: no line is that long), [`Error::BadToken`] if a token is not an integer in range, [`Error::Trailing`] if
/// anything follows `K`.
pub fn parse<R: Read>(mut input: R) -> Result<Puzzle, Error> {
    let mut text = String::new();
    input.read_to_string(&mut text).map_err(Error::Read)?;
    parse_text(&text)
}

fn parse_text(text: &str) -> Result<Puzzle, Error> {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    let tokens: Vec<&str> = first.split_whitespace().collect();
    let rows = number(tokens.first().copied(), 1, "an integer N in 1..=20", MAX_N)?;
    // Two numbers are a square `N K`, three a rectangle `N M K`.
    let (cols, k_index) = if tokens.len() >= 3 {
        (
            number(Some(tokens[1]), 2, "an integer M in 1..=20", MAX_N)?,
            3,
        )
    } else {
        (rows, 2)
    };
    let k = number(
        tokens.get(k_index - 1).copied(),
        k_index,
        "an integer K >= 1",
        usize::MAX,
    )?;
    let trailing = |line, token, found: &str| Error::Trailing {
        line,
        token,
        found: found.into(),
    };
    if let Some(t) = tokens.get(k_index) {
        return Err(trailing(1, k_index + 1, t));
    }
    for (i, line) in lines.enumerate() {
        if let Some(t) = line.split_whitespace().next() {
            return Err(trailing(i + 2, 1, t));
        }
    }
    Ok(Puzzle { rows, cols, k })
}

fn number(
    token: Option<&str>,
    index: usize,
    expected: &'static str,
    max: usize,
) -> Result<usize, Error> {
    let t = token.ok_or(Error::Missing {
        line: 1,
        token: index,
        expected,
    })?;
    // A K too large for a `usize` is as good as K = usize::MAX: longer than every line.
    let parsed = t.parse::<usize>().or_else(|e| match e.kind() {
        IntErrorKind::PosOverflow if max == usize::MAX => Ok(usize::MAX),
        _ => Err(e),
    });
    match parsed {
        Ok(v) if (1..=max).contains(&v) => Ok(v),
        _ => Err(Error::BadToken {
            line: 1,
            token: index,
            expected,
            found: t.into(),
        }),
    }
}
