//! The bot's guessing: when the analyzer proves no cell safe, a [`Strategy`] picks the cell to
//! click. This is what `minesweeper-agent` bundles; the programs that play whole games with it
//! (the runs, reports and strategy syntax of `minesweeper-bot`, and `minesweeper-play`'s hints)
//! live in the `play` package.
//!
//! A guess runs the strategy's stages in order (see `guess.rs`): exact play in an independent
//! region, exact play on the whole board, forced 50/50s, and the lookahead (`stage/`). They share
//! the exact search (`exact/`), the shapes of 50/50s (`shapes.rs`), the probabilities, the
//! tolerances and the count of analyzer calls.

mod calls;
mod exact;
mod guess;
mod probabilities;
mod shapes;
mod stage;
mod tolerance;

pub use calls::{set_deadline, Calls};
pub use exact::{ExactClick, MAX_ARRANGEMENTS};
pub use guess::{Pool, Strategy};
pub use stage::endgame::best_click as endgame_click;
pub use stage::fifty::{forced as forced_guess, Forced};
pub use stage::region::region_click;
