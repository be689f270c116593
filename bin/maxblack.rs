//! `maxblack [--count-only] [--progress] [--threads T] [--checkpoint FILE] < input`: the most
//! black cells in an N x M grid with no K in a row (see `cp_puzzles::maxblack`).

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;

use cp_puzzles::maxblack::Options;

const PROGRAM: cli::Program = cli::Program {
    name: "maxblack",
    usage: "maxblack [--count-only] [--progress] [--threads T] [--checkpoint FILE] < input",
    help: "Reads `N K` (an N x N square) or `N M K` (N rows, M columns) on stdin (1 <= N, M <= \
           20, K >= 1).\nPrints the most black cells in the grid with no K in a row along a row, \
           a column or a\ndiagonal; the number of optimal grids up to symmetry (8 symmetries for \
           a square, 4 otherwise)\nand in all; then each of them (`#` black, `.` white) after a \
           blank line.\n",
    options: "  --count-only       print the maximum and the counts only, not the grids\n  \
              --progress         report each stage of the search on stderr\n  \
              --threads T        threads of the search (default: one per core)\n  \
              --checkpoint FILE  keep the progress in FILE; a run given the same FILE continues \
              from it\n",
};

/// A flag that takes a value in the next argument.
#[derive(Clone, Copy)]
enum Pending {
    Threads,
    Checkpoint,
}

/// Takes one of maxblack's own flags (or the value of the previous one) into `options`; false if
/// `arg` is none of them. A bad value is kept in `bad` and refused after the arguments.
fn flag(
    options: &mut Options,
    pending: &mut Option<Pending>,
    bad: &mut Option<String>,
    arg: &str,
) -> bool {
    match pending.take() {
        Some(Pending::Threads) => match arg.parse::<usize>() {
            Ok(t) if (1..=1024).contains(&t) => options.threads = t,
            _ => {
                *bad = Some(format!(
                    "expected --threads to be a whole number in 1..=1024, found {arg:?}"
                ))
            }
        },
        Some(Pending::Checkpoint) => options.checkpoint = Some(PathBuf::from(arg)),
        None => match arg {
            "--count-only" => options.count_only = true,
            "--progress" => options.progress = true,
            "--threads" => *pending = Some(Pending::Threads),
            "--checkpoint" => *pending = Some(Pending::Checkpoint),
            _ => return false,
        },
    }
    true
}

fn main() -> ExitCode {
    let mut options = Options::default();
    let (mut pending, mut bad) = (None, None);
    if let Err(code) = PROGRAM.args(cli::args(), |arg| {
        flag(&mut options, &mut pending, &mut bad, arg)
    }) {
        return code;
    }
    if let Some(flag) = pending {
        let name = match flag {
            Pending::Threads => "--threads",
            Pending::Checkpoint => "--checkpoint",
        };
        bad = Some(format!("expected a value after {name}"));
    }
    if let Some(message) = bad {
        eprintln!("maxblack: {message}\nusage: {}", PROGRAM.usage);
        return ExitCode::from(2);
    }
    PROGRAM.solve(|input, output| cp_puzzles::maxblack::run(input, output, &options))
}
