//! `maxblack [--count-only] [--progress] < input`: the most black cells in an N x N grid with no
//! K in a row (see `cp_puzzles::maxblack`).

mod cli;

use std::process::ExitCode;

use cp_puzzles::maxblack::Options;

const PROGRAM: cli::Program = cli::Program {
    name: "maxblack",
    usage: "maxblack [--count-only] [--progress] < input",
    help: "Reads `N K` on stdin (1 <= N <= 20, K >= 1). Prints the most black cells in an N x N \
           grid with no K\nin a row along a row, a column or a diagonal; the number of optimal \
           grids up to symmetry and\nin all; then each of them (`#` black, `.` white) after a \
           blank line.\n",
    options: "  --count-only   print the maximum and the counts only, not the grids\n  \
              --progress     report each stage of the search on stderr\n",
};

/// Takes one of maxblack's own flags into `options`; false if `arg` is none of them.
fn flag(options: &mut Options, arg: &str) -> bool {
    match arg {
        "--count-only" => options.count_only = true,
        "--progress" => options.progress = true,
        _ => return false,
    }
    true
}

fn main() -> ExitCode {
    let mut options = Options::default();
    if let Err(code) = PROGRAM.args(cli::args(), |arg| flag(&mut options, arg)) {
        return code;
    }
    PROGRAM.solve(|input, output| cp_puzzles::maxblack::run(input, output, &options))
}
