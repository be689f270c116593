//! `minimax`: reads a game tree on stdin, prints `<value> <nodes>` (see `cp_puzzles::minimax`).

use std::io::{self, BufWriter};
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdin = io::stdin().lock();
    let stdout = BufWriter::new(io::stdout().lock());
    match cp_puzzles::minimax::solve(stdin, stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("minimax: {e}");
            ExitCode::from(1)
        }
    }
}
