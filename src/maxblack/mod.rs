//! `maxblack`: the most black cells in an N x N grid with no K in a row along a row, a column or
//! a diagonal, and every optimal grid up to the 8 symmetries of the square.
//!
//! Input: `N K` on one line, `1 <= N <= 16`, `K >= 1`. Output: the maximum; the number of orbits and
//! the total number of optimal grids; then, unless `count_only`, a blank line and each orbit's
//! canonical grid (`#` black, `.` white), sorted, separated by blank lines.

mod memo;
mod parse;
pub mod rows;
pub mod search;
pub mod symmetry;

use std::fmt;
use std::io::{self, BufRead, Write};

pub use parse::parse;

/// The largest N accepted (rows are bit masks with a 2^N table).
pub const MAX_N: usize = 16;

/// What went wrong while reading the input or writing the answer.
#[derive(Debug)]
pub enum Error {
    /// Reading or writing failed.
    Io(io::Error),
    /// A token is missing: the input ended early.
    Missing {
        line: usize,
        token: usize,
        expected: &'static str,
    },
    /// A token is not what was expected.
    Bad {
        line: usize,
        token: usize,
        expected: &'static str,
        found: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io(e) => write!(f, "i/o error: {e}"),
            Error::Missing {
                line,
                token,
                expected,
            } => {
                write!(
                    f,
                    "line {line}, token {token}: expected {expected}, found end of input"
                )
            }
            Error::Bad {
                line,
                token,
                expected,
                found,
            } => {
                write!(
                    f,
                    "line {line}, token {token}: expected {expected}, found {found:?}"
                )
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Io(e)
    }
}

/// The answer for one `(n, k)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The most black cells.
    pub max: u32,
    /// Every optimal grid counting every image.
    pub total: u64,
    /// Each orbit's canonical representative, sorted by its rows read as one string.
    pub grids: Vec<Vec<u32>>,
}

/// Which of the solver's speedups are on. Every combination gives the same answer; turning them
/// off serves tests and benchmarks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Speedups {
    /// The final walk skips images of grids (see [`search::Solver::prune_images`]).
    pub prune_images: bool,
    /// The search remembers proved failures (see `memo`).
    pub memo: bool,
}

impl Speedups {
    /// Everything on (the default).
    pub const ALL: Speedups = Speedups {
        prune_images: true,
        memo: true,
    };
    /// Everything off: plain branch and bound with Russian-doll bounds.
    pub const NONE: Speedups = Speedups {
        prune_images: false,
        memo: false,
    };
}

/// Solves `(n, k)`: the maximum, the total and the canonical optimal grids.
///
/// # Panics
/// If `n` is not in `1..=MAX_N` or `k == 0`.
#[must_use]
pub fn answer(n: usize, k: usize) -> Answer {
    answer_with(n, k, Speedups::ALL)
}

/// [`answer`] with only the given speedups: a slower way to the same answer.
///
/// # Panics
/// If `n` is not in `1..=MAX_N` or `k == 0`.
#[must_use]
pub fn answer_with(n: usize, k: usize, speedups: Speedups) -> Answer {
    answer_reporting(n, k, speedups, None)
}

/// [`answer_with`], telling `on_stage` of each stage as it ends.
///
/// # Panics
/// If `n` is not in `1..=MAX_N` or `k == 0`.
#[must_use]
pub fn answer_reporting(
    n: usize,
    k: usize,
    speedups: Speedups,
    on_stage: Option<Box<dyn FnMut(search::Stage)>>,
) -> Answer {
    assert!((1..=MAX_N).contains(&n) && k >= 1);
    let mut solver = search::Solver::new(n, k, speedups.memo);
    solver.prune_images = speedups.prune_images;
    solver.on_stage = on_stage;
    // Every orbit shows up at least once (the walk skips some images), so orbits are told apart
    // by their canonical keys and the total is the sum of their sizes.
    let mut canon = Vec::new();
    let mut most = 0;
    let max = solver.each_optimal(&mut |g, count| {
        if count > most {
            most = count;
            canon.clear();
        }
        let (c, key, size) = symmetry::canonical(g);
        canon.push((key, c, size));
    });
    canon.sort_unstable();
    canon.dedup_by(|a, b| a.0 == b.0);
    Answer {
        max,
        total: canon.iter().map(|&(_, _, size)| size as u64).sum(),
        grids: canon.into_iter().map(|(_, g, _)| g).collect(),
    }
}

/// How [`solve`] runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Print only the maximum and the counts, not the grids.
    pub count_only: bool,
    /// Report each stage on stderr with the time since the start: every rectangle maximum, and
    /// every goal the final walk rules out.
    pub progress: bool,
}

/// Reads `N K`, solves, and writes the answer.
///
/// # Errors
/// [`Error::Missing`] or [`Error::Bad`] on malformed input, [`Error::Io`] if reading or writing fails.
pub fn solve<R: BufRead, W: Write>(
    mut input: R,
    mut output: W,
    options: Options,
) -> Result<(), Error> {
    let count_only = options.count_only;
    let mut text = String::new();
    input.read_to_string(&mut text)?;
    let (n, k) = parse(&text)?;
    let on_stage = options.progress.then(|| progress_report(n));
    let a = answer_reporting(n, k, Speedups::ALL, on_stage);
    writeln!(output, "{}\n{} {}", a.max, a.grids.len(), a.total)?;
    if !count_only {
        for g in &a.grids {
            writeln!(output)?;
            for &row in g {
                let line: String = (0..n)
                    .map(|j| if row >> j & 1 == 1 { '#' } else { '.' })
                    .collect();
                writeln!(output, "{line}")?;
            }
        }
    }
    output.flush()?;
    Ok(())
}

/// A stage reporter that prints one line per stage on stderr.
fn progress_report(n: usize) -> Box<dyn FnMut(search::Stage)> {
    let start = std::time::Instant::now();
    Box::new(move |stage| {
        let t = start.elapsed().as_secs_f64();
        match stage {
            search::Stage::Rectangle { rows, max } => {
                eprintln!("[{t:9.2} s] {rows} x {n} rectangle: at most {max} black cells");
            }
            search::Stage::NoGridAt { goal } => {
                eprintln!("[{t:9.2} s] no {n} x {n} grid holds {goal}");
            }
        }
    })
}

#[cfg(test)]
mod tests;
