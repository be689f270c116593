//! A uniformly random arrangement of the mines that agrees with a board: the layouts on which a
//! position can be played on, every consistent layout as likely as in a fresh game.
//!
//! The frontier's deductions and components are the analyzer's. The mine count of each component
//! is drawn in turn, weighted by its arrangements with that many mines times the ways to complete
//! the rest (the later components and the cells off the frontier); then one of the component's
//! group assignments with that count, weighted by its arrangements; then the cells of each group,
//! and the cells off the frontier, uniformly. Weights are kept as natural logs in `f64`: a draw is
//! exact up to the rounding of the weights (about 1e-15 relative), which no sample can detect.

use super::enumerate::{binomial, State};
use super::frontier::{mine_count, Component, Known, System};
use crate::minesweeper::board::{Board, Cell};
use crate::minesweeper::error::{Budget, Error, Inconsistency};

/// The most group assignments listed over the components of one board (a few tens of MB at most).
const MAX_ASSIGNMENTS: usize = 250_000;

/// The most steps of the draw of the components' mine counts (see [`count_steps`]), a fraction
/// of a second; the same bound keeps its tables (at most one entry per step) within 80 MB.
const MAX_COUNT_STEPS: usize = 10_000_000;

/// One way to put mines on a component's groups: `k[g]` mines in group `g`, `mines` in all,
/// realised in `exp(ln_ways)` ways.
struct Assignment {
    k: Vec<u8>,
    mines: usize,
    ln_ways: f64,
}

/// A source of uniform integers: `below(n)` is uniform in `0..n` (`n > 0`).
pub trait Below {
    /// A uniform integer in `0..n`.
    fn below(&mut self, n: u64) -> u64;
}

/// A uniformly random mine layout (row-major, `true` for a mine) among all that agree with
/// `board`, its flags counted as mines: every revealed number is the count of its mine neighbours,
/// and the board holds exactly its number of mines.
///
/// # Errors
/// [`Error::Inconsistent`] if no layout agrees; [`Error::TooComplex`] if the components have more
/// than 250,000 group assignments in all, or drawing their mine counts would take more than 10
/// million steps.
pub fn sample_mines(board: &Board, rng: &mut dyn Below) -> Result<Vec<bool>, Error> {
    let system = System::build(board)?;
    let frontier = frontier_cells(board, &system);
    let too_complex = |budget| Error::TooComplex {
        budget,
        frontier: frontier.iter().filter(|&&f| f).count(),
        components: system.components.len(),
    };
    if count_steps(&system) > MAX_COUNT_STEPS {
        return Err(too_complex(Budget::Combination));
    }
    let mut listed = 0;
    let mut lists = Vec::with_capacity(system.components.len());
    for c in &system.components {
        let list = assignments(c, system.mines_left, &mut listed)
            .ok_or_else(|| too_complex(Budget::Enumeration))?;
        if list.is_empty() {
            return Err(Inconsistency::Numbers {
                at: board.pos(c.at),
            }
            .into());
        }
        lists.push(list);
    }
    let counts = mine_counts(&system, &lists, rng).ok_or_else(|| mine_count(board))?;
    let mut mine: Vec<bool> = board.cells().iter().map(|&c| c == Cell::Flagged).collect();
    for (i, &k) in system.known.iter().enumerate() {
        mine[i] |= k == Known::Mine;
    }
    for ((comp, list), &m) in system.components.iter().zip(&lists).zip(&counts) {
        let fitting: Vec<&Assignment> = list.iter().filter(|a| a.mines == m).collect();
        let weights: Vec<f64> = fitting.iter().map(|a| a.ln_ways).collect();
        let chosen = fitting[draw(&weights, rng)];
        for (group, &k) in comp.groups.iter().zip(&chosen.k) {
            for i in choose(&group.cells, usize::from(k), rng) {
                mine[i] = true;
            }
        }
    }
    let off: Vec<usize> = (0..board.cells().len())
        .filter(|&i| system.known[i] == Known::Unknown && !frontier[i])
        .collect();
    let on_frontier: usize = counts.iter().sum();
    for i in choose(&off, system.mines_left - on_frontier, rng) {
        mine[i] = true;
    }
    Ok(mine)
}

/// The steps of [`mine_counts`]: per component and per count of mines left, one per count the
/// component can hold; and its tables' entries.
fn count_steps(system: &System) -> usize {
    let counts = system.mines_left.saturating_add(1);
    let per_component = system.components.iter().map(|c| {
        let cells: usize = c.groups.iter().map(|g| g.cells.len()).sum();
        counts.saturating_mul(cells + 2)
    });
    per_component.fold(counts, usize::saturating_add)
}

/// Per board cell: whether it is in a group of some component.
fn frontier_cells(board: &Board, system: &System) -> Vec<bool> {
    let mut on = vec![false; board.cells().len()];
    for g in system.components.iter().flat_map(|c| &c.groups) {
        for &i in &g.cells {
            on[i] = true;
        }
    }
    on
}

