//! `puzzles-web`: the games and the solvers in the browser, served by one local program.
//!
//! The server holds the games in play (Minesweeper, whose mine layout never leaves it before the
//! game ends, and Quarto against the computer players) and answers the solvers; the page is plain
//! HTML, CSS and JavaScript modules built into the binary ([`assets`]). Everything else is the
//! library's (`cp_puzzles`) and the games' (`cp_puzzles_play`): the analyzer, the no-guess
//! generator, the bot, the replays, the Quarto players and values, the maxblack solver.
//!
//! Layout:
//! - [`app`]: the routes;
//! - [`state`]: what the routes share, and the limits;
//! - [`games`]: the games kept, [`store`]: where, bounded in number and dropped when untouched;
//! - [`work`]: the solver work, run off the network threads, bounded in concurrency;
//! - [`mines`], [`quarto`], [`solvers`]: each page's routes and JSON;
//! - [`error`]: the JSON error every route answers a fault with.

pub mod app;
pub mod assets;
pub mod error;
pub mod games;
pub mod mines;
pub mod quarto;
pub mod solvers;
pub mod state;
pub mod store;
pub mod work;

pub use app::router;
pub use state::{Limits, State};
