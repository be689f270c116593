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
/// The default most arrangements it considers.
pub const MAX_ARRANGEMENTS: usize = 128;
/// The most enumeration steps per allowed arrangement before it gives up.
const STEPS_PER_ARRANGEMENT: usize = 2_000;
/// The most arrangements the search examines (summed over its clicks) before it gives up.
const MAX_WORK: u64 = 4_000_000;

/// The hidden cells and the arrangements that fit the view.
///
/// Invariants: `cells` are the hidden, unflagged cells, row-major; every arrangement has bit `i`
/// set when `cells[i]` is a mine, fits every revealed number and holds all remaining mines;
/// `shows[i][a]` is what `cells[i]` shows in arrangement `a`: its number of mine neighbours, or
/// [`MINE`].
struct Endgame {
    cells: Vec<Pos>,
    shows: Vec<Vec<u8>>,
}

/// What a mine "shows" in [`Endgame::shows`].
const MINE: u8 = 9;

/// The best click and its win chance and mine probability, or `None` when the position has more
/// than 64 hidden cells or more than `max_arrangements` arrangements, or the search would take
/// too long, or no click tells anything (a single arrangement).
#[must_use]
pub fn best_click(view: &Board, max_arrangements: usize) -> Option<(Pos, f64, f64)> {
    let endgame = Endgame::new(view, max_arrangements)?;
    let total = endgame.shows.first().map_or(0, Vec::len);
    let all: Set = (0..total as u16).collect();
    let mut search = Search {
        endgame: &endgame,
        memo: HashMap::new(),
        work: 0,
    };
    let (i, win, mines) = search.best(&all, true)?;
    let i = i?;
    Some((endgame.cells[i], win, f64::from(mines) / total as f64))
}

impl Endgame {
    fn new(view: &Board, max_arrangements: usize) -> Option<Endgame> {
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
        let arrangements = enumerate(cells.len(), &constraints, left, max_arrangements)?;
        let shows = around
            .iter()
            .enumerate()
            .map(|(i, &near)| {
                arrangements
                    .iter()
                    .map(|&a| {
                        if a >> i & 1 == 1 {
                            MINE
                        } else {
                            (a & near).count_ones() as u8
                        }
                    })
                    .collect()
            })
            .collect();
        Some(Endgame { cells, shows })
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
/// there are more than `max` or the enumeration takes too many steps. Cells under a constraint are
/// decided first; the rest only need the total.
fn enumerate(
    count: usize,
    constraints: &[Constraint],
    left: usize,
    max: usize,
) -> Option<Vec<u64>> {
    let constrained = constraints.iter().fold(0u64, |m, c| m | c.cells);
    let mut order: Vec<usize> = (0..count).filter(|&i| constrained >> i & 1 == 1).collect();
    order.extend((0..count).filter(|&i| constrained >> i & 1 == 0));
    let mut walk = Walk {
        order,
        constraints,
        left: left as u32,
        found: Vec::new(),
        max,
        steps: STEPS_PER_ARRANGEMENT * max,
    };
    walk.go(0, 0, 0).then_some(walk.found)
}

struct Walk<'a> {
    order: Vec<usize>,
    constraints: &'a [Constraint],
    left: u32,
    found: Vec<u64>,
    /// The most arrangements wanted.
    max: usize,
    /// Steps left.
    steps: usize,
}

impl Walk<'_> {
    /// Decides `order[depth..]`, with `mines` the cells set so far and `decided` those decided.
    /// Returns false to abort.
    fn go(&mut self, depth: usize, mines: u64, decided: u64) -> bool {
        if self.steps == 0 {
            return false;
        }
        self.steps -= 1;
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
            return self.found.len() <= self.max;
        }
        let bit = 1u64 << self.order[depth];
        self.go(depth + 1, mines, decided | bit) && self.go(depth + 1, mines | bit, decided | bit)
    }
}

/// A set of arrangements: their indices, ascending.
type Set = Vec<u16>;

