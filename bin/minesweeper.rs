//! `minesweeper`: not implemented yet.
use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!("minesweeper: not implemented yet");
    ExitCode::from(2)
}
