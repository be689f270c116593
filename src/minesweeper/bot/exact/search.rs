//! The win-chance search over a region's arrangements.

use std::collections::HashMap;

use super::arrangements::Region;
#[cfg(not(bundle_bin = "minesweeper-agent"))]
use super::recall::recall_or;
use super::ExactClick;
use crate::minesweeper::bot::calls::past_deadline;
use crate::minesweeper::bot::tolerance::SCORE_TIE;

/// The agent's bundle searches every time (see [`Region::solve`]).
#[cfg(bundle_bin = "minesweeper-agent")]
fn recall_or(
    _: &Region,
    _: usize,
    search: impl FnOnce() -> Option<ExactClick>,
) -> Option<ExactClick> {
    search()
}

/// Per allowed arrangement, the most arrangements the search examines (summed over its clicks)
/// before it gives up: 4 million for 1,000 arrangements, about 60 ms.
const WORK_PER_ARRANGEMENT: u64 = 4_000;

/// What a mine "shows" in [`Search::shows`].
const MINE: u8 = 9;

/// A set of arrangements: their indices, ascending.
type Set = Vec<u16>;

impl Region {
    /// The click that maximizes the chance of winning the region; `None` if no click tells
    /// anything (a single arrangement) or the search runs over its budget (set by `max`, the
    /// most arrangements allowed) or past the thread's deadline (see `bot::set_deadline`).
    /// The thread's last outcomes are recalled, not searched again (see `recall`; left out of the
    /// agent's bundle, whose thread always has a deadline).
    #[must_use]
    pub fn solve(&self, max: usize) -> Option<ExactClick> {
        recall_or(self, max, || self.search(max))
    }

    /// The search behind [`Region::solve`].
    fn search(&self, max: usize) -> Option<ExactClick> {
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
        let every: Vec<usize> = (0..shows.len()).collect();
        let best = search.best(&all, &every, true)?;
        Some(ExactClick {
            cell: self.cells[best.cell?],
            win_chance: best.win,
            mine_chance: f64::from(best.mines) / total as f64,
        })
    }
}

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

/// The best click on a set of arrangements.
struct Best {
    /// The cell's index in the region, `None` if no click tells anything.
    cell: Option<usize>,
    /// The win chance.
    win: f64,
    /// The arrangements of the set in which the cell is a mine.
    mines: u32,
}

/// The clicks worth trying on a set of arrangements (see [`Search::telling_clicks`]).
struct Telling {
    /// One cell per distinct partition, as (arrangements in which it is a mine, cell index),
    /// ascending.
    clicks: Vec<(u32, usize)>,
    /// Every cell that tells something about the set, ascending.
    cells: Vec<usize>,
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
    /// The win chance of `set` (at least one arrangement), or `None` past the budget. `cells`
    /// holds every cell that tells something about `set` (for example those that tell something
    /// about a set that holds it).
    fn win(&mut self, set: &Set, cells: &[usize]) -> Option<f64> {
        match set.len() {
            1 => return Some(1.0),
            2 => return Some(self.pair(set, cells)),
            _ => {}
        }
        if let Some(&w) = self.memo.get(set) {
            return Some(w);
        }
        let w = self.best(set, cells, false)?.win;
        self.memo.insert(set.clone(), w);
        Some(w)
    }

    /// Two arrangements: won for sure if a cell safe in both shows different numbers, else a
    /// 50/50 (a cell that is a mine in one of them). `cells` as in [`Search::win`].
    fn pair(&self, set: &Set, cells: &[usize]) -> f64 {
        let (a, b) = (usize::from(set[0]), usize::from(set[1]));
        let sure = cells.iter().any(|&i| {
            let s = &self.shows[i];
            s[a] != MINE && s[b] != MINE && s[a] != s[b]
        });
        if sure {
            1.0
        } else {
            0.5
        }
    }

    /// The best click on `set`; `None` past the budget. At the top (`top`), ties go to the lower
    /// mine count, then the lower index; below, a safe click that tells something is taken at
    /// once (information is free). `cells` as in [`Search::win`].
    fn best(&mut self, set: &Set, cells: &[usize], top: bool) -> Option<Best> {
        let total = set.len() as u32;
        let mut best = Best {
            cell: None,
            win: 0.0,
            mines: total,
        };
        let telling = self.telling_clicks(set, cells)?;
        for (mines, i) in telling.clicks {
            let bound = f64::from(total - mines) / f64::from(total);
            if bound < best.win + SCORE_TIE {
                break;
            }
            let Some(win) = self.click(set, i, &telling.cells, best.win)? else {
                continue;
            };
            if win > best.win + SCORE_TIE {
                best = Best {
                    cell: Some(i),
                    win,
                    mines,
                };
                if mines == 0 && !top {
                    break;
                }
            }
        }
        Some(best)
    }

    /// The clicks that tell something about `set`, one per distinct partition (the first cell),
    /// and every cell that tells something; `None` past the budget.
    ///
    /// Only `cells` are examined (a cell that tells nothing about a set tells nothing about its
    /// subsets), but the work is counted as if every cell of the region were, so that the budget
    /// reaches exactly as far as it would.
    fn telling_clicks(&mut self, set: &Set, cells: &[usize]) -> Option<Telling> {
        let total = set.len() as u64;
        // Per cell that tells something: how many arrangements of `set` make it a mine, and a
        // hash of the partition of `set` that its click makes.
        let mut living: Vec<(u32, u64, usize)> = Vec::new();
        for &i in cells {
            let (mines, hash, varies) = partition(&self.shows[i], set);
            if varies {
                living.push((mines, hash, i));
            }
        }
        self.work = self
            .work
            .saturating_sub(total.saturating_mul(self.shows.len() as u64));
        if self.work == 0 || past_deadline() {
            return None;
        }
        let telling: Vec<usize> = living.iter().map(|&(_, _, i)| i).collect();
        // Two clicks that split `set` the same way are worth the same: keep the first.
        living.sort_unstable();
        living.dedup_by(|b, a| {
            a.0 == b.0 && a.1 == b.1 && same_partition(&self.shows[a.2], &self.shows[b.2], set)
        });
        let mut living: Vec<(u32, usize)> = living.iter().map(|&(m, _, i)| (m, i)).collect();
        living.sort_unstable();
        Some(Telling {
            clicks: living,
            cells: telling,
        })
    }

    /// The win chance of clicking cell `i` in `set`, or `Some(None)` once it cannot beat `beat`;
    /// `None` past the budget. `cells` as in [`Search::win`].
    fn click(&mut self, set: &Set, i: usize, cells: &[usize], beat: f64) -> Option<Option<f64>> {
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
            won += n * self.win(g, cells)?;
            open -= n;
            if (won + open) / total < beat + SCORE_TIE {
                return Some(None);
            }
        }
        Some(Some(won / total))
    }
}
