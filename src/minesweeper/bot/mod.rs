//! A bot that plays Minesweeper with the analyzer: it clicks every cell the analyzer proves safe,
//! flags every proved mine, and guesses only when nothing is safe, with a [`Strategy`].
//!
//! [`run`] plays many seeded games on several threads; the totals depend only on the seed, the
//! board and the strategy, never on the number of threads.
//!
//! A guess runs the strategy's stages in order (see `guess.rs`): exact play in an independent
//! region, exact play on the whole board, forced 50/50s, and the lookahead (`stage/`). They share
//! the exact search (`exact/`), the probabilities, the tolerances and the count of analyzer calls.

mod calls;
mod error;
mod exact;
mod guess;
mod options;
mod player;
mod probabilities;
mod report;
mod runner;
mod stage;
mod stats;
mod syntax;
mod tolerance;

pub use calls::Calls;
pub use error::BotError;
pub use exact::{ExactClick, MAX_ARRANGEMENTS};
pub use guess::{Forced, Pool, Strategy};
pub use options::{parse_cell, CellError, STRATEGY_HELP};
pub use player::{play, step, Event, Played};
pub use report::{replay, Replay, Report};
pub use runner::{compare, play_one, run, Comparison, Run, RunError, Summary};
pub use stage::endgame::best_click as endgame_click;
pub use stage::fifty::forced as forced_guess;
pub use stage::region::region_click;
pub use stats::{sign_test_z, wilson_interval};
pub use syntax::StrategyError;
