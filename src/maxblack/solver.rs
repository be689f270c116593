//! The solver's public face: one [`Solver`] per `(n, k)` and its [`Speedups`], giving the
//! [`Answer`].

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use super::checkpoint::Checkpoint;
#[cfg(not(bundle))]
use super::count;
use super::error::Error;
use super::final_walk::{self, Plan};
#[cfg(not(bundle))]
use super::permutations;
use super::search::{Search, Speedups, Stage};
use super::symmetry;
use super::walk::final_walk_visits;
use super::MAX_N;

/// The most orbits [`Solver::answer`] keeps to list them (about 250 MB at N = 20): beyond it,
/// only the counts are available ([`Solver::counting_only`]).
pub const MAX_KEPT_ORBITS: usize = 500_000;

/// The answer for one puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The grid's rows.
    pub rows: usize,
    /// The grid's columns (the width of each row in `grids`).
    pub cols: usize,
    /// The most black cells.
    pub max: u32,
    /// The optimal grids up to the rectangle's symmetries (the number of orbits).
    pub orbits: u128,
    /// Every optimal grid counting every image.
    pub total: u128,
    /// Each orbit's canonical representative, sorted by its rows read as one string (empty if the
    /// solver was [`counting_only`](Solver::counting_only)). Bit `j` of a row is its cell `j`.
    pub grids: Vec<Vec<u32>>,
}

/// Solves one puzzle: `Solver::new(9, 4, Speedups::ALL).answer()`.
pub struct Solver {
    rows: usize,
    cols: usize,
    k: usize,
    speedups: Speedups,
    /// The most orbits kept to list them; `None` to count them only.
    keep: Option<usize>,
    /// Whether counting only may count without visiting every grid (see `count`).
    count_by_states: bool,
    /// Told of each stage of the search as it ends.
    on_stage: Option<Box<dyn FnMut(Stage) + Send>>,
    /// Threads of the final walk (at least 1).
    threads: usize,
    /// Where the progress is kept, and how often it is written.
    checkpoint: Option<(PathBuf, Duration)>,
    /// Stop after this many units of the final walk (to test resuming).
    stop_after: Option<usize>,
    /// The nodes and the time after which a unit of the final walk is split.
    part_budget: (u64, Duration),
}

impl Solver {
    /// A solver for `n` x `n` grids with no `k` black cells in a row, with the given speedups
    /// (each gives the same answer). Cheap: the tables are built by [`Solver::answer`].
    ///
    /// # Panics
    /// If `n` is not in `1..=MAX_N` or `k == 0`.
    #[must_use]
    pub fn new(n: usize, k: usize, speedups: Speedups) -> Self {
        Solver::rectangle(n, n, k, speedups)
    }

    /// A solver for grids of `rows` x `cols` cells.
    ///
    /// # Panics
    /// If `rows` or `cols` is not in `1..=MAX_N` or `k == 0`.
    #[must_use]
    pub fn rectangle(rows: usize, cols: usize, k: usize, speedups: Speedups) -> Self {
        assert!((1..=MAX_N).contains(&rows) && (1..=MAX_N).contains(&cols) && k >= 1);
        Solver {
            rows,
            cols,
            k,
            speedups,
            keep: Some(MAX_KEPT_ORBITS),
            count_by_states: true,
            on_stage: None,
            threads: 1,
            checkpoint: None,
            stop_after: None,
            part_budget: (u64::MAX, super::UNIT_TIME),
        }
    }

    /// Counts the orbits without keeping any grid: the answer's `grids` is empty, and the memory
    /// does not grow with the number of optimal grids.
    #[must_use]
    pub fn counting_only(mut self) -> Self {
        self.keep = None;
        self
    }

    /// Counting only, visits every optimal grid (up to the image pruning) instead of counting by
    /// states: the reference the tests compare the counts with.
    #[must_use]
    #[cfg(not(bundle))]
    pub fn counting_by_visits(mut self) -> Self {
        self.keep = None;
        self.count_by_states = false;
        self
    }

    /// Keeps at most `limit` orbits to list them (default [`MAX_KEPT_ORBITS`]); more is
    /// [`Error::TooManyGrids`].
    #[must_use]
    #[cfg(not(bundle))]
    pub fn keeping_at_most(mut self, limit: usize) -> Self {
        self.keep = Some(limit);
        self
    }

    /// Tells `on_stage` of each stage as it ends (every rectangle maximum, every goal the final
    /// walk rules out), for a progress report on long runs.
    #[must_use]
    pub fn reporting(mut self, on_stage: Box<dyn FnMut(Stage) + Send>) -> Self {
        self.on_stage = Some(on_stage);
        self
    }

