//! Exact endgame play: when few mine arrangements remain, list them all and find the click that
//! maximizes the chance of winning, by searching every sequence of clicks and the numbers they may
//! show.
//!
//! All arrangements of the remaining mines over the hidden cells are equally likely, so the chance
//! of an outcome is a ratio of arrangement counts. A click on cell `c` splits the arrangements in
//! which `c` is safe by the number `c` shows; the win chance of a set `S` of arrangements is 1 if
//! `|S| = 1`, else the best over clicks of `sum over groups g of |g| / |S| * win(g)`. The flood
//! fill of a zero is not modelled: the cells it opens are safe in every arrangement of the group,
//! so clicking them later costs nothing and the value is the same.

use std::collections::HashMap;

use crate::minesweeper::{Board, Cell, Pos};

/// The most hidden cells the endgame considers (an arrangement is a `u64` bit set over them).
const MAX_CELLS: usize = 64;
/// The most arrangements it considers.
pub const MAX_ARRANGEMENTS: usize = 128;
/// The most enumeration steps before it gives up.
const MAX_STEPS: usize = 200_000;
/// The most arrangements the search examines (summed over its clicks) before it gives up.
const MAX_WORK: u64 = 2_000_000;

/// The hidden cells and the arrangements that fit the view.
///
/// Invariants: `cells` are the hidden, unflagged cells, row-major; every arrangement has bit `i`
/// set when `cells[i]` is a mine, fits every revealed number and holds all remaining mines; each
/// `around[i]` is the bit set of `cells[i]`'s hidden neighbours.
struct Endgame {
    cells: Vec<Pos>,
    around: Vec<u64>,
    arrangements: Vec<u64>,
}

/// The best click and its win chance and mine probability, or `None` when the position has too
/// many hidden cells or arrangements for an exact search.
#[must_use]
pub fn best_click(view: &Board) -> Option<(Pos, f64, f64)> {
    let endgame = Endgame::new(view)?;
    let all: Set = (0..endgame.arrangements.len() as u16).collect();
    let mut search = Search {
        endgame: &endgame,
        memo: HashMap::new(),
        work: 0,
    };
    let mut best: Option<(usize, f64, u32)> = None;
    for (i, _) in endgame.cells.iter().enumerate() {
        let Some((win, mines)) = search.click(&all, i)? else {
            continue;
        };
        // The higher win chance; then the lower mine probability; then row-major.
        if best.is_none_or(|(_, w, m)| win > w + 1e-12 || (win > w - 1e-12 && mines < m)) {
            best = Some((i, win, mines));
        }
    }
    let (i, win, mines) = best?;
    let total = endgame.arrangements.len() as f64;
    Some((endgame.cells[i], win, f64::from(mines) / total))
}

impl Endgame {
    fn new(view: &Board) -> Option<Endgame> {
        let mut cells = Vec::new();
        let mut flags = 0;
        for y in 0..view.height() {
            for x in 0..view.width() {
                match view.get(Pos { x, y }) {
                    Cell::Hidden => cells.push(Pos { x, y }),
                    Cell::Flagged => flags += 1,
                    Cell::Revealed(_) => {}
                }
                if cells.len() > MAX_CELLS {
                    return None;
                }
            }
        }
        let index = |p: Pos| cells.binary_search(&p).ok();
        let around: Vec<u64> = cells
            .iter()
            .map(|&p| {
                view.neighbours(p)
                    .filter_map(index)
                    .fold(0, |m, j| m | 1 << j)
            })
            .collect();
        let constraints = constraints(view, &index)?;
        let left = view.mines().checked_sub(flags)?;
        let arrangements = enumerate(cells.len(), &constraints, left)?;
        Some(Endgame {
            cells,
            around,
            arrangements,
        })
    }
}

/// A revealed number: the bit set of its hidden neighbours and how many of them are mines.
struct Constraint {
    cells: u64,
    mines: u32,
}

fn constraints(view: &Board, index: &dyn Fn(Pos) -> Option<usize>) -> Option<Vec<Constraint>> {
    let mut out = Vec::new();
    for y in 0..view.height() {
        for x in 0..view.width() {
            let Cell::Revealed(n) = view.get(Pos { x, y }) else {
                continue;
            };
            let mut cells = 0u64;
            let mut flagged = 0;
            for q in view.neighbours(Pos { x, y }) {
                match view.get(q) {
                    Cell::Hidden => cells |= 1 << index(q)?,
                    Cell::Flagged => flagged += 1,
                    Cell::Revealed(_) => {}
                }
            }
            if cells != 0 {
                out.push(Constraint {
                    cells,
                    mines: u32::from(n).checked_sub(flagged)?,
                });
            }
        }
    }
    Some(out)
}

