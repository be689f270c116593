//! Counting the optimal grids without visiting them one by one, once the maximum is known.
//!
//! - **The total**: a walk row by row that counts, for each state (the last `K - 1` rows, which
//!   are all the next rows depend on), the rows still to place and the black cells still needed,
//!   how many ways there are to finish, and remembers it: a state reached again is counted once.
//! - **The orbits**, by Burnside's lemma: the number of orbits is the average over the group of
//!   the number of optimal grids each symmetry fixes. A grid fixed by the upside-down mirror or by
//!   the half turn is its top half and the half's image, so the same counting walk goes over the
//!   top half only, each row counting twice (the middle row of an odd grid once), and checks at
//!   the bottom that the half and its image join without a run of K. A grid fixed by the
//!   left-right mirror has palindromic rows. The four symmetries of a square that transpose fix
//!   few grids: those are visited, each row's cells already fixed by the rows above.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::rows;
use super::search::{Search, Tables};
use super::symmetry::{self, mirror};

/// The most states the counting walks remember (about 100 MB).
const MAX_STATES: usize = 1 << 21;

/// The most nodes the counting walks visit in all: past it (or past [`MAX_STATES`]) counting by
/// states is given up, and the caller counts by visiting the grids. A count of work, not a
/// clock, so the choice is the same on every machine: about 5 s for K = 2, whose optimal grids
/// are many and alike (states pay off), 0.5 s for larger K (visiting is usually faster there).
fn max_nodes(k: usize) -> u64 {
    if k == 2 {
        100_000_000
    } else {
        10_000_000
    }
}

/// Whether the counting walk's state (the last `K - 1` rows) fits its key.
#[must_use]
pub fn fits(search: &Search) -> bool {
    let t = search.tables();
    (t.k - 1) * t.n <= 128
}

/// The number of orbits and the total number of grids with `max` black cells (the maximum), for
/// the search's grid (`square`: whether its group has 8 symmetries), or `None` if that takes more
/// than a budget of work (about two seconds) or memory.
///
/// # Panics
/// If the state does not fit ([`fits`]).
#[must_use]
pub fn optimal(search: &Search, square: bool, max: u32) -> Option<(u128, u128)> {
    let t = search.tables();
    let best = search.known_maxima();
    let rows = search.rows();
    let mut nodes = 0;
    let mut walk = |height, double_until, rows_kind, finish| {
        let mut c = Counter {
            t: &t,
            best,
            height,
            double_until,
            rows_kind,
            finish,
            full_rows: rows,
            grid: Vec::with_capacity(rows),
            memo: HashMap::default(),
            nodes,
        };
        let ways = c.count(max);
        nodes = c.nodes;
        (nodes <= max_nodes(t.k)).then_some(ways)
    };
    let half = rows.div_ceil(2);
    // Rows above the middle count twice; so does the middle row when the grid is even.
    let doubled = rows / 2;
    let total = walk(rows, 0, Rows::Any, Finish::None);
    let upside_down = walk(half, doubled, Rows::Any, Finish::Mirror { turn: false });
    let left_right = walk(rows, 0, Rows::Palindromes, Finish::None);
    let middle = if rows % 2 == 1 {
        Rows::PalindromeAt(half - 1)
    } else {
        Rows::Any
    };
    let half_turn = walk(half, doubled, middle, Finish::Mirror { turn: true });
    let mut fixed = total? + upside_down? + left_right? + half_turn?;
    if square {
        // The two diagonal mirrors fix as many grids (a grid fixed by one, read right to left, is
        // fixed by the other), counted by states over the upper triangle; the two quarter
        // turns are each other's inverses: they fix the same grids.
        // Past its own budget (a large K makes many states), the triangle gives way to visits.
        let mut triangle_nodes = 0;
        let diagonal = fixed_by_transpose(&t, best, rows, max, &mut triangle_nodes)
            .or_else(|| fixed_by_transposing(&t, best, rows, max, 4, &mut nodes))?;
        fixed += 2 * diagonal + 2 * fixed_by_transposing(&t, best, rows, max, 5, &mut nodes)?;
    }
    let group: u128 = if square { 8 } else { 4 };
    debug_assert_eq!(fixed % group, 0, "Burnside's sum {fixed} over {group}");
    Some((fixed / group, total?))
}

/// A fast hash for the counting walk's keys (the standard one is built to resist attacks, which
/// a walk over its own states has no need of).
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(26) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_u128(&mut self, v: u128) {
        self.write_u64(v as u64);
        self.write_u64((v >> 64) as u64);
    }

    fn finish(&self) -> u64 {
        self.0 ^ self.0 >> 31
    }
}

