//! The count of analyzer calls a game or a guess makes, and the deadline of the searches on the
//! current thread.

use std::cell::Cell;
use std::time::Instant;

use crate::minesweeper::{analyze, ln_arrangements, Analysis, Board, Budget, Error};

thread_local! {
    /// The deadline of the bot's searches on this thread, if any.
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Sets (or, with `None`, clears) a deadline for the bot's searches on the current thread. Past
/// it, [`Calls::analyze`] fails at once ([`Budget::Deadline`]) and the exact searches give up as
/// if over their work budget, so that a strategy returns soon after with a cheaper pick. The
/// bot's own games set none, and then nothing depends on the clock; `minesweeper-agent` sets one
/// on the thread that thinks for it.
pub fn set_deadline(deadline: Option<Instant>) {
    DEADLINE.with(|d| d.set(deadline));
}

/// Whether the current thread has a deadline (see [`set_deadline`]), passed or not.
#[cfg(not(bundle_bin = "minesweeper-agent"))]
pub(crate) fn has_deadline() -> bool {
    DEADLINE.with(Cell::get).is_some()
}

/// Whether the current thread's deadline (see [`set_deadline`]) has passed.
pub(crate) fn past_deadline() -> bool {
    DEADLINE
        .with(Cell::get)
        .is_some_and(|d| Instant::now() >= d)
}

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
    /// As [`analyze`]: the board has no consistent arrangement, or is too complex; or the thread's
    /// deadline has passed (not counted as a call).
    pub fn analyze(&mut self, board: &Board) -> Result<Analysis, Error> {
        self.start()?;
        analyze(board)
    }

    /// Counts one call and counts the arrangements of `board` (see [`ln_arrangements`]): the
    /// analyzer without the probabilities, counted as a call like the rest.
    ///
    /// # Errors
    /// As [`Calls::analyze`].
    pub fn ln_arrangements(&mut self, board: &Board) -> Result<f64, Error> {
        self.start()?;
        ln_arrangements(board)
    }

    /// Counts a call about to start, or fails if the thread's deadline has passed.
    fn start(&mut self) -> Result<(), Error> {
        if past_deadline() {
            return Err(Error::TooComplex {
                budget: Budget::Deadline,
                frontier: 0,
                components: 0,
            });
        }
        self.add();
        Ok(())
    }
}
