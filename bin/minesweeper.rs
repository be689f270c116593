//! `minesweeper`: reads a `.mine` board on stdin, prints its safe cells, certain mines and mine
//! probabilities (see `cp_puzzles::minesweeper`).

use std::io::{self, BufWriter};
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdin = io::stdin().lock();
    let stdout = BufWriter::new(io::stdout().lock());
    match cp_puzzles::minesweeper::solve(stdin, stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("minesweeper: {e}");
            ExitCode::from(1)
        }
    }
}
