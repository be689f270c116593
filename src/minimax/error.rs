//! The errors the `minimax` solver reports: every one names where in the input it happened.

use std::fmt;

/// Where a token stands: its 1-based line and its 1-based number within that line (`line 2,
/// token 3` is the third token of line 2, whatever line 1 holds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    pub line: u64,
    pub token: u64,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, token {}", self.line, self.token)
    }
}

/// Why an input was rejected, or the answer not written. Messages are lowercase, one line, with
/// no final period.
#[derive(Debug)]
pub enum Error {
    /// Reading the input failed.
    Read(std::io::Error),
    /// Writing the answer failed.
    Write(std::io::Error),
    /// The input ended where a header token was expected: `at` is the last line and the number
    /// the missing token would have had.
    Missing {
        at: Location,
        expected: &'static str,
    },
    /// A token was not what the grammar asks for.
    BadToken {
        at: Location,
        expected: &'static str,
        found: String,
    },
    /// `B^D` does not fit in a `u64`.
    TooManyLeaves { depth: u64, branching: u64 },
    /// The input ended before every leaf was read.
    TooFewLeaves {
        line: u64,
        expected: u64,
        found: u64,
    },
    /// A token was longer than any valid leaf can be.
    TokenTooLong { at: Location },
    /// A token follows the last leaf.
    Trailing { at: Location, found: String },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Read(e) => write!(f, "cannot read the input: {e}"),
            Error::Write(e) => write!(f, "cannot write the output: {e}"),
            Error::Missing { at, expected } => {
                write!(f, "{at}: expected {expected}, found end of input")
            }
            Error::BadToken {
                at,
                expected,
                found,
            } => write!(f, "{at}: expected {expected}, found {found:?}"),
            Error::TooManyLeaves { depth, branching } => write!(
                f,
                "line 1: the tree has {branching}^{depth} leaves, more than a u64 can count"
            ),
            Error::TooFewLeaves {
                line,
                expected,
                found,
            } => write!(
                f,
                "line {line}: expected {expected} leaves, found the end of the input after {found}"
            ),
            Error::TokenTooLong { at } => write!(f, "{at}: the token is too long to be a leaf"),
            Error::Trailing { at, found } => write!(
                f,
                "{at}: expected the end of the input after the last leaf, found {found:?}"
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

/// Shows a bad token in an error message: lossy UTF-8, cut to a readable length.
pub(crate) fn show_token(bytes: &[u8]) -> String {
    const MAX: usize = 24;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX)]).into_owned();
    if bytes.len() > MAX {
        text + "…"
    } else {
        text
    }
}
