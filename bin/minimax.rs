//! `minimax`: not implemented yet.
use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!("minimax: not implemented yet");
    ExitCode::from(2)
}
