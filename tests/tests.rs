//! One integration-test binary for the whole package (as ripgrep does): each module tests one
//! binary through its command line or one library module through its public API.

mod util;

mod circles;
mod cli;
mod docs;
mod examples;
mod fuzz_checks;
mod fuzz_corpus;
mod install;
mod maxblack;
mod minesweeper;
mod minesweeper_bot;
mod minesweeper_referee;
mod minimax;
mod no_guess;
mod quarto;
mod three_bv;
