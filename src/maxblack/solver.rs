//! The solver's public face: one [`Solver`] per `(n, k)` and its [`Speedups`], giving the
//! [`Answer`].

use super::error::Error;
use super::search::{final_walk_visits, Search, Stage};
use super::symmetry;
use super::MAX_N;

/// The most orbits [`Solver::answer`] keeps to list them (about 250 MB at N = 20): beyond it,
/// only the counts are available ([`Solver::counting_only`]).
pub const MAX_KEPT_ORBITS: usize = 500_000;

/// The answer for one `(n, k)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The grid's side (the width of each row in `grids`).
    pub n: usize,
    /// The most black cells.
    pub max: u32,
    /// The optimal grids up to the 8 symmetries of the square (the number of orbits).
    pub orbits: u64,
    /// Every optimal grid counting every image.
    pub total: u64,
    /// Each orbit's canonical representative, sorted by its rows read as one string (empty if the
    /// solver was [`counting_only`](Solver::counting_only)). Bit `j` of a row is its cell `j`.
    pub grids: Vec<Vec<u32>>,
}

/// Which of the solver's speedups are on. Every combination gives the same answer; turning them
/// off serves tests and benchmarks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Speedups {
    /// The final walk visits only some images of each grid (those whose top half is at least as
    /// black as the bottom half, and whose first asymmetric row is below its mirror image).
    pub prune_images: bool,
    /// The search remembers proved failures (see `memo`).
    pub memo: bool,
    /// Rectangles less high than wide are solved as their transposes.
    pub transpose: bool,
}

impl Speedups {
    /// Everything on (the default).
    pub const ALL: Speedups = Speedups {
        prune_images: true,
        memo: true,
        transpose: true,
    };
    /// Everything off: plain branch and bound with Russian-doll bounds.
    pub const NONE: Speedups = Speedups {
        prune_images: false,
        memo: false,
        transpose: false,
    };
}

impl Default for Speedups {
    fn default() -> Self {
        Speedups::ALL
    }
}

/// Solves one `(n, k)`: `Solver::new(9, 4, Speedups::ALL).answer()`.
pub struct Solver {
    n: usize,
    k: usize,
    speedups: Speedups,
    /// The most orbits kept to list them; `None` to count them only.
    keep: Option<usize>,
    /// Told of each stage of the search as it ends.
    on_stage: Option<Box<dyn FnMut(Stage)>>,
}

impl Solver {
    /// A solver for `n` x `n` grids with no `k` black cells in a row, with the given speedups
    /// (each gives the same answer). Cheap: the tables are built by [`Solver::answer`].
    ///
    /// # Panics
    /// If `n` is not in `1..=MAX_N` or `k == 0`.
    #[must_use]
    pub fn new(n: usize, k: usize, speedups: Speedups) -> Self {
        assert!((1..=MAX_N).contains(&n) && k >= 1);
        Solver {
            n,
            k,
            speedups,
            keep: Some(MAX_KEPT_ORBITS),
            on_stage: None,
        }
    }

    /// Counts the orbits without keeping any grid: the answer's `grids` is empty, and the memory
    /// does not grow with the number of optimal grids.
    #[must_use]
    pub fn counting_only(mut self) -> Self {
        self.keep = None;
        self
    }

    /// Keeps at most `limit` orbits to list them (default [`MAX_KEPT_ORBITS`]); more is
    /// [`Error::TooManyGrids`].
    #[must_use]
    pub fn keeping_at_most(mut self, limit: usize) -> Self {
        self.keep = Some(limit);
        self
    }

    /// Tells `on_stage` of each stage as it ends (every rectangle maximum, every goal the final
    /// walk rules out), for a progress report on long runs.
    #[must_use]
    pub fn reporting(mut self, on_stage: Box<dyn FnMut(Stage)>) -> Self {
        self.on_stage = Some(on_stage);
        self
    }

