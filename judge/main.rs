//! `judge`: not implemented yet.
use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!("judge: not implemented yet");
    ExitCode::from(2)
}
