//! `quarto`: reads a position on stdin, prints the perfect-play move and its value (see
//! `cp_puzzles::quarto`).

use std::io::{self, BufWriter};
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdin = io::stdin().lock();
    let stdout = BufWriter::new(io::stdout().lock());
    match cp_puzzles::quarto::solve(stdin, stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quarto: {e}");
            ExitCode::from(1)
        }
    }
}
