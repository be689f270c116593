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
    /// Per component, per group: the (scaled) number of arrangements in which one given cell of
    /// the group is a mine.
    pub groups: Vec<Vec<Big>>,
    /// The (scaled) number of arrangements in which one given cell off the frontier is a mine,
    /// times `off` (divide by `total * off`).
    pub off_mines: Big,
}

/// `a * b` as polynomials in the mine count.
fn convolve(a: &[Big], b: &[Big]) -> Vec<Big> {
    let mut out = vec![Big::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        if x.is_zero() {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            out[i + j].add_product(x, y);
        }
    }
    out
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

/// Combines the tables. `None` if no arrangement of the whole board exists.
pub(crate) fn combine(tables: &[Table], off: usize, mines_left: usize) -> Option<Counts> {
    let k = tables.len();
    // prefix[i]: the convolution of tables 0..i; suffix[i]: of tables i..k.
    let mut prefix = vec![vec![Big::from_u64(1)]];
    for t in tables {
        let next = convolve(prefix.last().expect("starts non-empty"), &t.ways);
        prefix.push(next);
    }
    let mut suffix = vec![vec![Big::from_u64(1)]; k + 1];
    for i in (0..k).rev() {
        suffix[i] = convolve(&tables[i].ways, &suffix[i + 1]);
    }
    let all = &prefix[k];
    let weights = off_weights(off, mines_left, all.len())?;
    let mut total = Big::zero();
    let mut off_mines = Big::zero();
    for (m, (ways, w)) in all.iter().zip(&weights).enumerate() {
        total.add_product(ways, w);
        if m < mines_left {
            let mut t = Big::product(ways, w);
            t.mul_small((mines_left - m) as u64);
            off_mines.add_assign(&t);
        }
    }
    if total.is_zero() {
        return None;
    }
    let groups = tables
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let others = convolve(&prefix[i], &suffix[i + 1]);
            let rest: Vec<Big> = (0..t.ways.len())
                .map(|j| {
                    let mut s = Big::zero();
                    for (m, o) in others.iter().enumerate() {
                        s.add_product(o, &weights[j + m]);
                    }
                    s
                })
                .collect();
            t.mines_in
                .iter()
                .map(|counts| {
                    let mut s = Big::zero();
                    for (c, r) in counts.iter().zip(&rest) {
                        s.add_product(c, r);
                    }
                    s
                })
                .collect()
        })
        .collect();
    Some(Counts {
        total,
        groups,
        off_mines,
    })
}
