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

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::checkpoint::Done;
use super::memo::{Memo, Situation};
#[cfg(not(bundle))]
use super::rectangles;
use super::rows;
use super::solver::Speedups;
use super::symmetry::mirror;

/// The fewest rows still to place for a node to consult and feed the failure table; below it a
/// node's own work costs less than a table probe.
const MEMO_MIN_REMAINING: usize = 2;

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
struct Walk {
    /// The rows placed so far, top first.
    grid: Vec<u32>,
    /// The rows of the rectangle being walked (`n` in the final walk).
    height: usize,
    /// The fewest black cells a completed rectangle must hold to be reported. Only rises during
    /// a walk, as the visitor asks.
    goal: u32,
    /// Whether the walk visits only some images of each grid: those whose top `height / 2` rows
    /// hold at least as many black cells as the bottom `height / 2` (one of a grid and its
    /// upside-down image is), and that pass the `palindromic` rule below.
    mirror: bool,
    /// The depth at which the walk hands each node to the leaf instead of going deeper, to list
    /// the final walk's units of work (`None`: walk to the bottom).
    split: Option<usize>,
    /// Whether every row placed so far reads the same from both ends. While it does, in a
    /// `mirror` walk, a new row must not exceed its mirror image: of a grid and its left-right
    /// image, only the one whose first asymmetric row is the smaller number is visited.
    palindromic: bool,
    /// In a `mirror` walk, the black cells of the top half of the grid being built.
    top: u32,
    /// In a `mirror` walk, the black cells above the bottom half of the grid being built.
    above_bottom: u32,
    /// In a walk of a part of the final walk ([`Search::walk_part`]), where it is and what it
    /// skips.
    track: Option<Box<Track>>,
}

/// The units of work of a final walk ([`Search::units`]): prefixes of the same number of rows,
/// kept in one vector (a pass can have tens of millions).
pub struct Units {
    depth: usize,
    rows: Vec<u32>,
    len: usize,
}

impl Units {
    /// The number of units.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Unit `i`'s rows.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<&[u32]> {
        (i < self.len).then(|| &self.rows[i * self.depth..(i + 1) * self.depth])
    }
}

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

/// The nodes between two looks at the clock.
const TICKS: u64 = 4096;

/// The bookkeeping of a walk of one part of the final walk: the child numbers of the nodes on the
/// path, down to the depth parts are named at, and the parts to skip.
struct Track {
    /// The depth of the part's root.
    from: usize,
    /// The deepest depth whose nodes are numbered.
    to: usize,
    /// `seen[d]`: the nodes at depth `d` that passed the bounds under the current node at depth
    /// `d - 1` (the current one at depth `d` is number `seen[d] - 1`).
    seen: [u32; MAX_DEPTH + 2],
    /// `on_done[d]`: whether the current node at depth `d` holds done parts.
    on_done: [bool; MAX_DEPTH + 2],
    /// The done parts inside the part being walked.
    skip: Done,
    budget: Budget,
    start: Instant,
    /// Nodes that passed the bounds so far, and when to look at the budget next.
    ticks: u64,
    next_look: u64,
    /// Where the walk gave up: the numbers of the nodes on the path below the part's root.
    gave_up: Option<Vec<u32>>,
}

/// The most rows of a grid (`MAX_N`).
const MAX_DEPTH: usize = super::MAX_N;

/// How a walk of a part of the final walk ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A grid as black as the goal (the first one the walk reached).
    Found(Vec<u32>),
    /// No such grid in the part.
    Empty,
    /// Gave up (past the budget) at the node whose path below the part is this: of each node on
    /// it, the children numbered before it are done.
    GaveUp(Vec<u32>),
}

/// The maximum and every optimal grid of `rows` rows of `n` <= 20 cells (all images).
pub struct Search {
    tables: Arc<Tables>,
    speedups: Speedups,
    /// The rows of the final walk's grids.
    rows: usize,
    /// `best[m]`: the exact maximum for an `m` x `n` rectangle, filled for `m` = 0, 1, ...
    best: Vec<u32>,
    walk: Walk,
    /// Proved failures, when the last `k - 1` rows fit in 64 bits (and `speedups.memo`).
    memo: Option<Arc<Memo>>,
    /// Rectangles reported to the visitor so far (a subtree that adds none found nothing).
    reported: u64,
    /// Nodes visited so far (calls of `extend`), a measure of work for tests and tuning.
    nodes: u64,
    /// Told of each stage as it ends (for a progress report on long runs).
    on_stage: Option<Box<dyn FnMut(Stage) + Send>>,
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

