//! Why an input is rejected. Every message is one lowercase line with no final period, and names
//! the line (and cell) where the problem is.

use std::fmt;

/// What went wrong while reading a position or writing the answer.
#[derive(Debug)]
pub enum Error {
    /// Reading the input failed.
    Read(std::io::Error),
    /// Writing the answer failed.
    Write(std::io::Error),
    /// The input ended where line `line` (from its cell `cell`) was expected.
    Missing {
        line: usize,
        cell: usize,
        expected: &'static str,
    },
    /// The input is longer than any valid position can be.
    TooLong { limit: usize },
    /// A line holds the wrong number of tokens.
    WrongCount {
        line: usize,
        expected: &'static str,
        found: usize,
    },
    /// A token is not a cell (or a piece in hand).
    BadToken {
        line: usize,
        token: usize,
        expected: &'static str,
        found: String,
    },
    /// A non-blank line after the piece in hand.
    Trailing { line: usize },
    /// The same piece appears twice (on the board, or on the board and in hand).
    Duplicate {
        line: usize,
        token: usize,
        piece: String,
        first: String,
    },
    /// Some line of four already shares an attribute: the game is over.
    AlreadyWon,
    /// All 16 cells are filled.
    FullBoard,
    /// `-` (no piece in hand) with pieces on the board.
    NoPieceInHand { line: usize },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Read(e) => write!(f, "cannot read the input: {e}"),
            Error::Write(e) => write!(f, "cannot write the output: {e}"),
            Error::Missing {
                line,
                cell,
                expected,
            } => write!(
                f,
                "line {line}, cell {cell}: expected {expected}, found end of input"
            ),
            Error::TooLong { limit } => {
                write!(
                    f,
                    "the input is longer than {limit} bytes, too long for a position"
                )
            }
            Error::WrongCount {
                line,
                expected,
                found,
            } => write!(f, "line {line}: expected {expected}, found {found} tokens"),
            Error::BadToken {
                line,
                token,
                expected,
                found,
            } => write!(
                f,
                "line {line}, cell {token}: expected {expected}, found {found:?}"
            ),
            Error::Trailing { line } => {
                write!(
                    f,
                    "line {line}: expected the end of the input after the piece in hand"
                )
            }
            Error::Duplicate {
                line,
                token,
                piece,
                first,
            } => write!(
                f,
                "line {line}, cell {token}: piece {piece} is already {first}"
            ),
            Error::AlreadyWon => write!(
                f,
                "the position is already won: a full line shares an attribute"
            ),
            Error::FullBoard => write!(f, "the board is full: there is no move to make"),
            Error::NoPieceInHand { line } => write!(
                f,
                "line {line}: expected a piece in hand, found \"-\" (only valid on the empty board)"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Read(e) | Error::Write(e) => Some(e),
            _ => None,
        }
    }
}
