//! Reading JSMinesweeper's `.mine` text: `WxHxM`, then `H` rows of `W` cells.

use std::io::Read;

use super::board::{Board, Cell};
use super::error::{Error, Expected, MAX_SIDE};
use super::grid::Pos;

/// Reads a board in the `.mine` format (see [`Board::parse`]) from `input`, to its end. Bytes that
/// are not UTF-8 are read as U+FFFD, which no cell is, so they are reported where they stand.
///
/// # Errors
/// [`Error::Read`] if reading fails, else as [`Board::parse`].
pub fn parse<R: Read>(mut input: R) -> Result<Board, Error> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes).map_err(Error::Read)?;
    Board::parse(&String::from_utf8_lossy(&bytes))
}

/// A line of the input with its 1-based number, trailing spaces, tabs and `\r` removed.
struct Line<'a> {
    number: usize,
    text: &'a str,
}

/// The non-blank lines of `text`.
fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    text.split('\n')
        .enumerate()
        .map(|(i, l)| Line {
            number: i + 1,
            text: l.trim_end_matches([' ', '\t', '\r']),
        })
        .filter(|l| !l.text.is_empty())
}

fn bad(line: usize, column: usize, expected: Expected, found: &str) -> Error {
    Error::BadToken {
        line,
        column,
        expected,
        found: found.to_owned(),
    }
}

impl Board {
    /// Reads a board in the `.mine` format.
    ///
    /// Line 1 is `WxHxM` (width, height, total mines with flags included; `X` is accepted for `x`),
    /// then `H` rows of `W` cells: `0`-`8` or `.` (a revealed number, `.` meaning 0), `H` or `?`
    /// (hidden), `F` (flagged). Blank lines and trailing spaces are ignored.
    ///
    /// # Errors
    /// Each naming the line (and the column, counted in characters):
    /// - [`Error::Missing`]: no header, or fewer than `H` rows;
    /// - [`Error::BadToken`]: a malformed header, `W` or `H` outside 1..=1000, `M > W * H`, a bad
    ///   character, a row longer than `W`, or a revealed number larger than the cell's neighbour
    ///   count;
    /// - [`Error::ShortRow`]: a row shorter than `W`;
    /// - [`Error::Trailing`]: a non-blank line after the last row.
    pub fn parse(text: &str) -> Result<Board, Error> {
        let mut lines = lines(text);
        let header = lines.next().ok_or(Error::Missing {
            line: 1,
            expected: Expected::Header,
        })?;
        let mut board = read_header(&header)?;
        let height = board.height();
        let mut row_lines = Vec::with_capacity(height);
        for line in lines.by_ref() {
            if row_lines.len() == height {
                return Err(Error::Trailing {
                    line: line.number,
                    height,
                    found: line.text.to_owned(),
                });
            }
            read_row(&mut board, row_lines.len(), &line)?;
            row_lines.push(line.number);
        }
        if row_lines.len() < height {
            return Err(Error::Missing {
                line: text.split('\n').count(),
                expected: Expected::Row {
                    row: row_lines.len() + 1,
                    height,
                },
            });
        }
        check_numbers(&board, &row_lines)?;
        Ok(board)
    }
}

/// Parses `WxHxM` and returns an all-hidden board of that size.
fn read_header(line: &Line<'_>) -> Result<Board, Error> {
    let mut values = [0usize; 3];
    let mut column = 1;
    let mut parts = line.text.split(['x', 'X']);
    for value in &mut values {
        let Some(part) = parts.next() else {
            let end = line.text.chars().count() + 1;
            return Err(bad(line.number, end, Expected::Header, line.text));
        };
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad(line.number, column, Expected::Header, line.text));
        }
        // Any value over 10^7 is out of range anyway: saturate instead of overflowing.
        *value = part.bytes().fold(0usize, |v, b| {
            (v * 10 + usize::from(b - b'0')).min(10_000_000)
        });
        column += part.chars().count() + 1;
    }
    if parts.next().is_some() {
        return Err(bad(line.number, column - 1, Expected::Header, line.text));
    }
    let [width, height, mines] = values;
    if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
        return Err(bad(line.number, 1, Expected::Sides, line.text));
    }
    if mines > width * height {
        let expected = Expected::MinesAtMost(width * height);
        return Err(bad(line.number, 1, expected, line.text));
    }
    Board::new(width, height, mines)
}

/// Reads row `y` of the board from `line`.
fn read_row(board: &mut Board, y: usize, line: &Line<'_>) -> Result<(), Error> {
    let width = board.width();
    let mut count = 0;
    for (x, (at, ch)) in line.text.char_indices().enumerate() {
        if x == width {
            let rest = &line.text[at..];
            return Err(bad(line.number, x + 1, Expected::RowEnd(width), rest));
        }
        let cell = match ch {
            '0'..='8' => Cell::Revealed(ch as u8 - b'0'),
            '.' => Cell::Revealed(0),
            'H' | '?' => Cell::Hidden,
            'F' => Cell::Flagged,
            _ => {
                let found = &line.text[at..at + ch.len_utf8()];
                return Err(bad(line.number, x + 1, Expected::Cell, found));
            }
        };
        board.set(Pos::new(x, y), cell);
        count += 1;
    }
    if count < width {
        return Err(Error::ShortRow {
            line: line.number,
            width,
            cells: count,
        });
    }
    Ok(())
}

/// Rejects a revealed number larger than the cell's neighbour count.
fn check_numbers(board: &Board, row_lines: &[usize]) -> Result<(), Error> {
    for p in board.positions() {
        if let Cell::Revealed(n) = board.get(p) {
            let neighbours = board.neighbours(p).count();
            if usize::from(n) > neighbours {
                let expected = Expected::NumberAtMost(neighbours);
                return Err(bad(row_lines[p.y], p.x + 1, expected, &n.to_string()));
            }
        }
    }
    Ok(())
}