    /// The exact maxima of the `m` x `n` rectangles for `m` in `0..=rows` (the final grid's
    /// maximum by a plain search).
    #[cfg(test)]
    pub fn maxima(&mut self) -> &[u32] {
        self.fill_maxima(self.rows);
        &self.best
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

    /// The exact maxima of the rectangles `m` rows high for `m < rows`, found first (Russian
    /// doll), or as given by [`Search::knowing`].
    pub fn rectangle_maxima(&mut self) -> &[u32] {
        self.fill_maxima(self.rows - 1);
        &self.best[..self.rows]
    }

    /// As [`Search::rectangle_maxima`], on `threads` threads (when rectangles are solved through
    /// their transposes; see `rectangles`).
    #[cfg(not(bundle))]
    pub fn rectangle_maxima_on(&mut self, threads: usize) -> &[u32] {
        if self.speedups.transpose && self.best.len() < self.rows {
            let mut on_stage = self.on_stage.take();
            let mut tell = |m, max| {
                if let Some(f) = on_stage.as_mut() {
                    f(Stage::Rectangle { rows: m, max });
                }
            };
            let (n, k) = (self.tables.n, self.tables.k);
            self.best = rectangles::maxima(n, self.rows, k, self.speedups, threads, &mut tell);
            self.on_stage = on_stage;
        }
        self.rectangle_maxima()
    }

    /// The bundle for online judges leaves the threaded rectangle stage out.
    #[cfg(bundle)]
    pub fn rectangle_maxima_on(&mut self, _threads: usize) -> &[u32] {
        self.rectangle_maxima()
    }

    /// The exact maximum of the rectangle of `m` rows (`best` known below it), by walks with a
    /// falling target from the Russian-doll bound.
    pub(super) fn direct_max(&mut self, m: usize) -> u32 {
        let mut target = self.upper_bound(m);
        while target > self.best[m - 1] && !self.reaches(m, target) {
            target -= 1;
        }
        target.max(self.best[m - 1])
    }

    /// Takes the rectangle maxima as known (from a checkpoint) instead of searching for them.
    pub fn knowing(&mut self, maxima: &[u32]) {
        self.best = maxima.to_vec();
    }

    /// Fills `best` up to `best[last]`.
    ///
    /// Each maximum is found by trying targets downward from the Russian-doll upper bound; the
    /// first target that some rectangle reaches is it.
    fn fill_maxima(&mut self, last: usize) {
        while self.best.len() <= last {
            let m = self.best.len();
            let max = if self.speedups.transpose && m >= 2 && m < self.tables.n {
                self.transposed_max(m)
            } else {
                let mut target = self.upper_bound(m);
                while target > self.best[m - 1] && !self.reaches(m, target) {
                    target -= 1;
                }
                target
            };
            self.best.push(max.max(self.best[m - 1]));
            self.tell(Stage::Rectangle {
                rows: m,
                max: self.best[m],
            });
        }
    }

    /// The most black cells in an `m` x `n` rectangle, as the most in its transpose: `n` rows
    /// `m` cells wide. Narrow rows make a small state space, where the failure table works
    /// almost as a complete dynamic program; that solver finds its own maxima the same way.
    fn transposed_max(&mut self, m: usize) -> u32 {
        let mut narrow = Search::new(self.tables.n, m, self.tables.k, self.speedups);
        narrow.fill_maxima(self.tables.n);
        self.nodes += narrow.nodes;
        narrow.best[self.tables.n]
    }

    /// `min over j of best[j] + best[m - j]`, or the best single row for `m == 1`.
    fn upper_bound(&self, m: usize) -> u32 {
        let split = (1..m).map(|j| self.best[j] + self.best[m - j]).min();
        split.unwrap_or(u32::from(self.tables.best_row[0]))
    }

    /// Whether some `m`-row rectangle holds at least `target` black cells.
    ///
    /// With `prune_images`, only images whose top half is at least as black as the bottom half
    /// and whose first asymmetric row is smaller than its mirror are tried (as in the final walk;
    /// some image of every rectangle is).
    fn reaches(&mut self, m: usize, target: u32) -> bool {
        self.walk.grid.clear();
        self.walk.goal = target;
        self.walk.height = m;
        self.walk.mirror = m >= 2 && self.speedups.prune_images;
        self.walk.palindromic = true;
        let f = rows::forbidden(&[], self.tables.n, self.tables.k);
        self.extend(m, 0, f, None, &mut |_, _| None)
    }

    /// The Russian-doll bound on the final grid (the rectangle maxima must be known).
    #[must_use]
    pub fn grid_bound(&self) -> u32 {
        self.upper_bound(self.rows).max(self.best[self.rows - 1])
    }

    /// The fewest black cells the final grid holds: as many as the rectangle one row lower.
    #[must_use]
    pub fn grid_floor(&self) -> u32 {
        self.best[self.rows - 1]
    }

    /// Tells the reporter of [`Search::reporting`] of a stage.
    pub fn tell(&mut self, stage: Stage) {
        if let Some(f) = self.on_stage.as_mut() {
            f(stage);
        }
    }

    /// Prepares a walk of the final grid from the rows `prefix` with the goal `goal`; returns the
    /// prefix's black cells and the next row's forbidden mask.
    fn start_final(&mut self, prefix: &[u32], goal: u32) -> (u32, u32) {
        self.walk.height = self.rows;
        self.walk.mirror = self.rows >= 2 && self.speedups.prune_images;
        self.walk.grid.clear();
        self.walk.grid.extend_from_slice(prefix);
        self.walk.palindromic = prefix.iter().all(|&r| mirror(r, self.tables.n) == r);
        self.walk.goal = goal;
        let black = |rows: &[u32]| rows.iter().map(|r| r.count_ones()).sum::<u32>();
        // A prefix past the middle fixes the halves' counts the walk would have noted.
        let half = self.rows / 2;
        if prefix.len() >= half {
            self.walk.top = black(&prefix[..half]);
        }
        if prefix.len() >= self.rows - half {
            self.walk.above_bottom = black(&prefix[..self.rows - half]);
        }
        let count = black(prefix);
        (count, rows::forbidden(prefix, self.tables.n, self.tables.k))
    }

    /// The units of work of the final walk with goal `goal`: the prefixes of `depth` rows it
    /// would extend, in its order (one empty prefix if `depth` is 0). Walking each with
    /// [`Search::walk_unit`] at a goal at least `goal` visits what one walk would.
    ///
    /// `depth` must be at most half the grid's rows.
    pub fn units(&mut self, goal: u32, depth: usize) -> Units {
        let mut units = Units {
            depth,
            rows: Vec::new(),
            len: 1,
        };
        if depth > 0 {
            units.len = 0;
            self.each_prefix(&[], goal, depth, &mut |prefix| {
                units.rows.extend_from_slice(prefix);
                units.len += 1;
            });
        }
        units
    }

    /// The children of the part `prefix` of the final walk with goal `goal`: the prefixes one row
    /// longer that pass the bounds, in the walk's order (their numbers in a checkpoint). Walking
    /// each with [`Search::walk_part`] visits what walking `prefix` would.
    pub fn children(&mut self, prefix: &[u32], goal: u32) -> Vec<Vec<u32>> {
        self.prefixes(prefix, goal, prefix.len() + 1)
    }

    /// The prefixes of `depth` rows extending `prefix` that the final walk with goal `goal`
    /// reaches, in its order.
    fn prefixes(&mut self, prefix: &[u32], goal: u32, depth: usize) -> Vec<Vec<u32>> {
        let mut prefixes = Vec::new();
        self.each_prefix(prefix, goal, depth, &mut |p| prefixes.push(p.to_vec()));
        prefixes
    }

    /// Calls `each` on the prefixes of [`Search::prefixes`], in order.
    fn each_prefix(
        &mut self,
        prefix: &[u32],
        goal: u32,
        depth: usize,
        each: &mut dyn FnMut(&[u32]),
    ) {
        // Without the table, whose content depends on the walks before: the units depend only
        // on the goal and the rectangle maxima, so a run that resumes finds the same ones.
        let memo = self.memo.take();
        let (count, f) = self.start_final(prefix, goal);
        self.walk.split = Some(depth);
        self.extend(self.rows, count, f, None, &mut |prefix, _| {
            each(prefix);
            Some(goal)
        });
        self.walk.split = None;
        self.memo = memo;
    }

    /// Walks the final grids that extend `prefix` (a unit of [`Search::units`]) and hold at least
    /// `goal` black cells. At each one, `leaf(grid, count)` stops the walk (`None`: this returns
    /// true) or sets the goal from then on (at most the count, so that no grid as black is
    /// skipped). Only some images of each grid are visited when the speedups prune them (see
    /// [`final_walk_visits`]).
    pub fn walk_unit(
        &mut self,
        prefix: &[u32],
        goal: u32,
        leaf: &mut dyn FnMut(&[u32], u32) -> Option<u32>,
    ) -> bool {
        let (count, f) = self.start_final(prefix, goal);
        self.extend(self.rows, count, f, None, leaf)
    }

    /// Walks the part `prefix` (a unit, or a part of one: see [`Search::children`]) of the final
    /// walk with goal `goal`, stopping at the first grid, skipping the parts `skip` (numbered
    /// below `prefix`) and giving up past `budget`. Parts are numbered down to depth `to` (at
    /// least the prefix's): a walk gives up only below a numbered depth, so that the part it was
    /// on can be split.
    pub fn walk_part(
        &mut self,
        prefix: &[u32],
        goal: u32,
        to: usize,
        skip: Done,
        budget: Budget,
    ) -> Outcome {
        let from = prefix.len();
        let mut track = Box::new(Track {
            from,
            to: to.max(from),
            seen: [0; MAX_DEPTH + 2],
            on_done: [false; MAX_DEPTH + 2],
            skip,
            start: Instant::now(),
            ticks: 0,
            next_look: budget.nodes.min(TICKS),
            budget,
            gave_up: None,
        });
        track.on_done[from] = !track.skip.is_empty();
        self.walk.track = Some(track);
        let mut grid = Vec::new();
        let found = self.walk_unit(prefix, goal, &mut |g, _| {
            grid = g.to_vec();
            None
        });
        match self.walk.track.take().and_then(|t| t.gave_up) {
            Some(path) => Outcome::GaveUp(path),
            None if found => Outcome::Found(grid),
            None => Outcome::Empty,
        }
    }

    /// At a node of depth `depth` that passed the bounds in a walk of a part: numbers it, and
    /// whether to leave it (false: a done part; true: past the budget, then `gave_up` is set).
    #[inline(never)]
    fn track(&mut self, depth: usize) -> Option<bool> {
        let t = self.walk.track.as_deref_mut()?;
        if depth > t.from && depth <= t.to {
            t.seen[depth] += 1;
            t.seen[depth + 1] = 0;
            t.on_done[depth] = false;
            if t.on_done[depth - 1] {
                let path: Vec<u32> = (t.from + 1..=depth).map(|d| t.seen[d] - 1).collect();
                if t.skip.contains(&path) {
                    return Some(false);
                }
                t.on_done[depth] = t.skip.below(&path).is_some();
            }
        }
        t.ticks += 1;
        if t.ticks >= t.next_look {
            t.next_look = t.ticks + TICKS.min(t.budget.nodes);
            let b = &t.budget;
            if depth > t.from
                && t.from < t.to
                && (t.ticks >= b.nodes
                    || t.start.elapsed() >= b.time
                    || b.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)))
            {
                let deepest = depth.min(t.to);
                t.gave_up = Some((t.from + 1..=deepest).map(|d| t.seen[d] - 1).collect());
                return Some(true);
            }
        }
        None
    }

    /// The maximum, by walks with a falling goal that stop at the first grid (one thread, no
    /// units): for tests.
    #[cfg(test)]
    pub fn maximum(&mut self) -> u32 {
        self.fill_maxima(self.rows - 1);
        let mut goal = self.grid_bound();
        while !self.walk_unit(&[], goal, &mut |_, _| None) {
            goal -= 1;
        }
        goal
    }

    /// In the final walk, at `depth` rows holding `count`: records the halves' counts when a half
    /// ends, and whether the goal is still reachable with the bottom half no blacker than the top.
    fn halves_can_reach(&mut self, depth: usize, count: u32) -> bool {
        self.note_halves(depth, count);
        let half = self.walk.height / 2;
        !(depth == half && 2 * count + self.best[self.walk.height - 2 * half] < self.walk.goal
            || depth == self.walk.height - half && count + self.walk.top < self.walk.goal)
    }

    /// In the final walk, at `depth` rows holding `count`: records the top half's count when it
    /// ends, and the count above the bottom half when that starts.
    fn note_halves(&mut self, depth: usize, count: u32) {
        let half = self.walk.height / 2;
        if depth == half {
            self.walk.top = count;
        }
        if depth == self.walk.height - half {
            self.walk.above_bottom = count;
        }
    }

    /// The most black cells the rows from `depth` on may add (holding `count` so far): in the
    /// final walk's bottom half, what keeps it no blacker than the top half; otherwise no limit.
    fn allowance(&self, depth: usize, count: u32) -> u32 {
        if self.walk.mirror && depth >= self.walk.height - self.walk.height / 2 {
            self.walk.top.saturating_sub(count - self.walk.above_bottom)
        } else {
            u32::MAX
        }
    }

    /// Extends the rows placed so far (holding `count` black cells) to `m`-row rectangles with at
    /// least `goal` black cells, most black rows first. At each one, `leaf(grid, count)` either
    /// stops the walk (`None`; then this returns true) or sets a new goal.
    ///
    /// `f` is the forbidden mask of the next row, `rows::forbidden(&self.walk.grid, n, k)`; `key`, if
    /// known, is what [`Search::probe`] would give without the `need`.
    fn extend(
        &mut self,
        m: usize,
        count: u32,
        f: u32,
        key: Option<Option<Key>>,
        leaf: &mut dyn FnMut(&[u32], u32) -> Option<u32>,
    ) -> bool {
        let depth = self.walk.grid.len();
        self.nodes += 1;
        if depth == m {
            if count < self.walk.goal {
                return false;
            }
            self.reported += 1;
            return match leaf(&self.walk.grid, count) {
                None => true,
                Some(goal) => {
                    self.walk.goal = goal;
                    false
                }
            };
        }
        let rest = self.best[m - depth - 1];
        if count + u32::from(self.tables.best_row[f as usize]) + rest < self.walk.goal
            || (self.walk.mirror && !self.halves_can_reach(depth, count))
        {
            return false;
        }
        if self.walk.split == Some(depth) {
            self.reported += 1;
            return leaf(&self.walk.grid, count).is_none();
        }
        if self.walk.track.is_some() {
            if let Some(leave) = self.track(depth) {
                return leave;
            }
        }
        let allowance = self.allowance(depth, count);
        let probe = match key {
            Some(key) => key.map(|(state, at)| (state, at, self.walk.goal - count)),
            None => self.probe(m, count, f, allowance),
        };
        if let Some((state, at, need)) = probe {
            if self
                .memo
                .as_ref()
                .is_some_and(|t| t.proves_out_of_reach(state, at, need))
            {
                return false;
            }
        }
        let reported = self.reported;
        if self.each_row(m, count, f, rest, allowance, leaf) {
            return true;
        }
        if let (Some((state, at, need)), Some(memo)) = (probe, self.memo.as_ref()) {
            if self.reported == reported {
                memo.record_out_of_reach(state, at, need);
            }
        }
        false
    }

    /// The failure-table key of the current node and the black cells the rest must add, or
    /// `None` when the node is too close to the bottom or already at its goal.
    ///
    /// The restriction of the final walk is part of the key: above the middle, the goal (which
    /// fixes the top half's quota); in the middle row of an odd grid, the top half's count; in
    /// the bottom half, the `allowance` left to it; with, in each case, whether the rows so far
    /// are all palindromes.
    fn probe(&self, m: usize, count: u32, f: u32, allowance: u32) -> Option<(u64, Situation, u32)> {
        let depth = self.walk.grid.len();
        if self.memo.is_none() || m - depth < MEMO_MIN_REMAINING || count >= self.walk.goal {
            return None;
        }
        let restriction = if self.walk.mirror {
            let half = self.walk.height / 2;
            let (phase, value) = if depth < half {
                (0, self.walk.goal)
            } else if depth < self.walk.height - half {
                (1, self.walk.top)
            } else {
                (2, allowance)
            };
            1 | u32::from(self.walk.palindromic) << 1
                | phase << 2
                | value << 4
                | (self.walk.height as u32) << 13
        } else {
            0
        };
        let held = depth.min(self.tables.k - 1);
        let state = self.state(f, !self.walk.mirror || !self.walk.palindromic);
        let at = Situation {
            remaining: (m - depth) as u32,
            depth_in_state: held as u32,
            restriction,
        };
        Some((state, at, self.walk.goal - count))
    }

    /// What the rows to come depend on, packed: the next row's forbidden mask `f` and the last
    /// `k - 2` rows (row `d + 2` on depends on rows `d - k + 3..` only; whatever the row before
    /// them did is summed up in `f`), so paths that differ only in that earlier row share a key.
    /// Fits in `(k - 1) * n` bits. With `mirrored`, a state and its left-right mirror image
    /// (whose futures are mirror images of each other) share a key too: the smaller packing.
    fn state(&self, f: u32, mirrored: bool) -> u64 {
        let depth = self.walk.grid.len();
        let recent = &self.walk.grid[depth - depth.min(self.tables.k.saturating_sub(2))..];
        let pack = |flip: &dyn Fn(u32) -> u32| {
            recent.iter().fold(u64::from(flip(f)), |s, &r| {
                s << self.tables.n | u64::from(flip(r))
            })
        };
        let plain = pack(&|x| x);
        if mirrored {
            plain.min(pack(&|x| x.reverse_bits() >> (32 - self.tables.n)))
        } else {
            plain
        }
    }

    /// The loop of [`Search::extend`] over the candidate rows for the forbidden mask `f`.
    ///
    /// Candidates are taken in batches of [`BATCH`]: the failure-table slots of a batch's children
    /// are prefetched together, so that their probes overlap instead of waiting for memory one
    /// after the other. The order of the walk is unchanged.
    fn each_row(
        &mut self,
        m: usize,
        count: u32,
        f: u32,
        rest: u32,
        allowance: u32,
        leaf: &mut dyn FnMut(&[u32], u32) -> Option<u32>,
    ) -> bool {
        let cand = Candidates {
            chain: rows::Chain::new(&self.walk.grid, self.tables.n, self.tables.k),
            count,
            f,
            rest,
            allowance,
            child_rest: (m - self.walk.grid.len() >= 2)
                .then(|| self.best[m - self.walk.grid.len() - 2]),
            ends_top: self.walk.mirror && self.walk.grid.len() + 1 == self.walk.height / 2,
        };
        let range = self.tables.compatible.range(f);
        let mut i = range.start;
        let mut batch = [(0u32, 0u32, false, None); BATCH];
        while i < range.end {
            let mut len = 0;
            let mut exhausted = false;
            let goal = self.walk.goal;
            while len < BATCH && i < range.end {
                let r = self.tables.compatible.row(i);
                i += 1;
                match self.admit(&cand, r) {
                    Admit::Stop => {
                        exhausted = true;
                        break;
                    }
                    Admit::Skip => {}
                    Admit::Child(next, palindromic) => {
                        let key =
                            self.prefetch_child(m, count + r.count_ones(), r, next, palindromic);
                        batch[len] = (r, next, palindromic, key);
                        len += 1;
                    }
                }
            }
            for &(r, next, palindromic, key) in &batch[..len] {
                // The goal may have risen since the batch was gathered.
                if !matches!(self.admit(&cand, r), Admit::Child(..)) {
                    continue;
                }
                let was_palindromic = self.walk.palindromic;
                self.walk.palindromic = palindromic;
                self.walk.grid.push(r);
                // A key taken under another goal may name another restriction.
                let key = (self.walk.goal == goal).then_some(key);
                let stopped = self.extend(m, count + r.count_ones(), next, key, leaf);
                self.walk.grid.pop();
                self.walk.palindromic = was_palindromic;
                if stopped {
                    return true;
                }
            }
            if exhausted {
                break;
            }
        }
        false
    }

    /// Whether row `r` may follow the rows placed so far (see [`Admit`]).
    fn admit(&self, cand: &Candidates, r: u32) -> Admit {
        let c = cand.count + r.count_ones();
        let half = self.walk.height / 2;
        if c + cand.rest < self.walk.goal
            || (cand.ends_top && 2 * c + self.best[self.walk.height - 2 * half] < self.walk.goal)
        {
            return Admit::Stop;
        }
        let mut palindromic = self.walk.palindromic;
        if self.walk.mirror && palindromic {
            let mirrored = r.reverse_bits() >> (32 - self.tables.n);
            if mirrored < r {
                return Admit::Skip;
            }
            palindromic = mirrored == r;
        }
        if r & cand.f != 0 || r.count_ones() > cand.allowance {
            return Admit::Skip;
        }
        let next = cand.chain.after(r);
        if cand.child_rest.is_some_and(|cr| {
            c + u32::from(self.tables.best_row[next as usize]) + cr < self.walk.goal
        }) {
            return Admit::Skip;
        }
        Admit::Child(next, palindromic)
    }

    /// Prefetches the failure-table slot the child reached by placing `r` (with `c` black cells
    /// in all) will probe, by setting up the child's fields as it would and undoing them.
    ///
    /// Returns the child's key (as [`Search::probe`] gives it, without the `need`), valid while
    /// the goal stays where it is.
    fn prefetch_child(
        &mut self,
        m: usize,
        c: u32,
        r: u32,
        next: u32,
        palindromic: bool,
    ) -> Option<Key> {
        self.memo.as_ref()?;
        let saved = (self.walk.top, self.walk.above_bottom, self.walk.palindromic);
        let depth = self.walk.grid.len() + 1;
        self.walk.palindromic = palindromic;
        self.walk.grid.push(r);
        if self.walk.mirror {
            self.note_halves(depth, c);
        }
        let allowance = self.allowance(depth, c);
        let key = self
            .probe(m, c, next, allowance)
            .map(|(state, at, _)| (state, at));
        if let (Some((state, at)), Some(memo)) = (key, &self.memo) {
            memo.prefetch(state, at);
        }
        self.walk.grid.pop();
        (self.walk.top, self.walk.above_bottom, self.walk.palindromic) = saved;
        key
    }
}

