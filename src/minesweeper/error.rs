//! The errors the `minesweeper` analyzer reports. Messages are lowercase, one line, no final period.

use std::fmt;

use super::board::Pos;

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

/// Why an input or a board was rejected.
#[derive(Debug)]
pub enum Error {
    /// Reading the input or writing the output failed.
    Io(std::io::Error),
    /// The text is not a well-formed `.mine` board. `line` and `column` are 1-based (column counts
    /// characters); `column` 0 means the whole line.
    Syntax {
        line: usize,
        column: usize,
        expected: String,
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
        /// Which budget: "enumeration", "table size" or "combination".
        budget: &'static str,
        /// Undecided cells next to a number.
        frontier: usize,
        /// Independent parts of the frontier.
        components: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io(e) => write!(f, "input/output error: {e}"),
            Error::Syntax {
                line,
                column,
                expected,
                found,
            } => {
                if *column == 0 {
                    write!(f, "line {line}: expected {expected}, found {found}")
                } else {
                    write!(f, "line {line}, column {column}: expected {expected}, found {found}")
                }
            }
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

/// The largest width and height accepted.
pub const MAX_SIDE: usize = 1000;

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}

impl From<Inconsistency> for Error {
    fn from(why: Inconsistency) -> Self {
        Error::Inconsistent(why)
    }
}
