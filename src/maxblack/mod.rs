//! `maxblack`: the most black cells in an N x M grid with no K in a row along a row, a column or
//! a diagonal, and every optimal grid up to the grid's symmetries (8 for a square, 4 otherwise).
//!
//! Input: `N K` (a square) or `N M K` (N rows, M columns) on one line, `1 <= N, M <= 20`,
//! `K >= 1`. Output: the maximum; the number of orbits and the total number of optimal grids;
//! then, unless `count_only`, a blank line and each orbit's canonical grid (`#` black, `.`
//! white), sorted, separated by blank lines.

mod bounds;
mod checkpoint;
#[cfg(not(bundle))]
mod count;
mod error;
mod final_walk;
mod memo;
mod memo_keys;
mod parse;
#[cfg(not(bundle))]
mod permutations;
#[cfg(not(bundle))]
mod rectangles;
pub mod rows;
mod search;
mod solver;
pub mod symmetry;
mod units;
mod walk;
mod work_queue;

use std::fmt;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::time::Duration;

pub use error::Error;
pub use parse::{parse, Puzzle};
pub use search::{Speedups, Stage};
pub use solver::{Answer, Solver, MAX_KEPT_ORBITS};

/// The largest N accepted (rows are bit masks with a 2^N table).
pub const MAX_N: usize = 20;

/// How [`solve`] runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Print only the maximum and the counts, not the grids.
    pub count_only: bool,
    /// Report each stage on stderr with the time since the start: every rectangle maximum, and
    /// every goal the final walk rules out.
    pub progress: bool,
    /// Threads of the final walk; 0 for one per core.
    pub threads: usize,
    /// A file that keeps the progress (rewritten every [`CHECKPOINT_EVERY`]); a run given a file
    /// that holds progress continues from it.
    pub checkpoint: Option<PathBuf>,
}

/// How often the checkpoint file is rewritten while the final walk runs.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(30);

/// How long a unit of work of the final walk runs before it is split into smaller parts (whose
/// progress the checkpoint then records).
pub const UNIT_TIME: Duration = Duration::from_secs(60);

/// The number of threads `threads` asks for: itself, or one per core if 0.
#[must_use]
pub fn thread_count(threads: usize) -> usize {
    if threads > 0 {
        threads
    } else {
        std::thread::available_parallelism().map_or(1, usize::from)
    }
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
                let line: String = (0..a.cols)
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
/// [`MAX_KEPT_ORBITS`]); [`Error::Checkpoint`] if the checkpoint file cannot be read or written.
pub fn solve(puzzle: &Puzzle, options: &Options) -> Result<Solution, Error> {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let mut solver = Solver::rectangle(rows, cols, puzzle.k(), Speedups::ALL)
        .threads(thread_count(options.threads));
    if options.count_only {
        solver = solver.counting_only();
    }
    solver = with_progress(solver, options, rows, cols);
    if let Some(path) = &options.checkpoint {
        solver = solver.checkpoint(path, CHECKPOINT_EVERY);
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

/// `solver`, reporting its progress on stderr if `options.progress`.
#[cfg(not(bundle))]
fn with_progress(solver: Solver, options: &Options, rows: usize, cols: usize) -> Solver {
    if options.progress {
        solver.reporting(progress_report(rows, cols))
    } else {
        solver
    }
}

/// The bundle for online judges reports no progress.
#[cfg(bundle)]
fn with_progress(solver: Solver, _: &Options, _: usize, _: usize) -> Solver {
    solver
}

/// A stage reporter that prints one line per stage on stderr, for a grid of `rows` x `cols`
/// (whose search runs on rows as narrow as its shorter side).
#[cfg(not(bundle))]
fn progress_report(rows: usize, cols: usize) -> Box<dyn FnMut(Stage) + Send> {
    let start = std::time::Instant::now();
    let width = rows.min(cols);
    Box::new(move |stage| {
        let t = start.elapsed().as_secs_f64();
        match stage {
            Stage::Rectangle { rows: m, max } => {
                eprintln!("[{t:9.2} s] {m} x {width} rectangle: at most {max} black cells");
            }
            Stage::NoGridAt { goal } => {
                eprintln!("[{t:9.2} s] no {rows} x {cols} grid holds {goal}");
            }
            Stage::GridAt { goal, grid } => {
                // The search's rows are the shorter side: a wide grid is found transposed.
                let grid = if cols > rows {
                    symmetry::image(&grid, width, 4)
                } else {
                    grid
                };
                eprintln!("[{t:9.2} s] a {rows} x {cols} grid holds {goal}:");
                for row in grid {
                    let line: String = (0..cols)
                        .map(|j| if row >> j & 1 == 1 { '#' } else { '.' })
                        .collect();
                    eprintln!("{line}");
                }
            }
        }
    })
}

#[cfg(test)]
mod tests;
