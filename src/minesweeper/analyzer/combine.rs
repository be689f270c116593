//! Combining the components' tables with the cells off the frontier, exactly.
//!
//! With `U` undecided cells off the frontier and `R` mines left, an arrangement with `m` mines on the
//! frontier extends in `C(U, R - m)` ways. Only ratios matter, so the binomials are replaced by
//! integers proportional to them (see [`off_weights`]): their size depends on the frontier, not on
//! the board, and no huge binomial is ever computed.

use super::big::Big;
use super::enumerate::Table;

/// The exact counts behind every probability, all over one common denominator `total` (the cells
/// off the frontier use `total * off`).
#[derive(Debug)]
pub(crate) struct Counts {
    /// The (scaled) number of arrangements of the whole board.
    pub total: Big,
    /// The natural log of the factor that `total` was divided by: the true number of arrangements
    /// is `total * exp(ln_scale)`.
    pub ln_scale: f64,
    /// Per component, per group: the (scaled) number of arrangements in which one given cell of
    /// the group is a mine.
    pub groups: Vec<Vec<Big>>,
    /// The (scaled) number of arrangements in which one given cell off the frontier is a mine,
    /// times `off` (divide by `total * off`).
    pub off_mines: Big,
}

/// `a * b` as polynomials in the mine count, cut after degree `cap`.
fn convolve(a: &[Big], b: &[Big], cap: usize) -> Vec<Big> {
    let len = (a.len() + b.len() - 1).min(cap + 1);
    let mut out = vec![Big::zero(); len];
    for (i, x) in a.iter().enumerate().take(len) {
        if x.is_zero() {
            continue;
        }
        for (j, y) in b.iter().enumerate().take(len - i) {
            out[i + j].add_product(x, y);
        }
    }
    out
}

/// The product of the tables' `ways`, cut after degree `cap`.
fn product(tables: &[Table], cap: usize) -> Vec<Big> {
    match tables {
        [] => vec![Big::from_u64(1)],
        [t] => t.ways.iter().take(cap + 1).cloned().collect(),
        _ => {
            let (left, right) = tables.split_at(tables.len() / 2);
            convolve(&product(left, cap), &product(right, cap), cap)
        }
    }
}

/// `out[j] = sum over a of poly[a] * h[j + a]`, for `j` in `0..len`.
fn correlate(poly: &[Big], h: &[Big], len: usize) -> Vec<Big> {
    (0..len)
        .map(|j| {
            let mut s = Big::zero();
            for (a, p) in poly.iter().enumerate() {
                if let Some(x) = h.get(j + a) {
                    s.add_product(p, x);
                }
            }
            s
        })
        .collect()
}

/// For every table `c`, `rest[c][j]`: the weighted number of ways to complete an arrangement with
/// `j` mines in component `c` (over the other components and the cells off the frontier).
///
/// `h[j]` is that for the tables together: `j` mines among them. Divide and conquer: the left half's
/// completions are the right half's product correlated with `h`, and the other way round, so the
/// work is `O(L^2 log K)` big-integer products and the memory `O(L log K)` for `K` tables and `L`
/// possible mine counts.
fn distribute(tables: &[Table], h: Vec<Big>, cap: usize, rest: &mut Vec<Vec<Big>>) {
    if tables.len() == 1 {
        rest.push(h);
        return;
    }
    let (left, right) = tables.split_at(tables.len() / 2);
    let (pl, pr) = (product(left, cap), product(right, cap));
    let hl = correlate(&pr, &h, pl.len());
    let hr = correlate(&pl, &h, pr.len());
    drop(h);
    distribute(left, hl, cap, rest);
    distribute(right, hr, cap, rest);
}

/// Integers proportional to `C(off, mines_left - m)` for `m` in `0..len` (zero where that many mines
/// can't fit off the frontier), or `None` if no `m` fits.
///
/// With `r` the mines off the frontier, in `lo..=hi`: `C(U, r) * D / C(U, lo)` with
/// `D = (lo+1)(lo+2)...(hi)` equals `(U-lo)...(U-r+1) * (r+1)...(hi)`, a product of at most
/// `hi - lo` factors up to `U`.
fn off_weights(off: usize, mines_left: usize, len: usize) -> Option<Vec<Big>> {
    let lo = mines_left.saturating_sub(len - 1);
    let hi = off.min(mines_left);
    if lo > hi {
        return None;
    }
    let n = hi - lo + 1;
    let mut prefix = vec![Big::from_u64(1); n];
    for k in 1..n {
        prefix[k] = prefix[k - 1].clone();
        prefix[k].mul_small((off - (lo + k - 1)) as u64);
    }
    let mut suffix = vec![Big::from_u64(1); n];
    for k in (0..n - 1).rev() {
        suffix[k] = suffix[k + 1].clone();
        suffix[k].mul_small((lo + k + 1) as u64);
    }
    let mut weights = vec![Big::zero(); len];
    for (m, w) in weights.iter_mut().enumerate() {
        if let Some(r) = mines_left.checked_sub(m).filter(|r| (lo..=hi).contains(r)) {
            *w = Big::product(&prefix[r - lo], &suffix[r - lo]);
        }
    }
    Some(weights)
}

