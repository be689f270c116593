//! The errors of the `minesweeper` puzzle: reading and writing, the `.mine` format, and the
//! analysis. Messages are lowercase, one line, no final period, and say what was expected.

use std::fmt;
use std::io;

use super::grid::Pos;

/// Why a board has no consistent arrangement of mines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inconsistency {
    /// More flags than mines on the board.
    TooManyFlags { flags: usize, mines: usize },
    /// A revealed number that its neighbours can't satisfy on their own: fewer mines than its flagged
    /// neighbours, or more than its flagged and hidden neighbours together.
    Number {
        at: Pos,
        number: u8,
        flagged: usize,
        hidden: usize,
    },
    /// The numbers around `at` contradict each other (found while deducing or enumerating).
    Numbers { at: Pos },
    /// The mines left over once the flags are placed can't be spread over the hidden cells in any way
    /// that agrees with the numbers (too many or too few for the hidden cells).
    MineCount { mines_left: usize, hidden: usize },
}

impl fmt::Display for Inconsistency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Inconsistency::TooManyFlags { flags, mines } => {
                write!(f, "{flags} flags but only {mines} mines on the board")
            }
            Inconsistency::Number {
                at,
                number,
                flagged,
                hidden,
            } => write!(
                f,
                "the {number} at x {}, y {} has {flagged} flagged and {hidden} hidden neighbours",
                at.x, at.y
            ),
            Inconsistency::Numbers { at } => write!(
                f,
                "no arrangement of mines satisfies the numbers around x {}, y {}",
                at.x, at.y
            ),
            Inconsistency::MineCount { mines_left, hidden } => write!(
                f,
                "no arrangement of the {mines_left} unflagged mines over the {hidden} hidden cells fits the numbers"
            ),
        }
    }
}

impl std::error::Error for Inconsistency {}

/// What the `.mine` reader expected where it stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// The header line `WxHxM`.
    Header,
    /// A width and a height from 1 to [`MAX_SIDE`].
    Sides,
    /// At most this many mines: one per cell.
    MinesAtMost(usize),
    /// A cell character.
    Cell,
    /// The end of a row of this many cells.
    RowEnd(usize),
    /// A revealed number at most the cell's neighbour count.
    NumberAtMost(usize),
    /// Row `row` (1-based) of `height`.
    Row { row: usize, height: usize },
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Header => write!(f, "a header \"WxHxM\" (three integers separated by 'x')"),
            Expected::Sides => write!(f, "a width and a height from 1 to {MAX_SIDE}"),
            Expected::MinesAtMost(n) => write!(f, "at most {n} mines (one per cell)"),
            Expected::Cell => write!(
                f,
                "a cell: 0-8 or '.' (revealed), 'H' or '?' (hidden), 'F' (flagged)"
            ),
            Expected::RowEnd(width) => write!(f, "the end of a row of {width} cells"),
            Expected::NumberAtMost(n) => {
                write!(f, "a number at most {n} (the cell's neighbour count)")
            }
            Expected::Row { row, height } => write!(f, "row {row} of {height}"),
        }
    }
}

/// Which work or memory budget an exact analysis would exceed (see `docs/minesweeper.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// The search nodes of the enumeration of the components.
    Enumeration,
    /// The entries of one component's table of counts.
    TableSize,
    /// The big-integer products of the combination of the components.
    Combination,
    /// The time a caller allowed the bot's searches on this thread (see
    /// `bot::set_deadline`); the analyzer itself never reports it.
    Deadline,
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Budget::Enumeration => "enumeration",
            Budget::TableSize => "table size",
            Budget::Combination => "combination",
            Budget::Deadline => "time",
        })
    }
}

/// Why an input or a board was rejected, or the output could not be written.
#[derive(Debug)]
pub enum Error {
    /// Reading the input failed.
    Read(io::Error),
    /// Writing the output failed.
    Write(io::Error),
    /// The input ended before the board did (no header, or too few rows); `line` is its last
    /// line, 1-based.
    Missing { line: usize, expected: Expected },
    /// A piece of the input that the `.mine` format does not allow there. `line` and `column` are
    /// 1-based (`column` counts characters); `found` is the input at fault.
    BadToken {
        line: usize,
        column: usize,
        expected: Expected,
        found: String,
    },
    /// A row of fewer than `width` cells: it has `cells`.
    ShortRow {
        line: usize,
        width: usize,
        cells: usize,
    },
    /// A non-blank line after the last of the `height` rows.
    Trailing {
        line: usize,
        height: usize,
        found: String,
    },
    /// [`Board::new`](super::Board::new) was given dimensions out of range.
    Size {
        width: usize,
        height: usize,
        mines: usize,
    },
    /// The board is well formed but no arrangement of mines agrees with it.
    Inconsistent(Inconsistency),
    /// The exact analysis would exceed a work or memory budget (see `docs/minesweeper.md`): only
    /// boards far larger or more tangled than expert ones.
    TooComplex {
        budget: Budget,
        /// Undecided cells next to a number.
        frontier: usize,
        /// Independent parts of the frontier.
        components: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Read(e) => write!(f, "cannot read the input: {e}"),
            Error::Write(e) => write!(f, "cannot write the output: {e}"),
            Error::Missing { line, expected } => {
                write!(f, "line {line}: expected {expected}, found the end of the input")
            }
            Error::BadToken {
                line,
                column,
                expected,
                found,
            } => write!(
                f,
                "line {line}, column {column}: expected {expected}, found {}",
                show(found)
            ),
            Error::ShortRow { line, width, cells } => write!(
                f,
                "line {line}, column {}: expected a row of {width} cells, found the end of the line after {cells}",
                cells + 1
            ),
            Error::Trailing {
                line,
                height,
                found,
            } => write!(
                f,
                "line {line}, column 1: expected the end of the input after {height} rows, found {}",
                show(found)
            ),
            Error::Size {
                width,
                height,
                mines,
            } => write!(
                f,
                "a board must be 1 to {MAX_SIDE} cells wide and high with at most one mine per cell, found {width}x{height}x{mines}"
            ),
            Error::Inconsistent(why) => write!(f, "inconsistent board: {why}"),
            Error::TooComplex {
                budget,
                frontier,
                components,
            } => write!(
                f,
                "the board is too complex for an exact analysis: {frontier} frontier cells in {components} components exceed the {budget} budget"
            ),
        }
    }
}

/// Shows a piece of the input in an error message: quoted, cut to a readable length.
fn show(text: &str) -> String {
    const MAX: usize = 24;
    let cut: String = text.chars().take(MAX).collect();
    if text.chars().count() > MAX {
        format!("{cut:?}…")
    } else {
        format!("{cut:?}")
    }
}

/// The largest width and height accepted.
pub const MAX_SIDE: usize = 1000;

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Read(e) | Error::Write(e) => Some(e),
            Error::Inconsistent(why) => Some(why),
            _ => None,
        }
    }
}

impl From<Inconsistency> for Error {
    fn from(why: Inconsistency) -> Self {
        Error::Inconsistent(why)
    }
}
