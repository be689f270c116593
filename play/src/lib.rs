//! The programs that play the puzzles. The binaries in `src/bin` are thin: the game front-ends
//! live here, one module per program.

pub mod minesweeper_play;
pub mod quarto_play;
