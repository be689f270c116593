//! The integration tests of the programs that play (one binary, as ripgrep does).

mod util;

mod minesweeper_bot;
mod quarto_play;
