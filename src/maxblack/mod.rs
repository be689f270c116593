//! `maxblack`: the most black cells in an N x N grid with no K in a row along a row, a column or
//! a diagonal, and every optimal grid up to the 8 symmetries of the square.
//!
//! Input: `N K` on one line, `1 <= N <= 20`, `K >= 1`. Output: the maximum; the number of orbits and
//! the total number of optimal grids; then, unless `count_only`, a blank line and each orbit's
//! canonical grid (`#` black, `.` white), sorted, separated by blank lines.

mod error;
mod memo;
mod parse;
pub mod rows;
mod search;
mod solver;
pub mod symmetry;

use std::fmt;
use std::io::{Read, Write};

pub use error::Error;
pub use parse::{parse, Puzzle};
pub use search::Stage;
pub use solver::{Answer, Solver, Speedups, MAX_KEPT_ORBITS};

/// The largest N accepted (rows are bit masks with a 2^N table).
pub const MAX_N: usize = 20;

/// How [`solve`] runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Print only the maximum and the counts, not the grids.
    pub count_only: bool,
    /// Report each stage on stderr with the time since the start: every rectangle maximum, and
    /// every goal the final walk rules out.
    pub progress: bool,
}

/// What the solver prints for one puzzle: the answer, with its grids unless `count_only`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    pub answer: Answer,
    pub count_only: bool,
}

/// The maximum, then the number of orbits and the total, then (unless `count_only`) each grid
/// after a blank line, every line ending with a newline.
impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = &self.answer;
        writeln!(f, "{}\n{} {}", a.max, a.orbits, a.total)?;
        if self.count_only {
            return Ok(());
        }
        for g in &a.grids {
            writeln!(f)?;
            for &row in g {
                let line: String = (0..a.n)
                    .map(|j| if row >> j & 1 == 1 { '#' } else { '.' })
                    .collect();
                writeln!(f, "{line}")?;
            }
        }
        Ok(())
    }
}

/// Solves a puzzle with every speedup, reporting progress on stderr if `options.progress`.
///
/// # Errors
/// [`Error::TooManyGrids`] if the grids are to be listed and there are too many (see
/// [`MAX_KEPT_ORBITS`]).
pub fn solve(puzzle: &Puzzle, options: &Options) -> Result<Solution, Error> {
    let mut solver = Solver::new(puzzle.n(), puzzle.k(), Speedups::ALL);
    if options.count_only {
        solver = solver.counting_only();
    }
    if options.progress {
        solver = solver.reporting(progress_report(puzzle.n()));
    }
    Ok(Solution {
        answer: solver.answer()?,
        count_only: options.count_only,
    })
}

/// Reads `N K` from `input`, solves it and writes the answer to `output`, then flushes it.
///
/// # Errors
/// As [`parse`], or [`Error::Write`].
pub fn run<R: Read, W: Write>(input: R, mut output: W, options: &Options) -> Result<(), Error> {
    let solution = solve(&parse(input)?, options)?;
    write!(output, "{solution}")
        .and_then(|()| output.flush())
        .map_err(Error::Write)
}

/// A stage reporter that prints one line per stage on stderr.
fn progress_report(n: usize) -> Box<dyn FnMut(Stage)> {
    let start = std::time::Instant::now();
    Box::new(move |stage| {
        let t = start.elapsed().as_secs_f64();
        match stage {
            Stage::Rectangle { rows, max } => {
                eprintln!("[{t:9.2} s] {rows} x {n} rectangle: at most {max} black cells");
            }
            Stage::NoGridAt { goal } => {
                eprintln!("[{t:9.2} s] no {n} x {n} grid holds {goal}");
            }
        }
    })
}

#[cfg(test)]
mod tests;
