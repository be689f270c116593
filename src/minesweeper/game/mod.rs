//! The Minesweeper game engine: a seeded board generator, the `safe` and `opening` first-click
//! rules, reveals with an iterative flood fill, flags, and win and loss detection.
//!
//! The same seed gives the same game on every machine: the generator is our own
//! ([`Rng`], xoshiro256**), and game `i` of a run seeded with `S` uses [`game_seed`]`(S, i)`.

mod config;
mod layout;
mod play;
mod rng;

pub use config::{Config, ConfigError, FirstClick, Level, MAX_SIDE};
pub use layout::Layout;
pub use play::{Game, Reveal, Status};
pub use rng::{game_seed, Rng};

use super::{Board, Cell, Pos};
