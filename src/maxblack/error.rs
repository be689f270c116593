//! Why an input is rejected, or the answer not written. Every message is one lowercase line with
//! no final period, naming the line and token where the problem is.

use std::fmt;
use std::io;

/// What went wrong while reading the input or writing the answer.
#[derive(Debug)]
pub enum Error {
    /// Reading the input failed (or it is not UTF-8).
    Read(io::Error),
    /// Writing the answer failed.
    Write(io::Error),
    /// A token is missing: the input ended early.
    Missing {
        line: usize,
        token: usize,
        expected: &'static str,
    },
    /// A token is not what was expected.
    BadToken {
        line: usize,
        token: usize,
        expected: &'static str,
        found: String,
    },
    /// More optimal grids up to symmetry than the solver keeps to list them.
    TooManyGrids { limit: usize },
    /// The checkpoint file cannot be read or written, or is not one for this puzzle (the
    /// message names the file).
    Checkpoint(String),
    /// The search stopped early, as asked, after saving its progress.
    Stopped,
    /// A token follows `K`.
    Trailing {
        line: usize,
        token: usize,
        found: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Read(e) => write!(f, "cannot read the input: {e}"),
            Error::Write(e) => write!(f, "cannot write the output: {e}"),
            Error::Missing {
                line,
                token,
                expected,
            } => write!(
                f,
                "line {line}, token {token}: expected {expected}, found end of input"
            ),
            Error::BadToken {
                line,
                token,
                expected,
                found,
            } => write!(
                f,
                "line {line}, token {token}: expected {expected}, found {found:?}"
            ),
            Error::TooManyGrids { limit } => write!(
                f,
                "more than {limit} optimal grids up to symmetry: too many to list (--count-only counts them)"
            ),
            Error::Checkpoint(what) => write!(f, "checkpoint {what}"),
            Error::Stopped => write!(f, "stopped early as asked; the checkpoint holds the progress"),
            Error::Trailing { line, token, found } => write!(
                f,
                "line {line}, token {token}: expected the end of the input after K, found {found:?}"
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