/// Every assignment of `left` mines to `count` cells that meets the constraints, or `None` if
/// there are more than [`MAX_ARRANGEMENTS`] or the enumeration takes over [`MAX_STEPS`] steps.
/// Cells under a constraint are decided first; the rest only need the total.
fn enumerate(count: usize, constraints: &[Constraint], left: usize) -> Option<Vec<u64>> {
    let constrained = constraints.iter().fold(0u64, |m, c| m | c.cells);
    let mut order: Vec<usize> = (0..count).filter(|&i| constrained >> i & 1 == 1).collect();
    order.extend((0..count).filter(|&i| constrained >> i & 1 == 0));
    let mut walk = Walk {
        order,
        constraints,
        left: left as u32,
        found: Vec::new(),
        steps: 0,
    };
    walk.go(0, 0, 0).then_some(walk.found)
}

struct Walk<'a> {
    order: Vec<usize>,
    constraints: &'a [Constraint],
    left: u32,
    found: Vec<u64>,
    steps: usize,
}

impl Walk<'_> {
    /// Decides `order[depth..]`, with `mines` the cells set so far and `decided` those decided.
    /// Returns false to abort.
    fn go(&mut self, depth: usize, mines: u64, decided: u64) -> bool {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return false;
        }
        let placed = mines.count_ones();
        let undecided = (self.order.len() - depth) as u32;
        if placed > self.left || placed + undecided < self.left {
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
            return self.found.len() <= MAX_ARRANGEMENTS;
        }
        let bit = 1u64 << self.order[depth];
        self.go(depth + 1, mines, decided | bit) && self.go(depth + 1, mines | bit, decided | bit)
    }
}

/// A set of arrangements: their indices, ascending.
type Set = Vec<u16>;

/// The win-chance search over sets of arrangements, memoized.
struct Search<'a> {
    endgame: &'a Endgame,
    memo: HashMap<Set, f64>,
    /// Arrangements examined so far, against [`MAX_WORK`].
    work: u64,
}

impl Search<'_> {
    /// The win chance of `set` (at least one arrangement), or `None` past the budget.
    fn win(&mut self, set: &Set) -> Option<f64> {
        if set.len() == 1 {
            return Some(1.0);
        }
        if let Some(&w) = self.memo.get(set) {
            return Some(w);
        }
        // A safe click that tells something is never worse than any other move (information is
        // free), so the first one found decides.
        for i in 0..self.endgame.cells.len() {
            if let Some(w) = self.safe_click(set, i)? {
                self.memo.insert(set.clone(), w);
                return Some(w);
            }
        }
        let mut best = 0.0f64;
        for i in 0..self.endgame.cells.len() {
            if let Some((w, _)) = self.click(set, i)? {
                best = best.max(w);
                if best >= 1.0 {
                    break;
                }
            }
        }
        self.memo.insert(set.clone(), best);
        Some(best)
    }

    /// The win chance of clicking cell `i` if it is safe in every arrangement of `set` and splits
    /// it; `Some(None)` otherwise; `None` past the budget.
    fn safe_click(&mut self, set: &Set, i: usize) -> Option<Option<f64>> {
        let e = self.endgame;
        if set
            .iter()
            .any(|&a| e.arrangements[usize::from(a)] >> i & 1 == 1)
        {
            return Some(None);
        }
        Some(self.click(set, i)?.map(|(w, _)| w))
    }

    /// The win chance of clicking cell `i` in `set`, and the number of arrangements of `set` in
    /// which it is a mine; `Some(None)` when the click is pointless (a certain mine, or a safe
    /// cell that tells nothing new); `None` past the budget.
    fn click(&mut self, set: &Set, i: usize) -> Option<Option<(f64, u32)>> {
        let e = self.endgame;
        let mut groups: [Set; 9] = Default::default();
        let mut mines = 0u32;
        for &a in set {
            let arrangement = e.arrangements[usize::from(a)];
            if arrangement >> i & 1 == 1 {
                mines += 1;
            } else {
                groups[(arrangement & e.around[i]).count_ones() as usize].push(a);
            }
        }
        let total = set.len() as u32;
        self.work += u64::from(total);
        if self.work > MAX_WORK {
            return None;
        }
        if mines == total || (mines == 0 && groups.iter().any(|g| g.len() == set.len())) {
            return Some(None);
        }
        let mut win = 0.0;
        for g in groups.iter().filter(|g| !g.is_empty()) {
            win += g.len() as f64 * self.win(g)?;
        }
        Some(Some((win / f64::from(total), mines)))
    }
}
