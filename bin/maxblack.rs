//! `maxblack [--count-only] [--progress] < input`: the most black cells in an N x N grid with no
//! K in a row.
use std::io::{self, BufWriter};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut options = cp_puzzles::maxblack::Options::default();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--count-only" => options.count_only = true,
            "--progress" => options.progress = true,
            other => {
                eprintln!(
                    "maxblack: unexpected argument {other:?}; usage: maxblack [--count-only] [--progress] < input"
                );
                return ExitCode::from(2);
            }
        }
    }
    let stdout = io::stdout();
    match cp_puzzles::maxblack::solve(io::stdin().lock(), BufWriter::new(stdout.lock()), options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("maxblack: {e}");
            ExitCode::from(1)
        }
    }
}
