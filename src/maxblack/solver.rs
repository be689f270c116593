//! The solver's public face: one [`Solver`] per `(n, k)` and its [`Speedups`], giving the
//! [`Answer`].

use super::search::{Search, Stage};
use super::symmetry;
use super::MAX_N;

/// The answer for one `(n, k)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The grid's side (the width of each row in `grids`).
    pub n: usize,
    /// The most black cells.
    pub max: u32,
    /// Every optimal grid counting every image.
    pub total: u64,
    /// Each orbit's canonical representative, sorted by its rows read as one string. Bit `j` of
    /// a row is its cell `j`.
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
            on_stage: None,
        }
    }

    /// Tells `on_stage` of each stage as it ends (every rectangle maximum, every goal the final
    /// walk rules out), for a progress report on long runs.
    #[must_use]
    pub fn reporting(mut self, on_stage: Box<dyn FnMut(Stage)>) -> Self {
        self.on_stage = Some(on_stage);
        self
    }

    /// The maximum, the total and the canonical optimal grids.
    #[must_use]
    pub fn answer(self) -> Answer {
        let n = self.n;
        if self.k > n {
            // No line holds K cells: the all-black grid is the only optimum, its own orbit.
            return Answer {
                n,
                max: (n * n) as u32,
                total: 1,
                grids: vec![vec![(1u32 << n) - 1; n]],
            };
        }
        let mut search = Search::new(n, self.k, self.speedups);
        if let Some(on_stage) = self.on_stage {
            search = search.reporting(on_stage);
        }
        // Every orbit shows up at least once (the walk skips some images), so orbits are told
        // apart by their canonical keys and the total is the sum of their sizes.
        let mut canon = Vec::new();
        let mut most = 0;
        let max = search.each_optimal(&mut |g, count| {
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
            n,
            max,
            total: canon.iter().map(|&(_, _, size)| size as u64).sum(),
            grids: canon.into_iter().map(|(_, g, _)| g).collect(),
        }
    }
}
