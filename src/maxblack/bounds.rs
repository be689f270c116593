//! The Russian-doll bounds: the exact maxima of the rectangles 1, 2, ... rows high, found first
//! (each by walks with a falling target from the bound the smaller ones give, or through its
//! transpose), and the bounds they put on the final grid.

#[cfg(not(bundle))]
use super::rectangles;
use super::rows;
use super::search::{Search, Stage};

impl Search {
    /// The exact maxima of the `m` x `n` rectangles for `m` in `0..=rows` (the final grid's
    /// maximum by a plain search).
    #[cfg(test)]
    pub fn maxima(&mut self) -> &[u32] {
        self.fill_maxima(self.rows);
        &self.best
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
    pub(in crate::maxblack) fn direct_max(&mut self, m: usize) -> u32 {
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
}