/// The largest [`combine_cost`] accepted: about 4 s on the 2-core development machine (measured:
/// cost 1.3e12 took 0.2 s, 1.6e13 took 2.1 s).
pub(crate) const COMBINE_BUDGET: f64 = 3e13;

/// A pessimistic estimate of the 64-bit limb multiplications [`combine`] makes: `L` mine counts,
/// counts of at most `frontier + 20 L` bits (the tables' counts are below `2^frontier`, the
/// off-frontier weights are products of `L` factors below 2^20), `L^2` products of such counts per
/// level of the divide and conquer over the tables.
pub(crate) fn combine_cost(tables: &[Table], frontier: usize, mines_left: usize) -> f64 {
    let spread: usize = tables.iter().map(|t| t.ways.len() - 1).sum();
    let l = (spread.min(mines_left) + 1) as f64;
    let limbs = (frontier as f64 + 20.0 * l) / 64.0 + 1.0;
    let levels = (tables.len().max(1) as f64).log2().ceil() + 2.0;
    l * l * limbs * limbs * levels
}

/// `ln(C(off, lo) / ((lo+1)(lo+2)...(hi)))`, with `lo` and `hi` as in [`off_weights`]: the
/// weights times its exponential are the binomials `C(off, mines_left - m)`.
fn ln_off_scale(off: usize, mines_left: usize, len: usize) -> f64 {
    let lo = mines_left.saturating_sub(len - 1);
    let hi = off.min(mines_left);
    let ln_binomial: f64 = (0..lo)
        .map(|i| ((off - i) as f64).ln() - ((i + 1) as f64).ln())
        .sum();
    let ln_d: f64 = (lo + 1..=hi).map(|i| (i as f64).ln()).sum();
    ln_binomial - ln_d
}

/// The (scaled) number of arrangements: `all[m]` frontier arrangements with `m` mines, each
/// completed in `weights[m]` (scaled) ways off the frontier.
fn weighted_total(all: &[Big], weights: &[Big]) -> Big {
    let mut total = Big::zero();
    for (ways, w) in all.iter().zip(weights) {
        total.add_product(ways, w);
    }
    total
}

/// The (scaled) number of arrangements of the whole board and the log of its scale, as
/// [`Counts::total`] and [`Counts::ln_scale`] (the same values: [`combine`] counts them the same
/// way), without the per-cell counts. `None` if no arrangement of the whole board exists.
pub(crate) fn count(tables: &[Table], off: usize, mines_left: usize) -> Option<(Big, f64)> {
    let all = product(tables, mines_left);
    let weights = off_weights(off, mines_left, all.len())?;
    let total = weighted_total(&all, &weights);
    if total.is_zero() {
        return None;
    }
    Some((total, ln_off_scale(off, mines_left, all.len())))
}

/// Combines the tables. `None` if no arrangement of the whole board exists.
pub(crate) fn combine(tables: &[Table], off: usize, mines_left: usize) -> Option<Counts> {
    let all = product(tables, mines_left);
    let weights = off_weights(off, mines_left, all.len())?;
    let total = weighted_total(&all, &weights);
    let mut off_mines = Big::zero();
    for (m, (ways, w)) in all.iter().zip(&weights).enumerate() {
        if m < mines_left {
            let mut t = Big::product(ways, w);
            t.mul_small((mines_left - m) as u64);
            off_mines.add_assign(&t);
        }
    }
    if total.is_zero() {
        return None;
    }
    let all_len = all.len();
    drop(all);
    let mut rest = Vec::with_capacity(tables.len());
    if !tables.is_empty() {
        distribute(tables, weights, mines_left, &mut rest);
    }
    let groups = tables
        .iter()
        .zip(&rest)
        .map(|(t, r)| {
            t.mines_in
                .iter()
                .map(|counts| {
                    let mut s = Big::zero();
                    for (c, x) in counts.iter().zip(r) {
                        s.add_product(c, x);
                    }
                    s
                })
                .collect()
        })
        .collect();
    let ln_scale = ln_off_scale(off, mines_left, all_len);
    Some(Counts {
        total,
        ln_scale,
        groups,
        off_mines,
    })
}
