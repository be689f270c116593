//! `maxblack [--count-only] < input`: the most black cells in an N x N grid with no K in a row.
use std::io::{self, BufWriter};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut count_only = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--count-only" => count_only = true,
            other => {
                eprintln!("maxblack: unexpected argument {other:?}; usage: maxblack [--count-only] < input");
                return ExitCode::from(2);
            }
        }
    }
    let stdout = io::stdout();
    match cp_puzzles::maxblack::solve(
        io::stdin().lock(),
        BufWriter::new(stdout.lock()),
        count_only,
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("maxblack: {e}");
            ExitCode::from(1)
        }
    }
}