/// Which rows the counting walk may place.
#[derive(Clone, Copy)]
enum Rows {
    Any,
    /// Only palindromes.
    Palindromes,
    /// Only a palindrome at this depth.
    PalindromeAt(usize),
}

/// What the counting walk checks when its rows are placed.
#[derive(Clone, Copy)]
enum Finish {
    /// Nothing: the grid is complete.
    None,
    /// The rows are the top half of a grid whose bottom half is their upside-down image (each row
    /// also read right to left if `turn`): the whole grid must have no run of K.
    Mirror { turn: bool },
}

/// One counting walk (see the module's comment).
struct Counter<'a> {
    t: &'a Tables,
    /// Exact maxima of the rectangles `m` rows high, full width.
    best: &'a [u32],
    /// The rows this walk places.
    height: usize,
    /// Rows above this depth count twice.
    double_until: usize,
    rows_kind: Rows,
    finish: Finish,
    /// The rows of the whole grid.
    full_rows: usize,
    grid: Vec<u32>,
    /// `(state, remaining | held << 5 | need << 10)` to the number of ways to finish.
    memo: HashMap<(u128, u32), u128, BuildHasherDefault<Mix>>,
    /// Nodes visited by this walk and those before; past [`max_nodes`] the walk gives up.
    nodes: u64,
}

impl Counter<'_> {
    /// The ways to finish the rows placed so far with `need` more black cells, counting double
    /// above `double_until`.
    fn count(&mut self, need: u32) -> u128 {
        let depth = self.grid.len();
        if depth == self.height {
            return u128::from(need == 0 && self.finished());
        }
        self.nodes += 1;
        if self.nodes > max_nodes(self.t.k) {
            return 0;
        }
        let (n, k) = (self.t.n, self.t.k);
        let f = rows::forbidden(&self.grid, n, k);
        let double_until = self.double_until;
        let weight = |d: usize| if d < double_until { 2 } else { 1 };
        let rest = self.best[self.height - depth - 1];
        if need > weight(depth) * (u32::from(self.t.best_row[f as usize]) + rest) {
            return 0;
        }
        let held = depth.min(k - 1);
        let state = self.grid[depth - held..]
            .iter()
            .fold(0u128, |s, &r| s << n | u128::from(r));
        let key = (
            state,
            (self.height - depth) as u32 | (held as u32) << 5 | need << 10,
        );
        if let Some(&ways) = self.memo.get(&key) {
            return ways;
        }
        let mut ways = 0;
        let range = self.t.compatible.range(f);
        for i in range {
            let r = self.t.compatible.row(i);
            let c = weight(depth) * r.count_ones();
            if c > need || r & f != 0 || !self.allowed(depth, r) {
                continue;
            }
            if need - c > weight(depth + 1) * rest {
                // The rows are sorted most black first: the next ones leave even more to find.
                break;
            }
            self.grid.push(r);
            ways += self.count(need - c);
            self.grid.pop();
        }
        if self.memo.len() < MAX_STATES {
            self.memo.insert(key, ways);
        } else {
            // Past the memory allowed, counting by states would cost more than visiting.
            self.nodes = max_nodes(self.t.k) + 1;
        }
        ways
    }

    /// Whether row `r` may be placed at `depth`.
    fn allowed(&self, depth: usize, r: u32) -> bool {
        match self.rows_kind {
            Rows::Any => true,
            Rows::Palindromes => mirror(r, self.t.n) == r,
            Rows::PalindromeAt(d) => d != depth || mirror(r, self.t.n) == r,
        }
    }

    /// The check at the bottom of the walk. For a mirrored half, it depends on the last `K - 1`
    /// rows only: a run of K that crosses the middle lies within them and their images (one
    /// that reaches further down is the image of one higher up, which the walk checked).
    fn finished(&self) -> bool {
        let Finish::Mirror { turn } = self.finish else {
            return true;
        };
        let n = self.t.n;
        let mut full = self.grid.clone();
        for i in self.height..self.full_rows {
            let r = full[self.full_rows - 1 - i];
            full.push(if turn { mirror(r, n) } else { r });
        }
        (self.height..self.full_rows)
            .all(|i| rows::forbidden(&full[..i], n, self.t.k) & full[i] == 0)
    }
}

