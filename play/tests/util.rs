//! Helpers shared by the integration tests.

use assert_cmd::Command;

/// A command for one of the package's binaries, found through Cargo's `CARGO_BIN_EXE_<name>`.
pub fn bin(name: &str) -> Command {
    let path = match name {
        "minesweeper-bot" => env!("CARGO_BIN_EXE_minesweeper-bot"),
        "minesweeper-play" => env!("CARGO_BIN_EXE_minesweeper-play"),
        "quarto-play" => env!("CARGO_BIN_EXE_quarto-play"),
        "quarto-book" => env!("CARGO_BIN_EXE_quarto-book"),
        other => panic!("no binary named {other}"),
    };
    Command::new(path)
}
