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

/// The most hidden cells the endgame considers (an arrangement is a [`Mask`] over them).
const MAX_CELLS: usize = 128;

/// A set of hidden cells: bit `i` for `cells[i]`.
type Mask = u128;
/// The default most arrangements it considers.
pub const MAX_ARRANGEMENTS: usize = 128;
/// The most enumeration steps per allowed arrangement before it gives up.
const STEPS_PER_ARRANGEMENT: usize = 2_000;
/// Per allowed arrangement, the most arrangements the search examines (summed over its clicks)
/// before it gives up: 4 million for 1,000 arrangements, about 60 ms.
const WORK_PER_ARRANGEMENT: u64 = 4_000;

/// Some hidden cells and their arrangements.
///
/// Invariants: `cells` are hidden, unflagged cells, row-major, and no revealed number touches both
/// one of them and a hidden cell outside; every arrangement has bit `i` set when `cells[i]` is a
/// mine and fits every revealed number; `around[i]` is the bit set of `cells[i]`'s hidden
/// neighbours (all among `cells`).
struct Region {
    cells: Vec<Pos>,
    around: Vec<Mask>,
    arrangements: Vec<Mask>,
}

/// What a mine "shows" in [`Search::shows`].
const MINE: u8 = 9;

/// The best click and its win chance and mine probability, or `None` when the position has more
/// than 128 hidden cells or more than `max_arrangements` arrangements, or the search would take
/// too long, or no click tells anything (a single arrangement).
#[must_use]
pub fn best_click(view: &Board, max_arrangements: usize) -> Option<(Pos, f64, f64)> {
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

/// The best click in a region of the board that is independent of the rest, with its win chance
/// (within the region) and its mine probability; `None` if no region qualifies.
///
/// The hidden cells split into regions that no revealed number and no neighbourhood links. A
/// region whose arrangements (at most `max_arrangements`) all hold the same number of mines is
/// independent: the board's arrangements are its arrangements times those of the rest, and what
/// its cells show depends only on it. So is the last region if all others are. The chance of
/// winning the game is then the product of the chances of the independent parts, whatever the
/// order of play, so the best click of any such region is a best first click for the game. Among
/// them: the lowest mine probability, then the highest win chance, then row-major.
/// `ln_total` is the log of the board's number of arrangements (see
/// [`crate::minesweeper::Analysis::ln_arrangements`]).
#[must_use]
pub fn region_click(
    view: &Board,
    max_arrangements: usize,
    ln_total: f64,
) -> Option<(Pos, f64, f64)> {
    let left = view.mines().checked_sub(view.flags())?;
    let cells = components(view);
    let mut regions: Vec<Option<Region>> = cells
        .iter()
        .map(|c| {
            (c.len() <= MAX_CELLS && cells.len() > 1)
                .then(|| Region::new(view, c.clone(), None, max_arrangements))
                .flatten()
        })
        .collect();
    let count = |r: Option<&Region>| -> Option<u32> {
        let r = r?;
        let k = r.arrangements.first()?.count_ones();
        r.arrangements
            .iter()
            .all(|a| a.count_ones() == k)
            .then_some(k)
    };
    let variable: Vec<usize> = (0..regions.len())
        .filter(|&i| count(regions[i].as_ref()).is_none())
        .collect();
    if let [last] = variable[..] {
        // The others are fixed: this one holds the rest of the mines, and its arrangements are
        // the board's divided by theirs.
        let fixed = regions
            .iter()
            .filter_map(|r| count(r.as_ref()))
            .sum::<u32>();
        let ln_fixed: f64 = regions
            .iter()
            .flatten()
            .filter(|r| count(Some(r)).is_some())
            .map(|r| (r.arrangements.len() as f64).ln())
            .sum();
        regions[last] = match (left as u32).checked_sub(fixed) {
            Some(k)
                if cells[last].len() <= MAX_CELLS
                    && ln_total - ln_fixed <= (max_arrangements as f64).ln() + 1e-9 =>
            {
                Region::new(
                    view,
                    cells[last].clone(),
                    Some(k as usize),
                    max_arrangements,
                )
            }
            _ => None,
        };
    } else {
        for &i in &variable {
            regions[i] = None;
        }
    }
    let mut best: Option<(Pos, f64, f64)> = None;
    for r in regions.iter().flatten() {
        if r.arrangements.len() < 2 {
            continue;
        }
        let Some((p, win, q)) = r.solve(max_arrangements) else {
            continue;
        };
        if best.is_none_or(|(_, w, m)| q < m - 1e-12 || (q < m + 1e-12 && win > w + 1e-12)) {
            best = Some((p, win, q));
        }
    }
    best
}

/// The hidden, unflagged cells grouped into regions: two cells are in the same region when they
/// are neighbours or touch the same revealed number. Each region is row-major.
fn components(view: &Board) -> Vec<Vec<Pos>> {
    let n = view.cells().len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let hidden = |i: usize| view.cells()[i] == Cell::Hidden;
    for p in view.positions() {
        let i = view.index(p);
        let link_to = match view.get(p) {
            Cell::Hidden => Some(i),
            Cell::Revealed(_) => None,
            Cell::Flagged => continue,
        };
        let mut first = link_to;
        for q in view.neighbours(p) {
            let j = view.index(q);
            if !hidden(j) {
                continue;
            }
            let root = *first.get_or_insert(j);
            let (a, b) = (find(&mut parent, root), find(&mut parent, j));
            parent[a] = b;
        }
    }
    let mut groups: Vec<Vec<Pos>> = Vec::new();
    let mut slot = vec![usize::MAX; n];
    for i in (0..n).filter(|&i| hidden(i)) {
        let r = find(&mut parent, i);
        if slot[r] == usize::MAX {
            slot[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[slot[r]].push(view.pos(i));
    }
    groups
}

impl Region {
    /// The arrangements of `cells` (at most [`MAX_CELLS`], row-major, closed as in the type's
    /// invariant) with `mines` mines, or any number if `None`; `None` if there are more than
    /// `max` or the enumeration takes too long.
    fn new(view: &Board, cells: Vec<Pos>, mines: Option<usize>, max: usize) -> Option<Region> {
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

    /// The best click, its win chance and its mine probability; `None` if no click tells
    /// anything or the search runs over its budget.
    fn solve(&self, max: usize) -> Option<(Pos, f64, f64)> {
        let shows: Vec<Vec<u8>> = self
            .around
            .iter()
            .enumerate()
            .map(|(i, &near)| {
                self.arrangements
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
        let total = self.arrangements.len();
        let all: Set = (0..total as u16).collect();
        let mut search = Search {
            shows: &shows,
            memo: HashMap::new(),
            work: WORK_PER_ARRANGEMENT * max as u64,
        };
        let (i, win, mines) = search.best(&all, true)?;
        Some((self.cells[i?], win, f64::from(mines) / total as f64))
    }
}

/// A revealed number: the bit set of its hidden neighbours and how many of them are mines.
struct Constraint {
    cells: Mask,
    mines: u32,
}

fn constraints(view: &Board, index: &dyn Fn(Pos) -> Option<usize>) -> Option<Vec<Constraint>> {
    let mut out = Vec::new();
    for y in 0..view.height() {
        for x in 0..view.width() {
            let Cell::Revealed(n) = view.get(Pos { x, y }) else {
                continue;
            };
            let mut cells: Mask = 0;
            let (mut flagged, mut outside) = (0, 0);
            for q in view.neighbours(Pos { x, y }) {
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
    }
    Some(out)
}

/// Every assignment of `left` mines (any number if `None`) to `count` cells that meets the constraints, or `None` if
/// there are more than `max` or the enumeration takes too many steps. Cells under a constraint are
/// decided first; the rest only need the total.
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

struct Walk<'a> {
    order: Vec<usize>,
    constraints: &'a [Constraint],
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

/// A set of arrangements: their indices, ascending.
type Set = Vec<u16>;

/// The number of arrangements of `set` in which a cell is a mine, a hash of the partition of
/// `set` that clicking it makes (by what it shows, numbers relabelled in order of appearance),
/// and whether that partition has more than one part.
fn partition(shows: &[u8], set: &Set) -> (u32, u64, bool) {
    let mut label = [u8::MAX; 10];
    label[usize::from(MINE)] = MINE;
    let mut next = 0;
    let (mut mines, mut hash) = (0u32, 0u64);
    let first = shows[usize::from(set[0])];
    let mut varies = false;
    for &a in set {
        let v = shows[usize::from(a)];
        varies |= v != first;
        mines += u32::from(v == MINE);
        let l = &mut label[usize::from(v)];
        if *l == u8::MAX {
            *l = next;
            next += 1;
        }
        hash = (hash ^ u64::from(*l))
            .wrapping_mul(0x0100_0000_01b3)
            .rotate_left(5);
    }
    (mines, hash, varies)
}

/// Whether two cells split `set` the same way (the same parts, the mine part included).
fn same_partition(x: &[u8], y: &[u8], set: &Set) -> bool {
    let mut map = [u8::MAX; 10];
    set.iter().all(|&a| {
        let (u, v) = (x[usize::from(a)], y[usize::from(a)]);
        if (u == MINE) != (v == MINE) {
            return false;
        }
        let m = &mut map[usize::from(u)];
        if *m == u8::MAX {
            *m = v;
        }
        *m == v
    })
}

/// The win-chance search over sets of arrangements, memoized (only exact values are stored).
struct Search<'a> {
    /// `shows[i][a]`: what cell `i` shows in arrangement `a` (its mine neighbours, or [`MINE`]).
    shows: &'a [Vec<u8>],
    memo: HashMap<Set, f64>,
    /// Arrangements the search may still examine.
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
        let total = set.len() as u32;
        // Per cell that tells something: how many arrangements of `set` make it a mine, and a
        // hash of the partition of `set` that its click makes.
        let mut living: Vec<(u32, u64, usize)> = Vec::new();
        for (i, shows) in self.shows.iter().enumerate() {
            let (mines, hash, varies) = partition(shows, set);
            self.work = self.work.saturating_sub(u64::from(total));
            if varies {
                living.push((mines, hash, i));
            }
        }
        if self.work == 0 {
            return None;
        }
        // Two clicks that split `set` the same way are worth the same: keep the first.
        living.sort_unstable();
        living.dedup_by(|b, a| {
            a.0 == b.0 && a.1 == b.1 && same_partition(&self.shows[a.2], &self.shows[b.2], set)
        });
        let mut living: Vec<(u32, usize)> = living.iter().map(|&(m, _, i)| (m, i)).collect();
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
        let shows = &self.shows[i];
        let mut groups: [Set; 9] = Default::default();
        let mut mines = 0u32;
        for &a in set {
            match shows[usize::from(a)] {
                MINE => mines += 1,
                v => groups[usize::from(v)].push(a),
            }
        }
        let total = f64::from(set.len() as u32);
        self.work = self.work.checked_sub(set.len() as u64)?;
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