/// The grids with `max` black cells that symmetry `s` (one that transposes: 4 to 7) of a square
/// of `n` rows fixes, visited one by one: each row's cells that the symmetry maps to a row above
/// are fixed by it. `None` once `nodes` passes [`max_nodes`].
fn fixed_by_transposing(
    t: &Tables,
    best: &[u32],
    n: usize,
    max: u32,
    s: usize,
    nodes: &mut u64,
) -> Option<u128> {
    // `from[i]`: for each cell of row i, a cell of a row above in its orbit, if any.
    let from: Vec<Vec<(usize, usize, usize)>> = (0..n)
        .map(|i| {
            (0..n)
                .filter_map(|j| {
                    let mut p = (i, j);
                    loop {
                        p = image_of_cell(p, n, s);
                        if p == (i, j) {
                            return None;
                        }
                        if p.0 < i {
                            return Some((j, p.0, p.1));
                        }
                    }
                })
                .collect()
        })
        .collect();
    let mut grid = Vec::with_capacity(n);
    let mut ways = 0;
    visit_fixed(t, best, &from, &mut grid, 0, max, nodes, &mut |g| {
        if symmetry::image(g, n, s) == g {
            ways += 1;
        }
    });
    (*nodes <= max_nodes(t.k)).then_some(ways)
}

/// The grids with `max` black cells that the transpose fixes, on a square of side `n` (the rows
/// of `t`), counted by states: such a grid is its upper triangle, row `i` of which is the cells
/// `(i, j)` for `j >= i` (bit `j`), and every line of K cells lies within K consecutive rows of
/// the triangle. So the triangle is placed from its bottom row up, the state being the last
/// `K - 1` rows placed, with for each state the number of ways by black cells so far (a cell off
/// the diagonal counts twice). A line whose cells all lie in the rows placed, and that meets row
/// `i`, is checked when row `i` is placed: a line from row `i` downwards, or in row `i` (every
/// other line is the mirror image of one of these). `None` past [`max_nodes`] or
/// [`MAX_STATES`], or if K - 1 rows do not fit the state.
fn fixed_by_transpose(
    t: &Tables,
    best: &[u32],
    n: usize,
    max: u32,
    nodes: &mut u64,
) -> Option<u128> {
    let k = t.k;
    if (k - 1) * n > 128 {
        return None;
    }
    let pack = |rows: &[u32]| rows.iter().fold(0u128, |s, &r| s << n | u128::from(r));
    let mask = (1u128 << n) - 1;
    // The rows placed (the triangle's rows i + 1, ..., at most K - 1 of them, nearest first) to
    // the number of ways by black cells.
    let mut layer: HashMap<u128, Vec<u128>, BuildHasherDefault<Mix>> = HashMap::default();
    layer.insert(0, vec![1]);
    let mut below = Vec::with_capacity(k);
    for i in (0..n).rev() {
        let held = (n - 1 - i).min(k - 1);
        let mut next: HashMap<u128, Vec<u128>, BuildHasherDefault<Mix>> = HashMap::default();
        for (&state, ways) in &layer {
            below.clear();
            below.extend((0..held).map(|d| (state >> (n * (held - 1 - d)) & mask) as u32));
            // The cells of row i that the triangle's rows below forbid whatever row i is (read
            // upside down, the rows below are rows above; the lines are the same), and the
            // cells left of the triangle: a first filter, before the exact check.
            let far_first: Vec<u32> = below.iter().rev().copied().collect();
            let f = rows::forbidden(&far_first, n, k) | ((1u32 << i) - 1);
            for index in t.compatible.range(f) {
                let r = t.compatible.row(index);
                if r & f != 0 {
                    continue;
                }
                *nodes += 1;
                if *nodes > max_nodes(k) {
                    return None;
                }
                if !triangle_row_fits(r, &below, i, n, k) {
                    continue;
                }
                let c = (r >> i & 1) + 2 * (r >> i >> 1).count_ones();
                let mut rows = vec![r];
                rows.extend_from_slice(&below[..held.min(k.saturating_sub(2))]);
                let entry = next.entry(pack(&rows)).or_default();
                for (w, &count) in ways.iter().enumerate() {
                    let w = w as u32 + c;
                    // The rows above and the columns left of the square placed hold at most
                    // two rectangles of i rows.
                    if count == 0 || w > max || w + 2 * best[i] < max {
                        continue;
                    }
                    if entry.len() <= w as usize {
                        entry.resize(w as usize + 1, 0);
                    }
                    entry[w as usize] += count;
                }
            }
        }
        next.retain(|_, ways| !ways.is_empty());
        if next.len() > MAX_STATES {
            return None;
        }
        layer = next;
    }
    Some(
        layer
            .values()
            .map(|ways| ways.get(max as usize).copied().unwrap_or(0))
            .sum(),
    )
}

