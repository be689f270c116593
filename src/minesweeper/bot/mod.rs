//! A bot that plays Minesweeper with the analyzer: it clicks every cell the analyzer proves safe,
//! flags every proved mine, and guesses only when nothing is safe, with a [`Strategy`].
//!
//! [`run`] plays many seeded games on several threads; the totals depend only on the seed, the
//! board and the strategy, never on the number of threads.
//!
//! A guess runs the strategy's stages in order (see `guess.rs`): exact play in an independent
//! region, exact play on the whole board, forced 50/50s, and the lookahead (`stage/`). They share
//! the exact search (`exact/`), the probabilities, the tolerances and the count of analyzer calls.
//!
//! `minesweeper-agent`'s one-file bundle holds this module without the parts marked
//! `#[cfg(not(bundle))]`: they play, parse and report whole games (`judge bundle minesweeper --bin
//! minesweeper-agent`), which the agent does not need.

mod calls;
#[cfg(not(bundle))]
mod error;
mod exact;
mod guess;
#[cfg(not(bundle))]
mod options;
#[cfg(not(bundle))]
mod player;
mod probabilities;
#[cfg(not(bundle))]
mod report;
#[cfg(not(bundle))]
mod runner;
mod stage;
#[cfg(not(bundle))]
mod stats;
#[cfg(not(bundle))]
mod syntax;
mod tolerance;

pub use calls::{set_deadline, Calls};
#[cfg(not(bundle))]
pub use error::BotError;
pub use exact::{ExactClick, MAX_ARRANGEMENTS};
pub use guess::{Forced, Pool, Strategy};
#[cfg(not(bundle))]
pub use options::{parse_cell, CellError, STRATEGY_HELP};
#[cfg(not(bundle))]
pub use player::{play, step, Event, Played};
#[cfg(not(bundle))]
pub use report::{replay, Replay, Report};
#[cfg(not(bundle))]
pub use runner::{compare, play_one, run, Comparison, Run, RunError, Summary};
pub use stage::endgame::best_click as endgame_click;
pub use stage::fifty::forced as forced_guess;
pub use stage::region::region_click;
#[cfg(not(bundle))]
pub use stats::{sign_test_z, wilson_interval};
#[cfg(not(bundle))]
pub use syntax::StrategyError;
