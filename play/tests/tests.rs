//! The integration tests of the programs that play (one binary, as ripgrep does).

mod util;

mod examples;
mod minesweeper_bot;
mod minesweeper_bot_games;
mod minesweeper_bot_sources;
mod minesweeper_play;
mod minesweeper_play_screen;
mod quarto_book;
mod quarto_play;
mod quarto_play_screen;
