//! The Minesweeper game engine: a seeded board generator, the `safe` and `opening` first-click
//! rules, reveals with an iterative flood fill, flags, and win and loss detection.
//!
//! The same seed gives the same game on every machine: the generator is our own
//! ([`Rng`], xoshiro256**), and game `i` of a run seeded with `S` uses [`game_seed`]`(S, i)`.
//! Every contract is checked: a first click off the board, or one whose rule leaves no room for
//! the mines, is an [`Error`]; a click or a flag off the board is ignored.

mod config;
mod error;
mod layout;
mod names;
mod play;
mod rng;

pub use config::{Config, FirstClick, Level};
pub use error::Error;
pub use layout::Layout;
pub use names::{by_name, name_of, NameError};
pub use play::{Game, Reveal, Status};
pub use rng::{game_seed, Rng};

/// The largest board side the engine accepts: the analyzer's own limit.
pub use super::MAX_SIDE;

use super::{Board, Cell, Pos};
