//! Reading JSMinesweeper's `.mine` text: `WxHxM`, then `H` rows of `W` cells.

use super::board::{Board, Cell, Pos};
use super::error::{Error, MAX_SIDE};

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

fn syntax(line: usize, column: usize, expected: impl Into<String>, found: String) -> Error {
    Error::Syntax {
        line,
        column,
        expected: expected.into(),
        found,
    }
}

/// Shows a piece of the input in an error message: quoted, cut to a readable length.
fn show(text: &str) -> String {
    const MAX: usize = 24;
    let cut: String = text.chars().take(MAX).collect();
    if text.chars().count() > MAX {
        format!("{:?}…", cut)
    } else {
        format!("{cut:?}")
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
    /// [`Error::Syntax`], naming the line and column, for anything else: a malformed header, `W` or
    /// `H` outside 1..=1000, `M > W * H`, a bad character, a row of the wrong length, too few or too
    /// many rows, or a revealed number larger than the cell's neighbour count.
    pub fn parse(text: &str) -> Result<Board, Error> {
        let mut lines = lines(text);
        let Some(header) = lines.next() else {
            return Err(syntax(
                1,
                0,
                "a header \"WxHxM\"",
                "the end of the input".into(),
            ));
        };
        let mut board = read_header(&header)?;
        let mut row_lines = Vec::with_capacity(board.height());
        for line in lines.by_ref() {
            if row_lines.len() == board.height() {
                return Err(syntax(
                    line.number,
                    1,
                    format!("the end of the input after {} rows", board.height()),
                    show(line.text),
                ));
            }
            read_row(&mut board, row_lines.len(), &line)?;
            row_lines.push(line.number);
        }
        if row_lines.len() < board.height() {
            let last = text.split('\n').count();
            return Err(syntax(
                last,
                0,
                format!("{} rows", board.height()),
                format!("the end of the input after {}", row_lines.len()),
            ));
        }
        check_numbers(&board, &row_lines)?;
        Ok(board)
    }
}

/// Parses `WxHxM` and returns an all-hidden board of that size.
fn read_header(line: &Line<'_>) -> Result<Board, Error> {
    const EXPECTED: &str = "a header \"WxHxM\" (three integers separated by 'x')";
    let mut values = [0usize; 3];
    let mut column = 1;
    let mut parts = line.text.split(['x', 'X']);
    for value in &mut values {
        let Some(part) = parts.next() else {
            let end = line.text.chars().count() + 1;
            return Err(syntax(line.number, end, EXPECTED, show(line.text)));
        };
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(syntax(line.number, column, EXPECTED, show(line.text)));
        }
        // Any value over 10^7 is out of range anyway: saturate instead of overflowing.
        *value = part.bytes().fold(0usize, |v, b| {
            (v * 10 + usize::from(b - b'0')).min(10_000_000)
        });
        column += part.chars().count() + 1;
    }
    if parts.next().is_some() {
        return Err(syntax(line.number, column - 1, EXPECTED, show(line.text)));
    }
    let [width, height, mines] = values;
    if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
        return Err(syntax(
            line.number,
            1,
            format!("a width and a height from 1 to {MAX_SIDE}"),
            show(line.text),
        ));
    }
    if mines > width * height {
        return Err(syntax(
            line.number,
            1,
            format!("at most {} mines (one per cell)", width * height),
            show(line.text),
        ));
    }
    Board::new(width, height, mines)
}

/// Reads row `y` of the board from `line`.
fn read_row(board: &mut Board, y: usize, line: &Line<'_>) -> Result<(), Error> {
    const EXPECTED: &str = "a cell: 0-8 or '.' (revealed), 'H' or '?' (hidden), 'F' (flagged)";
    let width = board.width();
    let mut count = 0;
    for (x, ch) in line.text.chars().enumerate() {
        if x == width {
            return Err(syntax(
                line.number,
                x + 1,
                format!("the end of a row of {width} cells"),
                show(&line.text[line.text.char_indices().nth(x).map_or(0, |(i, _)| i)..]),
            ));
        }
        let cell = match ch {
            '0'..='8' => Cell::Revealed(ch as u8 - b'0'),
            '.' => Cell::Revealed(0),
            'H' | '?' => Cell::Hidden,
            'F' => Cell::Flagged,
            _ => return Err(syntax(line.number, x + 1, EXPECTED, format!("{ch:?}"))),
        };
        board.set(Pos::new(x, y), cell);
        count += 1;
    }
    if count < width {
        return Err(syntax(
            line.number,
            count + 1,
            format!("a row of {width} cells"),
            format!("the end of the line after {count}"),
        ));
    }
    Ok(())
}

/// Rejects a revealed number larger than the cell's neighbour count.
fn check_numbers(board: &Board, row_lines: &[usize]) -> Result<(), Error> {
    for p in board.positions() {
        if let Cell::Revealed(n) = board.get(p) {
            let neighbours = board.neighbours(p).count();
            if usize::from(n) > neighbours {
                return Err(syntax(
                    row_lines[p.y],
                    p.x + 1,
                    format!("a number at most {neighbours} (the cell's neighbour count)"),
                    format!("'{n}'"),
                ));
            }
        }
    }
    Ok(())
}
