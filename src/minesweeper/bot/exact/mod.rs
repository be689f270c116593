//! The exact search that the endgame and region stages share: list every arrangement of the mines
//! over some hidden cells, then find the click that maximizes the chance of winning, by searching
//! every sequence of clicks and the numbers they may show.
//!
//! All arrangements of the remaining mines over the hidden cells are equally likely, so the chance
//! of an outcome is a ratio of arrangement counts. A click on cell `c` splits the arrangements in
//! which `c` is safe by the number `c` shows; the win chance of a set `S` of arrangements is 1 if
//! `|S| = 1`, else the best over clicks of `sum over groups g of |g| / |S| * win(g)`. The flood
//! fill of a zero is not modelled: the cells it opens are safe in every arrangement of the group,
//! so clicking them later costs nothing and the value is the same.

mod arrangements;
#[cfg(not(bundle_bin = "minesweeper-agent"))]
mod recall;
mod search;

pub use arrangements::{Region, MAX_CELLS};

use super::tolerance::LN_COUNT_SLACK;
use crate::minesweeper::Pos;

/// The default most arrangements the exact search considers.
pub const MAX_ARRANGEMENTS: usize = 128;

/// A click found by the exact search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactClick {
    /// The cell to click.
    pub cell: Pos,
    /// The chance of winning with best play after this click (within its region, for a region's
    /// click).
    pub win_chance: f64,
    /// The chance that the cell is a mine.
    pub mine_chance: f64,
}

/// Whether a count whose log is `ln_count` is at most `max`.
#[must_use]
pub fn within(ln_count: f64, max: usize) -> bool {
    ln_count <= (max as f64).ln() + LN_COUNT_SLACK
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_equal_to_the_limit_is_within_it() {
        assert!(within(4000f64.ln(), 4000));
        assert!(within(0.0, 1));
        assert!(!within(4001f64.ln(), 4000));
    }
}
