//! Why no no-guess layout was made.

use std::fmt;

use super::Effort;
use crate::minesweeper::game::{self, Config};

/// Why [`generate`](super::generate) made no layout. Messages are lowercase, one line.
#[derive(Debug)]
pub enum NoGuessError {
    /// The game cannot be set up: the first click is off the board, or the rule leaves no room for
    /// the mines.
    Config(game::Error),
    /// No layout was proved no-guess within the effort allowed.
    GaveUp {
        config: Config,
        effort: Effort,
        /// The layouts drawn.
        layouts: usize,
        /// Whether the work budget was spent (else every layout allowed was tried).
        spent: bool,
        /// The repairs made over all the layouts drawn.
        repairs: usize,
        /// The most safe cells any play revealed before it was stuck for good.
        best_revealed: usize,
        /// The safe cells of the board.
        safe: usize,
    },
}

impl fmt::Display for NoGuessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoGuessError::Config(e) => write!(f, "{e}"),
            NoGuessError::GaveUp {
                config,
                effort,
                layouts,
                spent,
                repairs,
                best_revealed,
                safe,
            } => {
                write!(
                    f,
                    "no no-guess board of {config} found in {layouts} layouts and {repairs} \
                     repairs (at most {} per layout)",
                    effort.repairs
                )?;
                if *spent {
                    write!(f, ", its work budget spent")?;
                }
                write!(
                    f,
                    ": the best play revealed {best_revealed} of {safe} safe cells"
                )
            }
        }
    }
}

impl std::error::Error for NoGuessError {}
