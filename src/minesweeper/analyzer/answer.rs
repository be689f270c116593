//! The printed answer: exact probabilities rounded to 6 decimals.

use std::fmt;

use super::analysis::ExactAnalysis;
use super::big::Big;
use crate::minesweeper::board::Board;
use crate::minesweeper::grid::Pos;

/// `num / den` rounded to 6 decimals, half up (an exact tie rounds away from zero), as `0.xxxxxx`
/// or `1.000000`. Exact: computed on the integers, never through a float.
///
/// # Panics
/// If `den` is zero or `num > den`.
#[must_use]
pub fn round6(num: &Big, den: &Big) -> String {
    const SCALE: u64 = 1_000_000;
    assert!(
        num <= den && !den.is_zero(),
        "a probability is a ratio in [0, 1]"
    );
    let mut scaled = num.clone();
    scaled.mul_small(SCALE);
    // q = floor(num * 10^6 / den), in 0..=10^6: the largest q with den * q <= num * 10^6.
    let (mut lo, mut hi) = (0u64, SCALE);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        let mut t = den.clone();
        t.mul_small(mid);
        if t <= scaled {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let mut rest = den.clone();
    rest.mul_small(lo);
    scaled.sub_assign(&rest);
    scaled.mul_small(2);
    let q = if scaled >= *den { lo + 1 } else { lo };
    format!("{}.{:06}", q / SCALE, q % SCALE)
}

/// What the `minesweeper` solver prints: its [`Display`](fmt::Display) is exactly the output.
///
/// ```text
/// safe <k>
/// <x> <y>          per safe hidden cell
/// mines <m>
/// <x> <y>          per certain mine among the hidden unflagged cells
/// best <x> <y> <p> the recommended click (see Analysis::best), or "best none"
/// cells <n>
/// <x> <y> <p>      per hidden unflagged cell, p its exact mine probability rounded to 6 decimals
/// ```
/// Every list is row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    safe: Vec<Pos>,
    mines: Vec<Pos>,
    /// The recommended click: an index into `cells`.
    best: Option<usize>,
    /// Every hidden unflagged cell, row-major, with the index of its text in `texts`.
    cells: Vec<(Pos, usize)>,
    /// The rounded probabilities, one per distinct ratio (empty for a ratio no cell has).
    texts: Vec<String>,
}

impl Answer {
    /// The answer for `board`, analysed as `exact`.
    #[must_use]
    pub fn new(board: &Board, exact: &ExactAnalysis) -> Answer {
        // Rounded once per distinct ratio: on a big board most cells share the off-frontier one.
        let mut texts: Vec<Option<String>> = vec![None; exact.ratio_count()];
        let cells: Vec<(Pos, usize)> = exact
            .cells_with_ids()
            .map(|(p, id, n, d)| {
                texts[id].get_or_insert_with(|| round6(n, d));
                (p, id)
            })
            .collect();
        let best = exact.best(board).map(|(p, _)| {
            cells
                .binary_search_by_key(&p, |&(q, _)| q)
                .expect("the best cell is a hidden cell")
        });
        Answer {
            safe: exact.safe().collect(),
            mines: exact.mines().collect(),
            best,
            cells,
            texts: texts.into_iter().map(Option::unwrap_or_default).collect(),
        }
    }

    /// The safe hidden cells.
    #[must_use]
    pub fn safe(&self) -> &[Pos] {
        &self.safe
    }

    /// The certain mines among the hidden unflagged cells.
    #[must_use]
    pub fn mines(&self) -> &[Pos] {
        &self.mines
    }

    /// The recommended click with its printed probability; `None` if no hidden unflagged cell can
    /// be safe.
    #[must_use]
    pub fn best(&self) -> Option<(Pos, &str)> {
        self.best.map(|i| self.cell(i))
    }

    /// Every hidden unflagged cell with its printed probability.
    pub fn cells(&self) -> impl Iterator<Item = (Pos, &str)> + '_ {
        (0..self.cells.len()).map(move |i| self.cell(i))
    }

    fn cell(&self, i: usize) -> (Pos, &str) {
        let (p, id) = self.cells[i];
        (p, &self.texts[id])
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_list(f, "safe", &self.safe)?;
        write_list(f, "mines", &self.mines)?;
        match self.best() {
            Some((p, text)) => writeln!(f, "best {} {} {text}", p.x, p.y)?,
            None => writeln!(f, "best none")?,
        }
        writeln!(f, "cells {}", self.cells.len())?;
        for (p, text) in self.cells() {
            writeln!(f, "{} {} {text}", p.x, p.y)?;
        }
        Ok(())
    }
}

/// Writes `x y` per position, after a `<label> <count>` line.
fn write_list(f: &mut fmt::Formatter<'_>, label: &str, cells: &[Pos]) -> fmt::Result {
    writeln!(f, "{label} {}", cells.len())?;
    for p in cells {
        writeln!(f, "{} {}", p.x, p.y)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: u64, d: u64) -> String {
        round6(&Big::from_u64(n), &Big::from_u64(d))
    }

    #[test]
    fn rounds_half_up_exactly() {
        assert_eq!(r(0, 5), "0.000000");
        assert_eq!(r(5, 5), "1.000000");
        assert_eq!(r(1, 3), "0.333333");
        assert_eq!(r(2, 3), "0.666667");
        assert_eq!(r(1, 2_000_000), "0.000001");
        assert_eq!(r(1, 2_000_001), "0.000000");
        assert_eq!(r(3, 2_000_000), "0.000002");
        assert_eq!(r(1_999_999, 2_000_000), "1.000000");
        assert_eq!(r(1_999_998, 2_000_000), "0.999999");
        assert_eq!(r(1, 8), "0.125000");
    }
}
