//! The final walk cut into units of work (the prefixes of its first rows) and parts of units
//! (their children, grandchildren...), each walked on its own, skipping the parts done and giving
//! up past a budget so that the caller can split it.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::checkpoint::Done;
use super::search::{Budget, Search, Track, MAX_DEPTH};

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

/// The nodes between two looks at the clock.
const TICKS: u64 = 4096;

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

impl Search {
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
    pub(super) fn track(&mut self, depth: usize) -> Option<bool> {
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
}