    /// Runs the final walk on `threads` threads (at least 1; the default is 1). The answer is
    /// the same for any number.
    #[must_use]
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Keeps the progress in the file `path`, rewritten at most once every `every` while the
    /// final walk runs and at the end of each stage; a solver given a file that holds progress
    /// continues from it.
    #[must_use]
    pub fn checkpoint(mut self, path: &Path, every: Duration) -> Self {
        self.checkpoint = Some((path.to_path_buf(), every));
        self
    }

    /// Splits a unit of work of the final walk (see `final_walk`) whose walk takes more than
    /// `nodes` nodes or `time` (default: [`UNIT_TIME`](super::UNIT_TIME), no limit on nodes).
    /// The answer is the same for any budget.
    #[must_use]
    #[cfg(not(bundle))]
    pub fn splitting_units_after(mut self, nodes: u64, time: Duration) -> Self {
        self.part_budget = (nodes.max(1), time);
        self
    }

    /// Stops with [`Error::Stopped`] after `units` units of work of the final walk, after
    /// saving the checkpoint: to test that a stopped run resumes.
    #[must_use]
    #[cfg(not(bundle))]
    pub fn stopping_after_units(mut self, units: usize) -> Self {
        self.stop_after = Some(units);
        self
    }

    /// The maximum, the counts and (unless [`counting_only`](Self::counting_only)) the canonical
    /// optimal grids.
    ///
    /// # Errors
    /// [`Error::TooManyGrids`] if more orbits than the limit were to be kept;
    /// [`Error::Checkpoint`] if the checkpoint cannot be read or written, or belongs to another
    /// puzzle; [`Error::Stopped`] as [`Solver::stopping_after_units`] asks.
    pub fn answer(self) -> Result<Answer, Error> {
        let (rows, cols, k) = (self.rows, self.cols, self.k);
        if k > rows.max(cols) || k == 1 {
            return Ok(self.without_search());
        }
        if let Some(answer) = self.closed_form() {
            return Ok(answer);
        }
        // The search runs on narrow rows: a wide grid is solved as its transpose.
        let swapped = cols > rows;
        let (high, wide) = if swapped { (cols, rows) } else { (rows, cols) };
        let speedups = self.speedups;
        let mut search = Search::new(high, wide, k, speedups);
        if let Some(on_stage) = self.on_stage {
            search = search.reporting(on_stage);
        }
        let settings = final_walk::settings((rows, cols, k), high, speedups.prune_images);
        let mut checkpoint = match &self.checkpoint {
            Some((path, every)) => Checkpoint::open(path, settings, *every)?,
            None => Checkpoint::none(settings),
        };
        if checkpoint.maxima.len() == high {
            search.knowing(&checkpoint.maxima);
        } else {
            checkpoint.maxima = search.rectangle_maxima_on(self.threads).to_vec();
            checkpoint.save()?;
        }
        let checkpoint = Mutex::new(checkpoint);
        let plan = Plan {
            checkpoint: &checkpoint,
            stop_after: self.stop_after,
            budget: self.part_budget,
        };
        let mut workers = final_walk::workers(search, self.threads);
        let max = final_walk::maximum(&mut workers, high, &plan)?;
        let answer = |orbits, total, grids| Answer {
            rows,
            cols,
            max,
            orbits,
            total,
            grids,
        };
        let Some(limit) = self.keep else {
            let by_states = if self.count_by_states {
                by_states(&workers[0], rows == cols, max)
            } else {
                None
            };
            let (orbits, total) = by_states
                .unwrap_or_else(|| count_by_visits(&mut workers, high, wide, max, speedups));
            return Ok(answer(orbits, total, Vec::new()));
        };
        let mut kept: Vec<Kept> = (0..workers.len()).map(|_| Kept::new(limit, wide)).collect();
        final_walk::each_optimal(&mut workers, high, max, &mut kept, Kept::push);
        let orbits = Kept::merge(kept)?;
        let total = orbits.iter().map(|&(_, _, size)| size as u128).sum();
        let mut grids: Vec<Vec<u32>> = orbits.into_iter().map(|(_, g, _)| g).collect();
        if swapped {
            grids = grids
                .iter()
                .map(|g| symmetry::canonical(&symmetry::image(g, wide, 4), cols).0)
                .collect();
            grids.sort_by_cached_key(|g| symmetry::key(g, cols));
        }
        Ok(answer(grids.len() as u128, total, grids))
    }

