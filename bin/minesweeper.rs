//! `minesweeper`: reads a `.mine` board on stdin, prints its safe cells, certain mines and mine
//! probabilities (see `cp_puzzles::minesweeper`).

use std::error::Error as _;
use std::io::{self, BufWriter};
use std::process::ExitCode;

use cp_puzzles::minesweeper::{run, Error};

fn main() -> ExitCode {
    let stdin = io::stdin().lock();
    let stdout = BufWriter::new(io::stdout().lock());
    match run(stdin, stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("minesweeper: {e}");
            ExitCode::from(1)
        }
    }
}

/// Whether `e` is a write into a pipe that the reader closed: not a failure of the solver.
fn broken_pipe(e: &Error) -> bool {
    let mut cause = e.source();
    while let Some(c) = cause {
        if c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
        {
            return true;
        }
        cause = c.source();
    }
    false
}
