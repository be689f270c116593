//! The whole-board endgame: when few arrangements remain, the click that maximizes the exact
//! chance of winning (see [`crate::minesweeper::bot::exact`]).

use crate::minesweeper::bot::exact::{self, ExactClick, Region, MAX_CELLS};
use crate::minesweeper::{Analysis, Board, Cell, Pos};

/// The best click on the whole board, or `None` when the position has more than 128 hidden cells
/// or more than `max_arrangements` arrangements, or the search would take too long, or no click
/// tells anything (a single arrangement).
#[must_use]
pub fn best_click(view: &Board, max_arrangements: usize) -> Option<ExactClick> {
    let cells: Vec<Pos> = view
        .positions()
        .filter(|&p| view.get(p) == Cell::Hidden)
        .collect();
    if cells.len() > MAX_CELLS {
        return None;
    }
    let left = view.mines().checked_sub(view.flags())?;
    Region::new(view, cells, Some(left), max_arrangements)?.solve(max_arrangements)
}

/// The stage: the endgame's click and its mine probability, if at most `max` arrangements fit the
/// view (checked first on the analyzer's count, which costs nothing) and the search succeeds.
#[must_use]
pub fn guess(view: &Board, analysis: &Analysis, max: usize) -> Option<(Pos, f64)> {
    if !exact::within(analysis.ln_arrangements, max) {
        return None;
    }
    best_click(view, max).map(|c| (c.cell, c.mine_chance))
}