/// Whether the final walk visits `grid` (rows of `width` cells; with `pruned` as in
/// [`Speedups::prune_images`], for at least 2 rows): its top `n / 2` rows hold at least as many black
/// cells as its bottom `n / 2`, and its first row that is not a palindrome is below its mirror
/// image. The walk visits every optimal grid that passes, each once.
#[must_use]
pub fn final_walk_visits(grid: &[u32], width: usize, pruned: bool) -> bool {
    let n = grid.len();
    if !pruned || n < 2 {
        return true;
    }
    let half = n / 2;
    let black = |rows: &[u32]| rows.iter().map(|r| r.count_ones()).sum::<u32>();
    let first_asymmetric = grid.iter().find_map(|&r| {
        let mirrored = mirror(r, width);
        (mirrored != r).then_some((r, mirrored))
    });
    black(&grid[..half]) >= black(&grid[n - half..])
        && first_asymmetric.is_none_or(|(r, mirrored)| r < mirrored)
}

/// A node's failure-table key: its packed state and situation.
type Key = (u64, Situation);

/// Candidates per prefetch batch in [`Search::each_row`].
const BATCH: usize = 8;

/// What a node's loop knows about its candidate rows.
struct Candidates {
    /// The forbidden mask of the row after the candidate, as a function of the candidate.
    chain: rows::Chain,
    /// Black cells in the rows placed so far.
    count: u32,
    /// The candidate's forbidden mask.
    f: u32,
    /// The most black cells the rows after the candidate can hold.
    rest: u32,
    /// The most black cells the candidate may hold (the bottom half's allowance).
    allowance: u32,
    /// The most black cells the rows after the candidate's child can hold, if it has any.
    child_rest: Option<u32>,
    /// Whether the candidate ends the top half of the final walk.
    ends_top: bool,
}

/// The verdict on one candidate row, in the candidates' order.
enum Admit {
    /// Neither this row nor any later one (they hold no more black cells) reaches the goal.
    Stop,
    /// This row cannot be placed or cannot reach the goal; later ones may.
    Skip,
    /// Place it: the forbidden mask of the row after it, and whether all rows are then
    /// palindromes.
    Child(u32, bool),
}

/// Table size for `n` columns: small grids keep a small table (it is zeroed lazily by the
/// allocator, but still touched), large ones get 2^23 slots (128 MiB).
fn memo_bits(n: usize) -> u32 {
    (n as u32 + 8).clamp(12, 23)
}