/// Whether row `r` of the triangle (bits `i..n`) fits above the rows `below` (rows `i + 1, ...`
/// of the triangle): no line of `k` black cells from row `i` down within the square `i..n`, whose
/// row `i + d` holds the triangle's row `i + d` and, left of it, the cells of the rows above it
/// in column `i + d`. Row `r` itself has no run of `k`.
fn triangle_row_fits(r: u32, below: &[u32], i: usize, n: usize, k: usize) -> bool {
    if i + k > n {
        return true;
    }
    let triangle = |d: usize| if d == 0 { r } else { below[d - 1] };
    let (mut down, mut right, mut left) = (r, r, r);
    for d in 1..k {
        let mut row = below[d - 1];
        for e in 0..d {
            row |= (triangle(e) >> (i + d) & 1) << (i + e);
        }
        down &= row;
        right &= row >> d;
        left &= row << d;
    }
    down == 0 && right == 0 && left == 0
}

/// Where symmetry `s` sends cell `(i, j)` of a square of side `n` (as [`symmetry::image`]).
fn image_of_cell((i, j): (usize, usize), n: usize, s: usize) -> (usize, usize) {
    let (a, b) = if s & 4 != 0 { (j, i) } else { (i, j) };
    let a = if s & 1 != 0 { n - 1 - a } else { a };
    let b = if s & 2 != 0 { n - 1 - b } else { b };
    (a, b)
}

/// Calls `leaf` on every valid grid with `max` black cells whose rows respect `from` (see
/// [`fixed_by_transposing`]), extending `grid` holding `count`, counting its nodes in `nodes`
/// (it stops past [`max_nodes`]).
#[allow(clippy::too_many_arguments)]
fn visit_fixed(
    t: &Tables,
    best: &[u32],
    from: &[Vec<(usize, usize, usize)>],
    grid: &mut Vec<u32>,
    count: u32,
    max: u32,
    nodes: &mut u64,
    leaf: &mut dyn FnMut(&[u32]),
) {
    let depth = grid.len();
    let n = from.len();
    if depth == n {
        if count == max {
            leaf(grid);
        }
        return;
    }
    *nodes += 1;
    if *nodes > max_nodes(t.k) {
        return;
    }
    let f = rows::forbidden(grid, t.n, t.k);
    let rest = best[n - depth - 1];
    if count + u32::from(t.best_row[f as usize]) + rest < max {
        return;
    }
    let (mut mask, mut value) = (0u32, 0u32);
    for &(j, a, b) in &from[depth] {
        mask |= 1 << j;
        value |= (grid[a] >> b & 1) << j;
    }
    for i in t.compatible.range(f) {
        let r = t.compatible.row(i);
        let c = count + r.count_ones();
        if c + rest < max {
            break;
        }
        if c > max || r & f != 0 || r & mask != value {
            continue;
        }
        grid.push(r);
        visit_fixed(t, best, from, grid, c, max, nodes, leaf);
        grid.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maxblack::search::Speedups;

    /// The grids fixed by either diagonal mirror, counted by states over the triangle, number as
    /// many as those visited one by one, on every square up to 10 and K up to 5 where both finish
    /// within their budgets, at the maximum and (up to 7) one below it.
    #[test]
    #[ignore = "slow tier: cargo test -- --ignored"]
    fn triangle_counts_match_the_visits() {
        let mut compared = 0;
        for n in 1..=10 {
            for k in 2..=(n + 1).min(5) {
                let mut search = Search::new(n, n, k, Speedups::ALL);
                let max = search.maximum();
                let t = search.tables();
                let best = search.known_maxima().to_vec();
                let lowest = if n <= 7 { max.saturating_sub(1) } else { max };
                for goal in lowest..=max {
                    let mut nodes = 0;
                    let Some(by_states) = fixed_by_transpose(&t, &best, n, goal, &mut nodes) else {
                        continue;
                    };
                    for s in [4, 7] {
                        let mut nodes = 0;
                        if let Some(visited) =
                            fixed_by_transposing(&t, &best, n, goal, s, &mut nodes)
                        {
                            assert_eq!(by_states, visited, "n={n} k={k} goal={goal} s={s}");
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert!(compared > 50, "{compared}");
    }
}
