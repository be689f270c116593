//! A bot that plays Minesweeper with the analyzer: it clicks every cell the analyzer proves safe,
//! flags every proved mine, and guesses only when nothing is safe, with a [`Strategy`].
//!
//! [`run`] plays many seeded games on several threads; the totals depend only on the seed, the
//! board and the strategy, never on the number of threads.

mod endgame;
mod fifty;
mod guess;
mod options;
mod player;
mod report;
mod runner;
mod stats;
mod syntax;

pub use endgame::{best_click as endgame_click, region_click, MAX_ARRANGEMENTS};
pub use fifty::forced as forced_guess;
pub use guess::{Forced, Pool, Strategy};
pub use options::{parse_cell, CellError, STRATEGY_HELP};
pub use player::{play, Event, Played};
pub use report::{replay, Replay, Report};
pub use runner::{compare, play_one, run, Comparison, Run, RunError, Summary};
pub use stats::{sign_test_z, wilson_interval};
pub use syntax::StrategyError;

use std::fmt;

/// Why the bot stopped before the game ended: the analyzer found the engine's own view
/// inconsistent, which is a bug in one of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotError {
    /// The analyzer's message.
    pub message: String,
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the analyzer rejected a game's view: {}", self.message)
    }
}

impl std::error::Error for BotError {}
