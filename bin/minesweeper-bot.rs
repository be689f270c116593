//! `minesweeper-bot`: not implemented yet.
use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!("minesweeper-bot: not implemented yet");
    ExitCode::from(2)
}
