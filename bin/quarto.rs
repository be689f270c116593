//! `quarto`: not implemented yet.
use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!("quarto: not implemented yet");
    ExitCode::from(2)
}
