//! The 50/50 influence of a cell: how likely it is that the cell is safe and that, left alone,
//! it would become half of a 50/50 that no number can resolve. Clicking such a cell now settles
//! that 50/50 before it forms, so its risk now is partly a risk the game would take later anyway.
//!
//! A pair of orthogonally adjacent hidden cells becomes a 50/50 when one of them is a mine and
//! all its *side* cells (those touching exactly one of the pair) are mines or off the board. A
//! 2x2 box does when its mines are one diagonal and the four cells diagonally beyond its corners
//! are mines or off the board. Only shapes with at most [`MOST_MISSING`] side cells still hidden
//! and none revealed are counted: the others are too unlikely to matter.

use crate::minesweeper::bot::calls::Calls;
use crate::minesweeper::bot::shapes::{boxes, partners, share_with_mines, touching_one};
use crate::minesweeper::{Analysis, Board, Cell, Pos};

/// The most hidden side cells (not known mines) a pair or a box may have to be counted.
pub const MOST_MISSING: usize = 3;

/// Counts the arrangements in which candidates form 50/50s, for one view.
pub struct Influence<'a> {
    view: &'a Board,
    /// Every cell's mine probability, row-major (0 if not hidden).
    probability: &'a [f64],
    ln_total: f64,
    /// The view, with cells flagged while counting.
    scratch: Board,
}

