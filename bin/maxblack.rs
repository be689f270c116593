//! `maxblack`: not implemented yet.
use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!("maxblack: not implemented yet");
    ExitCode::from(2)
}