    /// The maximum, the counts and (unless [`counting_only`](Self::counting_only)) the canonical
    /// optimal grids.
    ///
    /// # Errors
    /// [`Error::TooManyGrids`] if more orbits than the limit were to be kept.
    pub fn answer(self) -> Result<Answer, Error> {
        let n = self.n;
        if self.k > n || self.k == 1 {
            // No line holds K cells: the all-black grid is the only optimum. With K = 1 no cell
            // is black: the all-white grid. Either is its own orbit.
            let row = if self.k == 1 { 0 } else { (1u32 << n) - 1 };
            return Ok(Answer {
                n,
                max: row.count_ones() * n as u32,
                orbits: 1,
                total: 1,
                grids: if self.keep.is_some() {
                    vec![vec![row; n]]
                } else {
                    Vec::new()
                },
            });
        }
        let pruned = n >= 2 && self.speedups.prune_images;
        let mut search = Search::new(n, self.k, self.speedups);
        if let Some(on_stage) = self.on_stage {
            search = search.reporting(on_stage);
        }
        // Every orbit shows up at least once (the walk skips some images). Kept, orbits are told
        // apart by their canonical keys and the total is the sum of their sizes; counted, each
        // orbit counts at its first image that the walk visits.
        let mut kept = Kept::new(self.keep);
        let (mut most, mut orbits, mut total) = (0, 0u64, 0u64);
        let max = search.each_optimal(&mut |g, count| {
            if count > most {
                most = count;
                (orbits, total) = (0, 0);
                kept.clear();
            }
            if !kept.push(g) {
                if let Some(size) =
                    symmetry::size_if_first_visited(g, |g| final_walk_visits(g, pruned))
                {
                    orbits += 1;
                    total += size as u64;
                }
            }
        });
        Ok(match kept.finish()? {
            Some(canon) => Answer {
                n,
                max,
                orbits: canon.len() as u64,
                total: canon.iter().map(|&(_, _, size)| size as u64).sum(),
                grids: canon.into_iter().map(|(_, g, _)| g).collect(),
            },
            None => Answer {
                n,
                max,
                orbits,
                total,
                grids: Vec::new(),
            },
        })
    }
}

/// An orbit kept to be listed: its canonical key, its canonical grid and its size.
type Orbit = (Vec<u32>, Vec<u32>, usize);

/// The orbits kept to be listed, with duplicates removed whenever they double, up to a limit.
struct Kept {
    /// `None` when counting only.
    limit: Option<usize>,
    orbits: Vec<Orbit>,
    /// The length after the last removal of duplicates.
    distinct: usize,
    /// Whether the limit was passed.
    overflow: bool,
}

impl Kept {
    fn new(limit: Option<usize>) -> Self {
        Kept {
            limit,
            orbits: Vec::new(),
            distinct: 0,
            overflow: false,
        }
    }

    fn clear(&mut self) {
        self.orbits.clear();
        self.distinct = 0;
        self.overflow = false;
    }

    /// Keeps `grid`'s orbit; false if counting only.
    fn push(&mut self, grid: &[u32]) -> bool {
        let Some(limit) = self.limit else {
            return false;
        };
        if self.overflow {
            return true;
        }
        let (c, key, size) = symmetry::canonical(grid);
        self.orbits.push((key, c, size));
        if self.orbits.len() >= 2 * self.distinct.max(1024) {
            self.dedup();
            self.overflow = self.distinct > limit;
        }
        true
    }

    fn dedup(&mut self) {
        self.orbits.sort_unstable();
        self.orbits.dedup_by(|a, b| a.0 == b.0);
        self.distinct = self.orbits.len();
    }

    /// The distinct orbits, sorted; `None` if counting only.
    fn finish(mut self) -> Result<Option<Vec<Orbit>>, Error> {
        let Some(limit) = self.limit else {
            return Ok(None);
        };
        self.dedup();
        if self.overflow || self.distinct > limit {
            return Err(Error::TooManyGrids { limit });
        }
        Ok(Some(self.orbits))
    }
}
