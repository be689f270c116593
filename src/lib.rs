//! cp-puzzles: fast, exact puzzle solvers.
//!
//! Each module is one puzzle. It uses the standard library only and imports nothing from another
//! puzzle, so that it can be bundled into one source file for an online judge.

pub mod maxblack;
pub mod minesweeper;
pub mod minimax;
pub mod quarto;
