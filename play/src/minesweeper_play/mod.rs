//! `minesweeper-play`: Minesweeper in the terminal, with the exact analyzer as a hint and the bot
//! to watch.
//!
//! The engine, the analyzer and the bot are the library's (`cp_puzzles::minesweeper`); this
//! module holds the front-ends around one [`Play`] (the game in progress, its number, its clock):
//! - [`options`]: the command line, checked into a [`Setup`];
//! - [`lines`]: the line mode that scripts drive through stdin;
//! - [`screen`]: the full-screen mode (ratatui and crossterm), a [`screen::State`] updated by
//!   [`screen::Action`]s and drawn by a pure [`screen::draw`];
//! - [`stats`]: the games, wins and best times kept between games;
//! - [`replay`]: a game as text (its layout, then each action with its time), to play back.

mod clock;
pub mod lines;
mod moves;
pub mod options;
mod play;
pub mod replay;
pub mod screen;
pub mod stats;

pub use clock::Clock;
pub use moves::Move;
pub use options::{Args, Setup};
pub use play::{event_text, Play, Said, Score, SCORED_TIME, STRATEGY};
