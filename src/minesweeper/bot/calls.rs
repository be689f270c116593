//! The count of analyzer calls a game or a guess makes.

use crate::minesweeper::{analyze, Analysis, Board, Error};

/// How many times the analyzer ran. The count is part of the bot's reported cost per game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Calls(u32);

impl Calls {
    /// Counts one more call.
    pub fn add(&mut self) {
        self.0 += 1;
    }

    /// The calls counted so far.
    #[must_use]
    pub const fn get(self) -> u32 {
        self.0
    }

    /// Counts one call and runs the analyzer on `board`.
    ///
    /// # Errors
    /// As [`analyze`]: the board has no consistent arrangement, or is too complex.
    pub fn analyze(&mut self, board: &Board) -> Result<Analysis, Error> {
        self.add();
        analyze(board)
    }
}
