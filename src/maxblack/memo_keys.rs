//! The keys of the table of failures ([`super::memo`]): what a node's future depends on,
//! packed, with the restriction of the final walk, and the prefetch of a child's slot.

use super::memo::Situation;
use super::search::Search;

/// The fewest rows still to place for a node to consult and feed the failure table; below it a
/// node's own work costs less than a table probe.
const MEMO_MIN_REMAINING: usize = 2;

/// A node's failure-table key: its packed state and situation.
pub(super) type Key = (u64, Situation);

impl Search {
    /// The failure-table key of the current node and the black cells the rest must add, or
    /// `None` when the node is too close to the bottom or already at its goal.
    ///
    /// The restriction of the final walk is part of the key: above the middle, the goal (which
    /// fixes the top half's quota); in the middle row of an odd grid, the top half's count; in
    /// the bottom half, the `allowance` left to it; with, in each case, whether the rows so far
    /// are all palindromes.
    pub(super) fn probe(
        &self,
        m: usize,
        count: u32,
        f: u32,
        allowance: u32,
    ) -> Option<(u64, Situation, u32)> {
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

    /// Prefetches the failure-table slot the child reached by placing `r` (with `c` black cells
    /// in all) will probe, by setting up the child's fields as it would and undoing them.
    ///
    /// Returns the child's key (as [`Search::probe`] gives it, without the `need`), valid while
    /// the goal stays where it is.
    pub(super) fn prefetch_child(
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
