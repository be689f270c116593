//! Branch and bound, row by row, with Russian-doll bounds from smaller rectangles.
//!
//! Three things keep the walk small:
//! - bounds: a node is cut when its count plus the best row its forbidden mask allows plus the
//!   exact maximum of the rectangle below cannot reach the goal. Parents test this for each child
//!   before the call, with the child's forbidden mask from [`rows::Chain`];
//! - a table of proved failures ([`super::memo`]): the rows to come depend only on the next
//!   row's forbidden mask and the last `k - 2` rows, so a subtree that found nothing is not
//!   walked again from another path (or from the mirror image of its state);
//! - in the final walk, image pruning: only some images of each grid are visited.
//!
//! The type [`Search`] is defined here with all it holds (its tables, its [`Speedups`], the state
//! of a walk and of a walk of one part with its [`Budget`]) and its construction; its methods live
//! in the sibling modules by idea: `bounds` (the Russian-doll maxima of the rectangles and the
//! bounds on the grid), `walk` (the walk row by row with its cuts and image pruning), `memo_keys`
//! (the keys and prefetches of the table of failures) and `units` (the final walk cut into units
//! and parts). They import this module, never the reverse.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::checkpoint::Done;
use super::memo::Memo;
use super::rows;

/// The maximum and every optimal grid of `rows` rows of `n` <= 20 cells (all images).
pub struct Search {
    pub(super) tables: Arc<Tables>,
    pub(super) speedups: Speedups,
    /// The rows of the final walk's grids.
    pub(super) rows: usize,
    /// `best[m]`: the exact maximum for an `m` x `n` rectangle, filled for `m` = 0, 1, ...
    pub(super) best: Vec<u32>,
    pub(super) walk: Walk,
    /// Proved failures, when the last `k - 1` rows fit in 64 bits (and `speedups.memo`).
    pub(super) memo: Option<Arc<Memo>>,
    /// Rectangles reported to the visitor so far (a subtree that adds none found nothing).
    pub(super) reported: u64,
    /// Nodes visited so far (calls of `extend`), a measure of work for tests and tuning.
    pub(super) nodes: u64,
    /// Told of each stage as it ends (for a progress report on long runs).
    pub(super) on_stage: Option<Box<dyn FnMut(Stage) + Send>>,
}

/// A finished stage of the search, as told to the reporter of
/// [`Solver::reporting`](super::Solver::reporting).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The exact maximum of the `rows` x `n` rectangle is `max`.
    Rectangle { rows: usize, max: u32 },
    /// The final walk with this goal found no grid (so the maximum is below it).
    NoGridAt { goal: u32 },
    /// The final walk with this goal found this grid (so the goal is the maximum), in the
    /// search's orientation: rows as narrow as the grid's shorter side.
    GridAt { goal: u32, grid: Vec<u32> },
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

impl Search {
    /// Prepares the row tables for grids of `rows` rows of `n` cells. Both must be in `1..=20`,
    /// and `k >= 1`.
    #[must_use]
    pub fn new(rows: usize, n: usize, k: usize, speedups: Speedups) -> Self {
        // A run longer than every side cannot occur; a smaller `k` keeps the state short.
        let k = k.min(n.max(rows) + 1);
        Self::sharing(Arc::new(Tables::new(n, k)), rows, vec![0], speedups)
    }

    /// A search on tables already built, knowing the rectangle maxima `best` (at least
    /// `best[0] = 0`), with a table of failures of its own.
    #[must_use]
    pub(super) fn sharing(
        tables: Arc<Tables>,
        rows: usize,
        best: Vec<u32>,
        speedups: Speedups,
    ) -> Self {
        let (n, k) = (tables.n, tables.k);
        Search {
            tables,
            speedups,
            rows,
            best,
            walk: Walk {
                grid: Vec::with_capacity(rows),
                height: rows,
                split: None,
                goal: 0,
                mirror: false,
                palindromic: true,
                top: 0,
                above_bottom: 0,
                track: None,
            },
            memo: (speedups.memo && (k - 1) * n <= 64).then(|| Arc::new(Memo::new(memo_bits(n)))),
            reported: 0,
            nodes: 0,
            on_stage: None,
        }
    }

    /// Tells `on_stage` of each stage as it ends.
    #[must_use]
    pub fn reporting(mut self, on_stage: Box<dyn FnMut(Stage) + Send>) -> Self {
        self.on_stage = Some(on_stage);
        self
    }

    /// Nodes visited so far, a measure of work.
    #[cfg(test)]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A search for another thread of the final walk: the same tables, rectangle maxima and
    /// table of failures (shared: what one thread proves, the others use).
    #[must_use]
    pub fn worker(&self) -> Search {
        let mut worker =
            Search::sharing(self.tables(), self.rows, self.best.clone(), self.speedups);
        worker.memo = self.memo.clone();
        worker
    }

