//! The integration tests of the programs that play (one binary, as ripgrep does).

mod util;

/// The brute force over a small board's arrangements, shared with the library's tests.
#[path = "../../tests/minesweeper_brute.rs"]
mod minesweeper_brute;

/// The sources fingerprint as the build script computes it.
#[path = "../build/sources.rs"]
#[allow(dead_code)]
mod sources;

/// Runs the examples, shared with the library's tests.
#[path = "../../tests/example_run.rs"]
mod example_run;

mod examples;
mod minesweeper_bot;
mod minesweeper_bot_games;
mod minesweeper_bot_sources;
mod minesweeper_play;
mod minesweeper_play_screen;
mod quarto_book;
mod quarto_play;
mod quarto_play_screen;