    /// The answer to counting only K = N on a square of side 3 or more: every line of N cells
    /// needs a white cell, so the optima are permutations, counted in closed form.
    #[cfg(not(bundle))]
    fn closed_form(&self) -> Option<Answer> {
        let (rows, cols, k) = (self.rows, self.cols, self.k);
        if !(self.keep.is_none() && self.count_by_states && k == rows && rows == cols && rows >= 3)
        {
            return None;
        }
        let (max, orbits, total) = permutations::answer(rows);
        Some(Answer {
            rows,
            cols,
            max,
            orbits,
            total,
            grids: Vec::new(),
        })
    }

    /// The bundle for online judges leaves the closed form out (and counts by visits).
    #[cfg(bundle)]
    fn closed_form(&self) -> Option<Answer> {
        None
    }

    /// The answer when no line can hold K cells (all black) or K = 1 (all white): one grid, its
    /// own orbit.
    fn without_search(&self) -> Answer {
        let row = if self.k == 1 {
            0
        } else {
            (1u32 << self.cols) - 1
        };
        Answer {
            rows: self.rows,
            cols: self.cols,
            max: row.count_ones() * self.rows as u32,
            orbits: 1,
            total: 1,
            grids: if self.keep.is_some() {
                vec![vec![row; self.rows]]
            } else {
                Vec::new()
            },
        }
    }
}

/// The orbits and the total counted by states (see `count`), if that fits its budget.
#[cfg(not(bundle))]
fn by_states(search: &Search, square: bool, max: u32) -> Option<(u128, u128)> {
    count::fits(search)
        .then(|| count::optimal(search, square, max))
        .flatten()
}

/// The bundle for online judges leaves counting by states out: it counts by visits.
#[cfg(bundle)]
fn by_states(_: &Search, _: bool, _: u32) -> Option<(u128, u128)> {
    None
}

/// The orbits and the total, counted by visiting the grids of the final walk at the maximum:
/// each orbit counts at the first of its images the walk visits.
fn count_by_visits(
    workers: &mut [Search],
    high: usize,
    wide: usize,
    max: u32,
    speedups: Speedups,
) -> (u128, u128) {
    let pruned = high >= 2 && speedups.prune_images;
    let mut counts = vec![(0u128, 0u128); workers.len()];
    final_walk::each_optimal(workers, high, max, &mut counts, |(orbits, total), g| {
        if let Some(size) =
            symmetry::size_if_first_visited(g, wide, |g| final_walk_visits(g, wide, pruned))
        {
            *orbits += 1;
            *total += size as u128;
        }
        true
    });
    counts
        .into_iter()
        .fold((0, 0), |(o, t), (a, b)| (o + a, t + b))
}

/// An orbit kept to be listed: its canonical key, its canonical grid and its size.
type Orbit = (Vec<u32>, Vec<u32>, usize);

/// The orbits kept to be listed by one thread, with duplicates removed whenever they double, up
/// to a limit.
struct Kept {
    limit: usize,
    /// The width of the grids' rows.
    width: usize,
    orbits: Vec<Orbit>,
    /// The length after the last removal of duplicates.
    distinct: usize,
    /// Whether the limit was passed.
    overflow: bool,
}

impl Kept {
    fn new(limit: usize, width: usize) -> Self {
        Kept {
            limit,
            width,
            orbits: Vec::new(),
            distinct: 0,
            overflow: false,
        }
    }

    /// Keeps `grid`'s orbit; false once more than the limit are kept (then the walk stops: the
    /// listing fails, and its work is bounded by the limit, not by the number of grids).
    fn push(&mut self, grid: &[u32]) -> bool {
        if self.overflow {
            return false;
        }
        let (c, key, size) = symmetry::canonical(grid, self.width);
        self.orbits.push((key, c, size));
        if self.orbits.len() >= 2 * self.distinct.max(1024) {
            self.dedup();
            self.overflow = self.distinct > self.limit;
        }
        !self.overflow
    }

    fn dedup(&mut self) {
        self.orbits.sort_unstable();
        self.orbits.dedup_by(|a, b| a.0 == b.0);
        self.distinct = self.orbits.len();
    }

    /// The distinct orbits the threads kept, sorted.
    fn merge(threads: Vec<Kept>) -> Result<Vec<Orbit>, Error> {
        let limit = threads[0].limit;
        let overflow = threads.iter().any(|t| t.overflow);
        let mut all = Kept::new(limit, threads[0].width);
        all.orbits = threads.into_iter().flat_map(|t| t.orbits).collect();
        all.dedup();
        if overflow || all.distinct > limit {
            return Err(Error::TooManyGrids { limit });
        }
        Ok(all.orbits)
    }
}
