//! Helpers shared by the integration tests.

use assert_cmd::Command;

/// A command for one of the package's binaries, found through Cargo's `CARGO_BIN_EXE_<name>`.
pub fn bin(name: &str) -> Command {
    let path = match name {
        "minimax" => env!("CARGO_BIN_EXE_minimax"),
        "minesweeper" => env!("CARGO_BIN_EXE_minesweeper"),
        "maxblack" => env!("CARGO_BIN_EXE_maxblack"),
        "quarto" => env!("CARGO_BIN_EXE_quarto"),
        other => panic!("no binary named {other}"),
    };
    Command::new(path)
}

/// The package's root folder (where `Cargo.toml` and `testcases/` are).
pub fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}
