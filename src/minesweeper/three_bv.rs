//! 3BV (Bechtel's Board Benchmark Value): the fewest clicks that clear a layout, without flags or
//! chords.
//!
//! Every opening (a connected area of zeros, with the numbers around it) takes one click, and
//! every safe cell that no opening reveals takes one click of its own.

use crate::minesweeper::game::Layout;
use crate::minesweeper::{Grid, Pos};

/// The 3BV of `layout`: its openings plus its safe cells that touch no zero.
///
/// # Complexity
/// Linear in the number of cells.
#[must_use]
pub fn three_bv(layout: &Layout) -> usize {
    let config = layout.config();
    let grid = Grid::new(config.width(), config.height()).expect("a config is at least 1x1");
    let zero = |p: Pos| !layout.is_mine(p) && layout.count(p) == 0;
    let mut reached = vec![false; grid.cells()];
    let mut clicks = 0;
    for start in grid.positions().filter(|&p| zero(p)) {
        if reached[grid.index(start)] {
            continue;
        }
        clicks += 1;
        reached[grid.index(start)] = true;
        let mut stack = vec![start];
        while let Some(p) = stack.pop() {
            for q in grid.neighbours(p) {
                let j = grid.index(q);
                if !reached[j] {
                    reached[j] = true;
                    if zero(q) {
                        stack.push(q);
                    }
                }
            }
        }
    }
    clicks
        + grid
            .positions()
            .filter(|&p| !layout.is_mine(p) && !reached[grid.index(p)])
            .count()
}