    /// The rectangle maxima known so far (`[0]` before any).
    #[must_use]
    pub fn known_maxima(&self) -> &[u32] {
        &self.best
    }

    /// The rows of the final grid.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The tables, to share with the threads of the final walk.
    #[must_use]
    pub fn tables(&self) -> Arc<Tables> {
        Arc::clone(&self.tables)
    }

    /// Tells the reporter of [`Search::reporting`] of a stage.
    pub fn tell(&mut self, stage: Stage) {
        if let Some(f) = self.on_stage.as_mut() {
            f(stage);
        }
    }
}

/// Table size for `n` columns: small grids keep a small table (it is zeroed lazily by the
/// allocator, but still touched), large ones get 2^23 slots (128 MiB).
fn memo_bits(n: usize) -> u32 {
    (n as u32 + 8).clamp(12, 23)
}

/// The tables fixed by the row width `n` and `k`: built once, read by every walk (and shared by
/// the threads of the final walk).
pub struct Tables {
    /// Cells per row (<= 20).
    pub n: usize,
    /// The run length no line may reach (at most one more than the longest side).
    pub k: usize,
    /// The valid rows that avoid each forbidden mask, most black first.
    pub compatible: rows::Compatible,
    /// `best_row[f]`: the most black cells in a valid row avoiding mask `f`.
    pub best_row: Vec<u8>,
}

impl Tables {
    /// The tables for rows of `n` cells with no `k` in a row.
    #[must_use]
    pub fn new(n: usize, k: usize) -> Self {
        let valid = rows::valid_rows(n, k);
        Tables {
            n,
            k,
            compatible: rows::Compatible::new(&valid, n),
            best_row: rows::best_row_table(n, k),
        }
    }
}

/// The state of one walk: the rows placed so far and what restricts the rest.
pub(super) struct Walk {
    /// The rows placed so far, top first.
    pub(super) grid: Vec<u32>,
    /// The rows of the rectangle being walked (`n` in the final walk).
    pub(super) height: usize,
    /// The fewest black cells a completed rectangle must hold to be reported. Only rises during
    /// a walk, as the visitor asks.
    pub(super) goal: u32,
    /// Whether the walk visits only some images of each grid: those whose top `height / 2` rows
    /// hold at least as many black cells as the bottom `height / 2` (one of a grid and its
    /// upside-down image is), and that pass the `palindromic` rule below.
    pub(super) mirror: bool,
    /// The depth at which the walk hands each node to the leaf instead of going deeper, to list
    /// the final walk's units of work (`None`: walk to the bottom).
    pub(super) split: Option<usize>,
    /// Whether every row placed so far reads the same from both ends. While it does, in a
    /// `mirror` walk, a new row must not exceed its mirror image: of a grid and its left-right
    /// image, only the one whose first asymmetric row is the smaller number is visited.
    pub(super) palindromic: bool,
    /// In a `mirror` walk, the black cells of the top half of the grid being built.
    pub(super) top: u32,
    /// In a `mirror` walk, the black cells above the bottom half of the grid being built.
    pub(super) above_bottom: u32,
    /// In a walk of a part of the final walk ([`Search::walk_part`]), where it is and what it
    /// skips.
    pub(super) track: Option<Box<Track>>,
}

/// The bookkeeping of a walk of one part of the final walk: the child numbers of the nodes on the
/// path, down to the depth parts are named at, and the parts to skip.
pub(super) struct Track {
    /// The depth of the part's root.
    pub(super) from: usize,
    /// The deepest depth whose nodes are numbered.
    pub(super) to: usize,
    /// `seen[d]`: the nodes at depth `d` that passed the bounds under the current node at depth
    /// `d - 1` (the current one at depth `d` is number `seen[d] - 1`).
    pub(super) seen: [u32; MAX_DEPTH + 2],
    /// `on_done[d]`: whether the current node at depth `d` holds done parts.
    pub(super) on_done: [bool; MAX_DEPTH + 2],
    /// The done parts inside the part being walked.
    pub(super) skip: Done,
    pub(super) budget: Budget,
    pub(super) start: Instant,
    /// Nodes that passed the bounds so far, and when to look at the budget next.
    pub(super) ticks: u64,
    pub(super) next_look: u64,
    /// Where the walk gave up: the numbers of the nodes on the path below the part's root.
    pub(super) gave_up: Option<Vec<u32>>,
}

/// The most rows of a grid (`MAX_N`).
pub(super) const MAX_DEPTH: usize = super::MAX_N;

/// When a walk of a part of the final walk gives up, so that the caller splits the part.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Give up after this many nodes that pass the bounds.
    pub nodes: u64,
    /// Give up after this long.
    pub time: Duration,
    /// Give up when this is set (another thread found a grid).
    pub cancel: Option<Arc<AtomicBool>>,
}
