//! Branch and bound, row by row, with Russian-doll bounds from smaller rectangles.

use super::rows;

/// The maximum and every optimal `n` x `n` grid (all images), for rows of `n` <= 16 cells.
pub struct Solver {
    n: usize,
    k: usize,
    /// Valid rows, most black first.
    rows: Vec<u32>,
    /// `best_row[f]`: the most black cells in a valid row avoiding mask `f`.
    best_row: Vec<u8>,
    /// `best[m]`: the exact maximum for an `m` x `n` rectangle, filled for `m` = 0, 1, ...
    best: Vec<u32>,
    grid: Vec<u32>,
}

impl Solver {
    /// Prepares the row tables. `n` must be in `1..=16` and `k >= 1`.
    #[must_use]
    pub fn new(n: usize, k: usize) -> Self {
        let k = k.min(n + 1);
        Solver {
            n,
            k,
            rows: rows::valid_rows(n, k),
            best_row: rows::best_row_table(n, k),
            best: vec![0],
            grid: Vec::with_capacity(n),
        }
    }

    /// The exact maxima of the `m` x `n` rectangles for `m` in `0..=n`.
    ///
    /// Each maximum is found by trying targets downward from the Russian-doll upper bound
    /// `min over j of best[j] + best[m - j]`; the first target that some rectangle reaches is it.
    pub fn maxima(&mut self) -> &[u32] {
        while self.best.len() <= self.n {
            let m = self.best.len();
            let upper = (1..m).map(|j| self.best[j] + self.best[m - j]).min();
            let upper = upper.unwrap_or(u32::from(self.best_row[0]));
            let mut target = upper;
            loop {
                self.grid.clear();
                if target <= self.best[m - 1] || self.reach(m, 0, target) {
                    break;
                }
                target -= 1;
            }
            self.best.push(target.max(self.best[m - 1]));
        }
        &self.best
    }

    /// Whether the rows placed so far extend to an `m`-row rectangle with `target` black cells.
    fn reach(&mut self, m: usize, count: u32, target: u32) -> bool {
        self.extend(m, count, target, &mut |_| true)
    }

    /// Calls `visit` on every optimal `n` x `n` grid, and returns the maximum.
    pub fn each_optimal(&mut self, visit: &mut dyn FnMut(&[u32])) -> u32 {
        self.maxima();
        let target = self.best[self.n];
        self.grid.clear();
        let n = self.n;
        self.extend(n, 0, target, &mut |grid| {
            visit(grid);
            false
        });
        target
    }

    /// Extends the rows placed so far (holding `count` black cells) to `m`-row rectangles with at
    /// least `target` black cells, most black rows first, and calls `stop` on each. Returns true as
    /// soon as `stop` does; the bound prunes with the rectangle maxima in `best`.
    fn extend(
        &mut self,
        m: usize,
        count: u32,
        target: u32,
        stop: &mut dyn FnMut(&[u32]) -> bool,
    ) -> bool {
        let depth = self.grid.len();
        if depth == m {
            return count >= target && stop(&self.grid);
        }
        let rest = self.best[m - depth - 1];
        let f = rows::forbidden(&self.grid, self.n, self.k);
        if count + u32::from(self.best_row[f as usize]) + rest < target {
            return false;
        }
        for i in 0..self.rows.len() {
            let r = self.rows[i];
            if count + r.count_ones() + rest < target {
                break;
            }
            if r & f == 0 {
                self.grid.push(r);
                let stopped = self.extend(m, count + r.count_ones(), target, stop);
                self.grid.pop();
                if stopped {
                    return true;
                }
            }
        }
        false
    }
}
