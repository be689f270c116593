//! The programs that play the puzzles: shared code of the play binaries.

pub mod quarto_play;
