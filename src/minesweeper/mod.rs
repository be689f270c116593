//! The `minesweeper` solver (in progress).
#[cfg(not(bundle))]
pub mod bot;
#[cfg(not(bundle))]
pub mod game;