impl<'a> Influence<'a> {
    /// The counter for `view`, analysed as `analysis`, with `probability` its probability grid.
    pub fn new(view: &'a Board, analysis: &Analysis, probability: &'a [f64]) -> Influence<'a> {
        Influence {
            view,
            probability,
            ln_total: analysis.ln_arrangements,
            scratch: view.clone(),
        }
    }

    /// The share of the arrangements in which `cell` is safe and forms a 50/50: summed over
    /// the pairs that hold it, plus the largest over the 2x2 boxes that hold it, at most
    /// `min(p, 1 - p)` for its mine probability `p`. `calls` counts the analyzer calls.
    pub fn share(&mut self, cell: Pos, calls: &mut Calls) -> f64 {
        let grid = self.view.grid();
        let q = self.probability[grid.index(cell)];
        if q <= 0.0 || q >= 1.0 {
            return 0.0;
        }
        let pairs: f64 = partners(grid, cell)
            .map(|partner| self.pair(cell, partner, calls))
            .sum();
        let boxes = boxes(grid, cell)
            .map(|cells| self.square(cell, cells, calls))
            .fold(0.0, f64::max);
        (pairs + boxes).min(q.min(1.0 - q))
    }

    /// [`Influence::share`] without its cap, estimated without calling the analyzer: each
    /// shape's chance is the product of its cells' chances, as if they were independent.
    pub fn estimate(&self, cell: Pos) -> f64 {
        let grid = self.view.grid();
        let q = |c: Pos| self.probability[grid.index(c)];
        if !self.open(cell) {
            return 0.0;
        }
        let product = |mines: &[Pos]| mines.iter().map(|&c| q(c)).product::<f64>();
        let mut pairs = 0.0;
        for partner in partners(grid, cell) {
            let missing = self.missing(touching_one(grid, &[cell, partner]));
            if let (true, Some(mines)) = (self.open(partner), missing) {
                pairs += q(partner) * (1.0 - q(cell)) * product(&mines);
            }
        }
        let mut best_box = 0.0f64;
        for cells in boxes(grid, cell) {
            if !cells.iter().all(|&c| self.open(c)) {
                continue;
            }
            let Some(mines) = self.missing(touching_one(grid, &cells)) else {
                continue;
            };
            let chance = cells
                .iter()
                .map(|&c| {
                    if (c.x + c.y) % 2 == (cell.x + cell.y) % 2 {
                        1.0 - q(c)
                    } else {
                        q(c)
                    }
                })
                .product::<f64>();
            best_box = best_box.max(chance * product(&mines));
        }
        pairs + best_box
    }

    /// The share in which `partner` is the mine of the pair, `cell` is safe, and every side
    /// cell is a mine.
    fn pair(&mut self, cell: Pos, partner: Pos, calls: &mut Calls) -> f64 {
        if !self.open(partner) {
            return 0.0;
        }
        let Some(mut mines) = self.missing(touching_one(self.view.grid(), &[cell, partner])) else {
            return 0.0;
        };
        mines.push(partner);
        let with = self.count(&mines, calls);
        mines.push(cell);
        (with - self.count(&mines, calls)).max(0.0)
    }

    /// The share in which the box `cells` (row-major) holds the diagonal without `cell`, the
    /// diagonal with `cell` is safe, and the cells diagonally beyond its corners are mines.
    fn square(&mut self, cell: Pos, cells: [Pos; 4], calls: &mut Calls) -> f64 {
        if !cells.iter().all(|&c| self.open(c)) {
            return 0.0;
        }
        let Some(mut mines) = self.missing(touching_one(self.view.grid(), &cells)) else {
            return 0.0;
        };
        let at = cells.iter().position(|&c| c == cell).unwrap_or(0);
        // Row-major, the diagonals are cells 0 and 3, and 1 and 2.
        let opposite = cells[3 - at];
        let (a, b) = if at == 0 || at == 3 {
            (cells[1], cells[2])
        } else {
            (cells[0], cells[3])
        };
        mines.extend([a, b]);
        let base = mines.len();
        let mut total = 0.0;
        // `IntoIterator::into_iter`: the arrays are taken by value under every edition.
        let signed = [(vec![], 1.0), (vec![cell], -1.0), (vec![opposite], -1.0)];
        for (extra, sign) in IntoIterator::into_iter(signed).chain([(vec![cell, opposite], 1.0)]) {
            mines.truncate(base);
            mines.extend(extra);
            total += sign * self.count(&mines, calls);
        }
        total.max(0.0)
    }

    /// Whether `c` is hidden, unflagged, and neither proved safe nor a certain mine.
    fn open(&self, c: Pos) -> bool {
        let q = self.probability[self.view.index(c)];
        self.view.get(c) == Cell::Hidden && q > 0.0 && q < 1.0
    }

    /// The side cells among `sides` that must still become mines (hidden, not known mines), or
    /// `None` if the shape cannot become a 50/50 worth counting: a side cell is revealed or
    /// proved safe, or more than [`MOST_MISSING`] are missing.
    fn missing(&self, sides: impl Iterator<Item = Pos>) -> Option<Vec<Pos>> {
        let mut missing = Vec::with_capacity(MOST_MISSING + 3);
        for s in sides {
            match self.view.get(s) {
                Cell::Revealed(_) => return None,
                Cell::Flagged => {}
                Cell::Hidden => {
                    let q = self.probability[self.view.index(s)];
                    if q <= 0.0 {
                        return None;
                    }
                    if q < 1.0 {
                        missing.push(s);
                    }
                }
            }
        }
        (missing.len() <= MOST_MISSING).then_some(missing)
    }

    /// The share of the arrangements with mines on all of `cells` (0 if there is none).
    fn count(&mut self, cells: &[Pos], calls: &mut Calls) -> f64 {
        share_with_mines(&mut self.scratch, cells, self.ln_total, calls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minesweeper::analyze;
    use crate::minesweeper::bot::probabilities::probability_grid;

    /// The influence share of `cell` on the board `text`.
    fn share_on(text: &str, cell: Pos) -> f64 {
        let view = Board::parse(text).expect("a valid board");
        let analysis = analyze(&view).unwrap();
        let probability = probability_grid(&view, &analysis);
        Influence::new(&view, &analysis, &probability).share(cell, &mut Calls::default())
    }

    /// Every arrangement of the mines left over the hidden unflagged cells of `view` that agrees
    /// with its numbers, as a mine set per cell (row-major).
    fn arrangements(view: &Board) -> Vec<Vec<bool>> {
        let grid = view.grid();
        let hidden: Vec<Pos> = grid
            .positions()
            .filter(|&p| view.get(p) == Cell::Hidden)
            .collect();
        let left = view.mines() - view.flags();
        let mut found = Vec::new();
        for bits in 0u32..1 << hidden.len() {
            if bits.count_ones() as usize != left {
                continue;
            }
            let mut mine: Vec<bool> = grid
                .positions()
                .map(|p| view.get(p) == Cell::Flagged)
                .collect();
            for (i, &p) in hidden.iter().enumerate() {
                mine[grid.index(p)] = bits >> i & 1 == 1;
            }
            let agrees = grid.positions().all(|p| match view.get(p) {
                Cell::Revealed(n) => {
                    view.neighbours(p).filter(|&q| mine[grid.index(q)]).count() == n as usize
                }
                _ => true,
            });
            if agrees {
                found.push(mine);
            }
        }
        found
    }

    /// The share of `cell` by brute force, following [`Influence::share`]'s definition.
    fn brute_share(view: &Board, cell: Pos) -> f64 {
        let grid = view.grid();
        let all = arrangements(view);
        let total = all.len() as f64;
        let chance = |holds: &dyn Fn(&[bool]) -> bool| {
            all.iter().filter(|m| holds(m)).count() as f64 / total
        };
        let at = |p: Pos| grid.index(p);
        let q = chance(&|m| m[at(cell)]);
        if q == 0.0 || q == 1.0 {
            return 0.0;
        }
        // A shape counts when no side cell is revealed and at most MOST_MISSING are hidden
        // and not certain mines (flags and certain mines are not missing).
        let counted = |sides: &[Pos]| {
            let missing = sides
                .iter()
                .filter(|&&s| view.get(s) == Cell::Hidden && chance(&|m| m[at(s)]) < 1.0)
                .count();
            missing <= MOST_MISSING
        };
        let open = |c: Pos| {
            let p = chance(&|m| m[at(c)]);
            view.get(c) == Cell::Hidden && p > 0.0 && p < 1.0
        };
        let mut pairs = 0.0;
        for partner in partners(grid, cell) {
            let sides: Vec<Pos> = touching_one(grid, &[cell, partner]).collect();
            if open(partner) && counted(&sides) {
                pairs +=
                    chance(&|m| m[at(partner)] && !m[at(cell)] && sides.iter().all(|&s| m[at(s)]));
            }
        }
        let mut best_box = 0.0f64;
        for cells in boxes(grid, cell) {
            let sides: Vec<Pos> = touching_one(grid, &cells).collect();
            if !cells.iter().all(|&c| open(c)) || !counted(&sides) {
                continue;
            }
            let on_diagonal = |c: Pos| (c.x + c.y) % 2 == (cell.x + cell.y) % 2;
            best_box = best_box.max(chance(&|m| {
                cells.iter().all(|&c| m[at(c)] != on_diagonal(c)) && sides.iter().all(|&s| m[at(s)])
            }));
        }
        (pairs + best_box).min(q.min(1.0 - q))
    }

    #[test]
    fn the_share_matches_a_brute_force_count() {
        let boards = [
            "3x3x2\nHHH\nHHH\n011\n",
            "4x3x3\nHHHH\nHHHH\n1HH1\n",
            "4x4x4\nHHHH\nHHHH\nHH21\nHH10\n",
            "4x4x5\nHHHH\nHHFH\nHHH1\nHH10\n",
            "5x3x3\nHHHHH\nHHHHH\n01H10\n",
        ];
        let mut positive = 0;
        for text in boards {
            let view = Board::parse(text).expect("a valid board");
            assert!(!arrangements(&view).is_empty(), "{text}");
            let analysis = analyze(&view).unwrap();
            let probability = probability_grid(&view, &analysis);
            let mut influence = Influence::new(&view, &analysis, &probability);
            for cell in view.grid().positions() {
                let expected = brute_share(&view, cell);
                let got = influence.share(cell, &mut Calls::default());
                assert!(
                    (got - expected).abs() < 1e-9,
                    "{text} {cell:?}: {got} against {expected}"
                );
                positive += usize::from(expected > 0.0);
            }
        }
        // The boards exercise the count, not only the filters.
        assert!(positive >= 5, "{positive} cells with a share");
    }

    #[test]
    fn the_estimate_multiplies_independent_chances() {
        // No number: every cell has the same chance q = 2/9. The corner (0, 0) is in two pairs
        // with two side cells each, and in one box with one cell beyond its corners.
        let view = Board::parse("3x3x2\nHHH\nHHH\nHHH\n").unwrap();
        let analysis = analyze(&view).unwrap();
        let probability = probability_grid(&view, &analysis);
        let influence = Influence::new(&view, &analysis, &probability);
        let q: f64 = 2.0 / 9.0;
        let pairs = 2.0 * q * (1.0 - q) * q * q;
        let square = q * q * (1.0 - q) * (1.0 - q) * q;
        let got = influence.estimate(Pos::new(0, 0));
        assert!((got - (pairs + square)).abs() < 1e-9, "{got}");
        // Each of the centre's four pairs has three side cells on the board; the largest of its
        // four boxes (all alike) counts once.
        let centre = influence.estimate(Pos::new(1, 1));
        let centre_pairs = 4.0 * q * (1.0 - q) * q * q * q;
        assert!((centre - (centre_pairs + square)).abs() < 1e-9, "{centre}");
    }

    #[test]
    fn a_pair_with_a_revealed_side_never_counts() {
        // The pair (0, 0)-(1, 0) has the revealed (2, 1) beside it; no other shape holds (0, 0).
        let view = Board::parse("3x2x1\nHHH\n111\n").unwrap();
        assert_eq!(brute_share(&view, Pos::new(0, 0)), 0.0);
        assert_eq!(share_on("3x2x1\nHHH\n111\n", Pos::new(0, 0)), 0.0);
    }
}
