//! `minesweeper-bot`'s front-end: the library's bot (`cp_puzzles::minesweeper::bot`) playing
//! whole seeded games.
//!
//! [`play`] and [`step`] play one game with a [`Strategy`]; [`run`] plays many on several
//! threads, with totals that depend only on the seed, the board and the strategy, never on the
//! number of threads; [`compare`] plays two strategies on the same games; [`replay`] records one
//! game move by move. [`Report`], [`Comparison`] and [`Replay`] print what the command line
//! shows, and [`parse_strategy`] and [`Spelled`] read and write the strategies as it writes them
//! (`regions:endgame=1000,blend=0.3`). A run may cover any range of a seed's games (a shard):
//! [`to_json`] writes its report as JSON, and [`merge()`] adds shards' reports up into the report
//! of one run over all their games, if the same code played them ([`Sources`], the fingerprint of
//! the sources that decide how games are played, which a report carries). A run may play no-guess boards ([`Run::no_guess`]), and
//! reports the time each took to make ([`Generation`]).

mod error;
mod generation;
mod json;
mod merge;
mod options;
mod player;
pub mod progress;
mod report;
mod runner;
mod sources;
mod stats;
mod syntax;

pub use cp_puzzles::minesweeper::bot::{Calls, Forced, Pool, Strategy};

pub use error::BotError;
pub use generation::Generation;
pub use json::{from_json, to_json, JsonError, FORMAT, MAX_SECONDS, VERSION};
pub use merge::{merge, read_report, MergeError, MAX_REPORT_BYTES};
pub use options::{parse_cell, CellError, STRATEGY_HELP};
pub use player::{play, step, Event, Played};
pub use report::{replay, Replay, Report};
pub use runner::{compare, play_one, run, Comparison, Run, RunError, Summary};
pub use sources::Sources;
pub use stats::{sign_test_z, wilson_interval};
pub use syntax::{
    parse_strategy, Spelled, StrategyError, ENDGAME, MAX_ENDGAME, MAX_POOL, PROGRESS, SURVIVAL,
};
