//! The arrangements of the mines over a closed set of hidden cells.

use crate::minesweeper::{Board, Cell, Pos};

/// The most hidden cells a [`Region`] holds (an arrangement is a [`Mask`] over them).
pub const MAX_CELLS: usize = 128;

/// A set of a region's cells: bit `i` for `cells[i]`.
pub type Mask = u128;

/// The most enumeration steps per allowed arrangement before it gives up.
const STEPS_PER_ARRANGEMENT: usize = 2_000;

/// Some hidden cells and their arrangements.
///
/// Invariants: `cells` are hidden, unflagged cells, row-major, and no revealed number touches both
/// one of them and a hidden cell outside; every arrangement has bit `i` set when `cells[i]` is a
/// mine and fits every revealed number; `around[i]` is the bit set of `cells[i]`'s hidden
/// neighbours (all among `cells`).
pub struct Region {
    pub cells: Vec<Pos>,
    pub around: Vec<Mask>,
    pub arrangements: Vec<Mask>,
}

impl Region {
    /// The arrangements of `cells` (at most [`MAX_CELLS`], row-major, closed as in the type's
    /// invariant) with `mines` mines, or any number if `None`; `None` if there are more than
    /// `max` or the enumeration takes too long.
    #[must_use]
    pub fn new(view: &Board, cells: Vec<Pos>, mines: Option<usize>, max: usize) -> Option<Region> {
        let index = |p: Pos| cells.binary_search(&p).ok();
        let around: Vec<Mask> = cells
            .iter()
            .map(|&p| {
                view.neighbours(p)
                    .filter_map(index)
                    .fold(0, |m, j| m | 1 << j)
            })
            .collect();
        let constraints = constraints(view, &index)?;
        let arrangements = enumerate(cells.len(), &constraints, mines, max)?;
        Some(Region {
            cells,
            around,
            arrangements,
        })
    }

    /// The number of mines in every arrangement, if it is the same in all (and there is one).
    #[must_use]
    pub fn fixed_mines(&self) -> Option<u32> {
        let k = self.arrangements.first()?.count_ones();
        self.arrangements
            .iter()
            .all(|a| a.count_ones() == k)
            .then_some(k)
    }
}

/// A revealed number: the bit set of its hidden neighbours and how many of them are mines.
struct Constraint {
    cells: Mask,
    mines: u32,
}

/// The revealed numbers that touch the cells `index` numbers; `None` if one of them also touches a
/// hidden cell outside, or has more flags around it than its number.
fn constraints(view: &Board, index: &dyn Fn(Pos) -> Option<usize>) -> Option<Vec<Constraint>> {
    let mut out = Vec::new();
    for p in view.positions() {
        let Cell::Revealed(n) = view.get(p) else {
            continue;
        };
        let mut cells: Mask = 0;
        let (mut flagged, mut outside) = (0, 0);
        for q in view.neighbours(p) {
            match view.get(q) {
                Cell::Hidden => match index(q) {
                    Some(i) => cells |= 1 << i,
                    None => outside += 1,
                },
                Cell::Flagged => flagged += 1,
                Cell::Revealed(_) => {}
            }
        }
        if cells != 0 && outside > 0 {
            return None;
        }
        if cells != 0 {
            out.push(Constraint {
                cells,
                mines: u32::from(n).checked_sub(flagged)?,
            });
        }
    }
    Some(out)
}

/// Every assignment of `left` mines (any number if `None`) to `count` cells that meets the
/// constraints, or `None` if there are more than `max` or the enumeration takes too many steps.
/// Cells under a constraint are decided first; the rest only need the total.
fn enumerate(
    count: usize,
    constraints: &[Constraint],
    left: Option<usize>,
    max: usize,
) -> Option<Vec<Mask>> {
    let constrained = constraints.iter().fold(0, |m: Mask, c| m | c.cells);
    let mut order: Vec<usize> = (0..count).filter(|&i| constrained >> i & 1 == 1).collect();
    order.extend((0..count).filter(|&i| constrained >> i & 1 == 0));
    let mut walk = Walk {
        order,
        constraints,
        left: left.map(|l| l as u32),
        found: Vec::new(),
        max,
        steps: STEPS_PER_ARRANGEMENT * max,
    };
    walk.go(0, 0, 0).then_some(walk.found)
}

/// The depth-first walk of [`enumerate`].
struct Walk<'a> {
    /// The cells in the order they are decided.
    order: Vec<usize>,
    constraints: &'a [Constraint],
    /// The number of mines wanted, if fixed.
    left: Option<u32>,
    found: Vec<Mask>,
    /// The most arrangements wanted.
    max: usize,
    /// Steps left.
    steps: usize,
}

impl Walk<'_> {
    /// Decides `order[depth..]`, with `mines` the cells set so far and `decided` those decided.
    /// Returns false to abort.
    fn go(&mut self, depth: usize, mines: Mask, decided: Mask) -> bool {
        if self.steps == 0 {
            return false;
        }
        self.steps -= 1;
        let placed = mines.count_ones();
        let undecided = (self.order.len() - depth) as u32;
        if self
            .left
            .is_some_and(|left| placed > left || placed + undecided < left)
        {
            return true;
        }
        for c in self.constraints {
            let have = (c.cells & mines).count_ones();
            let open = (c.cells & !decided).count_ones();
            if have > c.mines || have + open < c.mines {
                return true;
            }
        }
        if depth == self.order.len() {
            self.found.push(mines);
            return self.found.len() <= self.max;
        }
        let bit: Mask = 1 << self.order[depth];
        self.go(depth + 1, mines, decided | bit) && self.go(depth + 1, mines | bit, decided | bit)
    }
}
