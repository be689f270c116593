//! Why a game cannot be set up.

use std::fmt;

use super::Pos;
use crate::minesweeper::MAX_SIDE;

/// Why a game cannot be set up. Messages are lowercase, one line, no final period.
#[derive(Debug)]
pub enum Error {
    /// A side is 0 or over [`MAX_SIDE`].
    BadSize { width: usize, height: usize },
    /// The mines do not leave room for the cells the first click must keep free.
    TooManyMines { mines: usize, room: usize },
    /// The first click is off the board.
    OffBoard {
        cell: Pos,
        width: usize,
        height: usize,
    },
    /// The analyzer's board type refused the shape.
    Board(crate::minesweeper::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadSize { width, height } => write!(
                f,
                "expected a width and a height from 1 to {MAX_SIDE}, found {width}x{height}"
            ),
            Error::TooManyMines { mines, room } => write!(
                f,
                "expected at most {room} mines for this board and first click, found {mines}"
            ),
            Error::OffBoard {
                cell,
                width,
                height,
            } => write!(
                f,
                "expected a first click on the {width}x{height} board, found ({}, {})",
                cell.x, cell.y
            ),
            Error::Board(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Board(e) => Some(e),
            _ => None,
        }
    }
}