/// Every group assignment of `comp` with at most `cap` mines that meets its constraints; `None`
/// once `*listed` (the assignments listed so far over the board) passes [`MAX_ASSIGNMENTS`].
fn assignments(comp: &Component, cap: usize, listed: &mut usize) -> Option<Vec<Assignment>> {
    let mut walk = Walk {
        comp,
        state: State::new(comp),
        cap,
        k: vec![0; comp.groups.len()],
        out: Vec::new(),
        listed,
    };
    walk.go(0, 0, 0.0).then_some(walk.out)
}

/// The depth-first walk of [`assignments`] over the groups.
struct Walk<'a> {
    comp: &'a Component,
    state: State<'a>,
    cap: usize,
    k: Vec<u8>,
    out: Vec<Assignment>,
    listed: &'a mut usize,
}

impl Walk<'_> {
    /// Decides groups `g..`, with `mines` placed so far in `exp(ln_ways)` ways; false to stop.
    fn go(&mut self, g: usize, mines: usize, ln_ways: f64) -> bool {
        let Some(group) = self.comp.groups.get(g) else {
            *self.listed += 1;
            self.out.push(Assignment {
                k: self.k.clone(),
                mines,
                ln_ways,
            });
            return *self.listed <= MAX_ASSIGNMENTS;
        };
        let size = group.cells.len();
        let (lo, hi) = self.state.range(g, mines, self.cap);
        for k in lo..=hi {
            self.state.assign(g, k);
            self.k[g] = k as u8;
            let ways = ln_ways + (binomial(size, k) as f64).ln();
            let more = self.go(g + 1, mines + k, ways);
            self.state.unassign(g, k);
            if !more {
                return false;
            }
        }
        true
    }
}

/// The mines of each component, drawn in turn given the ones before; `None` if no count fits.
fn mine_counts(
    system: &System,
    lists: &[Vec<Assignment>],
    rng: &mut dyn Below,
) -> Option<Vec<usize>> {
    let left = system.mines_left;
    // ways[c][m]: ln of the arrangements of component c with m mines.
    let ways: Vec<Vec<f64>> = lists
        .iter()
        .map(|list| {
            let mut w = vec![f64::NEG_INFINITY; left + 1];
            for a in list {
                w[a.mines] = ln_add(w[a.mines], a.ln_ways);
            }
            w
        })
        .collect();
    // rest[c][r]: ln of the ways to place r mines on components c.. and the cells off the
    // frontier.
    let off = system.off;
    let mut rest = vec![vec![f64::NEG_INFINITY; left + 1]; lists.len() + 1];
    // ln C(off, r), each from the one before.
    let mut ln = 0.0;
    for (r, slot) in rest[lists.len()]
        .iter_mut()
        .enumerate()
        .take(left.min(off) + 1)
    {
        if r > 0 {
            ln += ((off - r + 1) as f64).ln() - (r as f64).ln();
        }
        *slot = ln;
    }
    for c in (0..lists.len()).rev() {
        let most = lists[c].iter().map(|a| a.mines).max().unwrap_or(0);
        for r in 0..=left {
            let mut s = f64::NEG_INFINITY;
            for m in 0..=r.min(most) {
                s = ln_add(s, ways[c][m] + rest[c + 1][r - m]);
            }
            rest[c][r] = s;
        }
    }
    if rest[0][left] == f64::NEG_INFINITY {
        return None;
    }
    let mut r = left;
    let mut counts = Vec::with_capacity(lists.len());
    for c in 0..lists.len() {
        let weights: Vec<f64> = (0..=r).map(|m| ways[c][m] + rest[c + 1][r - m]).collect();
        let m = draw(&weights, rng);
        counts.push(m);
        r -= m;
    }
    Some(counts)
}

/// `ln(exp(a) + exp(b))`, with `-inf` for zero.
fn ln_add(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    if lo == f64::NEG_INFINITY {
        return hi;
    }
    hi + (lo - hi).exp().ln_1p()
}

/// An index drawn with probability proportional to `exp(weights[i])` (at least one finite).
fn draw(weights: &[f64], rng: &mut dyn Below) -> usize {
    let top = weights.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let scaled: Vec<f64> = weights.iter().map(|&w| (w - top).exp()).collect();
    let total: f64 = scaled.iter().sum();
    let mut u = uniform(rng) * total;
    for (i, &s) in scaled.iter().enumerate() {
        if u < s {
            return i;
        }
        u -= s;
    }
    // Rounding left `u` just past the end: the last index with any weight.
    scaled
        .iter()
        .rposition(|&s| s > 0.0)
        .expect("a finite weight")
}

/// A uniform `f64` in `[0, 1)`, on 53 bits.
fn uniform(rng: &mut dyn Below) -> f64 {
    rng.below(1 << 53) as f64 / (1u64 << 53) as f64
}

/// `k` distinct entries of `cells` (with `k <= cells.len()`), drawn uniformly by a partial
/// Fisher-Yates shuffle from the front.
pub(crate) fn choose(cells: &[usize], k: usize, rng: &mut dyn Below) -> Vec<usize> {
    let mut pool = cells.to_vec();
    for i in 0..k {
        let j = i + rng.below((pool.len() - i) as u64) as usize;
        pool.swap(i, j);
    }
    pool.truncate(k);
    pool
}
