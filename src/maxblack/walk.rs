//! The walk row by row (its state, `Walk`, is the search's, in `search`): its cuts by the bounds
//! and the table of failures, the loop over a node's candidate rows (prefetching their table slots
//! in batches), and in the final walk the image pruning (the halves' counts and the palindromic
//! rows).

use super::memo_keys::Key;
use super::rows;
use super::search::Search;
use super::symmetry::mirror;

impl Search {
    /// Prepares a walk of the final grid from the rows `prefix` with the goal `goal`; returns the
    /// prefix's black cells and the next row's forbidden mask.
    pub(super) fn start_final(&mut self, prefix: &[u32], goal: u32) -> (u32, u32) {
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
    pub(super) fn note_halves(&mut self, depth: usize, count: u32) {
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
    pub(super) fn allowance(&self, depth: usize, count: u32) -> u32 {
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
    pub(super) fn extend(
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
}

/// Whether the final walk visits `grid` (rows of `width` cells; with `pruned` as in
/// [`Speedups::prune_images`](crate::maxblack::Speedups::prune_images), for at least 2 rows): its top `n / 2` rows hold at least as many black
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