/// The win-chance search over sets of arrangements, memoized (only exact values are stored).
struct Search<'a> {
    endgame: &'a Endgame,
    memo: HashMap<Set, f64>,
    /// Arrangements examined so far, against [`MAX_WORK`].
    work: u64,
}

impl Search<'_> {
    /// The win chance of `set` (at least one arrangement), or `None` past the budget.
    fn win(&mut self, set: &Set) -> Option<f64> {
        match set.len() {
            1 => return Some(1.0),
            2 => return Some(self.pair(set)),
            _ => {}
        }
        if let Some(&w) = self.memo.get(set) {
            return Some(w);
        }
        let (_, w, _) = self.best(set, false)?;
        self.memo.insert(set.clone(), w);
        Some(w)
    }

    /// Two arrangements: won for sure if a cell safe in both shows different numbers, else a
    /// 50/50 (a cell that is a mine in one of them).
    fn pair(&self, set: &Set) -> f64 {
        let (a, b) = (usize::from(set[0]), usize::from(set[1]));
        let sure = self
            .endgame
            .shows
            .iter()
            .any(|s| s[a] != MINE && s[b] != MINE && s[a] != s[b]);
        if sure {
            1.0
        } else {
            0.5
        }
    }

    /// The best click on `set`: its index (`None` if no click tells anything), its win chance,
    /// and the arrangements of `set` in which it is a mine; `None` past the budget. At the top
    /// (`top`), ties go to the lower mine count, then the lower index; below, a safe click that
    /// tells something is taken at once (information is free).
    fn best(&mut self, set: &Set, top: bool) -> Option<(Option<usize>, f64, u32)> {
        let e = self.endgame;
        let total = set.len() as u32;
        // Per cell: how many arrangements of `set` make it a mine, and whether it tells anything.
        let mut living: Vec<(u32, usize)> = Vec::new();
        for (i, shows) in e.shows.iter().enumerate() {
            let first = shows[usize::from(set[0])];
            let mut mines = 0;
            let mut varies = false;
            for &a in set {
                let v = shows[usize::from(a)];
                mines += u32::from(v == MINE);
                varies |= v != first;
            }
            self.work += u64::from(total);
            if varies {
                living.push((mines, i));
            }
        }
        if self.work > MAX_WORK {
            return None;
        }
        living.sort_unstable();
        let mut best: (Option<usize>, f64, u32) = (None, 0.0, total);
        for &(mines, i) in &living {
            let bound = f64::from(total - mines) / f64::from(total);
            if bound < best.1 + 1e-12 {
                break;
            }
            let Some(win) = self.click(set, i, best.1)? else {
                continue;
            };
            if win > best.1 + 1e-12 {
                best = (Some(i), win, mines);
                if mines == 0 && !top {
                    break;
                }
            }
        }
        Some(best)
    }

    /// The win chance of clicking cell `i` in `set`, or `Some(None)` once it cannot beat `beat`;
    /// `None` past the budget.
    fn click(&mut self, set: &Set, i: usize, beat: f64) -> Option<Option<f64>> {
        let shows = &self.endgame.shows[i];
        let mut groups: [Set; 9] = Default::default();
        let mut mines = 0u32;
        for &a in set {
            match shows[usize::from(a)] {
                MINE => mines += 1,
                v => groups[usize::from(v)].push(a),
            }
        }
        let total = f64::from(set.len() as u32);
        self.work += set.len() as u64;
        // Wins so far, and the arrangements not yet scored, counted as wins for the bound.
        let (mut won, mut open) = (0.0, total - f64::from(mines));
        let mut order: Vec<&Set> = groups.iter().filter(|g| !g.is_empty()).collect();
        order.sort_unstable_by_key(|g| std::cmp::Reverse(g.len()));
        for g in order {
            let n = g.len() as f64;
            won += n * self.win(g)?;
            open -= n;
            if (won + open) / total < beat + 1e-12 {
                return Some(None);
            }
        }
        Some(Some(won / total))
    }
}
