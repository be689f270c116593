//! Exact enumeration of one component's mine arrangements, by mine count.

use super::big::Big;
use super::frontier::Component;

/// The counts of one component's arrangements.
///
/// Invariant: `ways.len() == mines_in[g].len()` for every group `g`; entry `m` is about the
/// arrangements with exactly `m` mines in the component.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    /// `ways[m]`: the number of arrangements of the component's cells with `m` mines.
    pub ways: Vec<Big>,
    /// `mines_in[g][m]`: among those, the number in which one given cell of group `g` is a mine
    /// (the same for every cell of the group).
    pub mines_in: Vec<Vec<Big>>,
}

/// `C(n, k)` for `n <= 8`, the largest group.
pub(super) fn binomial(n: usize, k: usize) -> u64 {
    let mut c = 1u64;
    for i in 0..k {
        c = c * (n - i) as u64 / (i as u64 + 1);
    }
    c
}

/// The state of a walk over a component's groups: per constraint, the mines still needed and
/// the cells still unassigned. Shared with the layout sampler (`sample.rs`).
pub(super) struct State<'a> {
    comp: &'a Component,
    need: Vec<usize>,
    room: Vec<usize>,
}

impl<'a> State<'a> {
    /// Nothing assigned yet.
    pub(super) fn new(comp: &'a Component) -> State<'a> {
        let mut room = vec![0; comp.needs.len()];
        for g in &comp.groups {
            for &c in &g.constraints {
                room[c] += g.cells.len();
            }
        }
        State {
            comp,
            need: comp.needs.clone(),
            room,
        }
    }

    /// The mine counts group `g` can take without making a constraint impossible.
    pub(super) fn range(&self, g: usize, mines: usize, cap: usize) -> (usize, usize) {
        let group = &self.comp.groups[g];
        let size = group.cells.len();
        let (mut lo, mut hi) = (0, size.min(cap - mines));
        for &c in &group.constraints {
            lo = lo.max(self.need[c].saturating_sub(self.room[c] - size));
            hi = hi.min(self.need[c]);
        }
        (lo, hi)
    }

    /// Puts `k` mines in group `g`.
    pub(super) fn assign(&mut self, g: usize, k: usize) {
        let size = self.comp.groups[g].cells.len();
        for &c in &self.comp.groups[g].constraints {
            self.need[c] -= k;
            self.room[c] -= size;
        }
    }

    /// Takes back [`State::assign`].
    pub(super) fn unassign(&mut self, g: usize, k: usize) {
        let size = self.comp.groups[g].cells.len();
        for &c in &self.comp.groups[g].constraints {
            self.need[c] += k;
            self.room[c] += size;
        }
    }
}

/// The most work [`enumerate`] does over a whole board, in 64-bit limb operations (a few seconds).
///
/// A search node costs [`NODE_UNITS`] plus the limbs of the weight it multiplies, and a node
/// where the group can take no mine count (a dead end) costs [`NODE_UNITS`]; a finished
/// arrangement costs the limbs of one big addition per group with a mine, plus one for the
/// total. Counting only the nodes let a long component with big counts run for minutes: its
/// leaves cost a big addition per group each; counting only the limbs let a long component of
/// small counts (a comb: `H` row, `4H4H...` row, `H` row) run for 8 to 33 s: its nodes cost
/// little in limbs, and their bookkeeping was free.
pub(crate) const WORK_BUDGET: u64 = 800_000_000;

/// The units a search node costs besides its limbs: the group's mine range and its assignment
/// over the group's constraints, the copy of the weight. Measured against the limbs' units on a
/// comb and on random 100x100 and 30x16 boards (least squares of the CPU time over the two): a
/// node's bookkeeping took as long as 3 units, and 8 leaves the comb, whose nodes are nearly all
/// bookkeeping, within the time of the other boards.
pub(crate) const NODE_UNITS: u64 = 8;

/// The most big-integer entries a table may hold (`groups * mine counts`).
pub(crate) const TABLE_BUDGET: usize = 4_000_000;

/// Takes `work` from `budget`; `None`, with the budget left at 0, if it has less.
fn spend(budget: &mut u64, work: u64) -> Option<()> {
    let left = budget.checked_sub(work);
    *budget = left.unwrap_or(0);
    left.map(|_| ())
}

/// Counts every arrangement of `comp` with at most `cap` mines, doing at most `*budget` units of
/// work as [`WORK_BUDGET`] counts them (decreased by the work done). `None` if the budget runs out or the table would exceed
/// [`TABLE_BUDGET`] entries.
///
/// Depth-first over the groups (iteratively, so a long component can't overflow the stack); a
/// group of `s` cells takes `k` mines in `C(s, k)` ways. Every leaf satisfies every constraint.
///
/// # Complexity
/// Proportional to the number of consistent group assignments, times the number of groups:
/// exponential in the worst case.
pub(crate) fn enumerate(comp: &Component, cap: usize, budget: &mut u64) -> Option<Table> {
    let groups = comp.groups.len();
    let cells: usize = comp.groups.iter().map(|g| g.cells.len()).sum();
    let len = cells.min(cap) + 1;
    if (groups + 1).saturating_mul(len) > TABLE_BUDGET {
        return None;
    }
    let mut table = Table {
        ways: vec![Big::zero(); len],
        mines_in: vec![vec![Big::zero(); len]; groups],
    };
    let mut state = State::new(comp);
    // weight[d]: the number of ways to realise the choices of groups 0..d.
    let mut weight = vec![Big::from_u64(1); groups + 1];
    let mut k = vec![0usize; groups];
    let mut hi = vec![0usize; groups];
    let mut mines = 0;
    let mut d = 0;
    let mut entering = true;
    loop {
        if entering {
            if d == groups {
                spend(budget, record(&mut table, &weight[d], &k, mines))?;
                entering = false;
                d -= 1;
                continue;
            }
            let (lo, h) = state.range(d, mines, cap);
            if lo > h {
                spend(budget, NODE_UNITS)?;
                entering = false;
                if d == 0 {
                    break;
                }
                d -= 1;
                continue;
            }
            k[d] = lo;
            hi[d] = h;
        } else {
            state.unassign(d, k[d]);
            mines -= k[d];
            if k[d] == hi[d] {
                if d == 0 {
                    break;
                }
                d -= 1;
                continue;
            }
            k[d] += 1;
            entering = true;
        }
        spend(budget, NODE_UNITS + weight[d].limb_count() as u64 + 1)?;
        state.assign(d, k[d]);
        mines += k[d];
        let (before, after) = weight.split_at_mut(d + 1);
        after[0].clone_from(&before[d]);
        after[0].mul_small(binomial(comp.groups[d].cells.len(), k[d]));
        d += 1;
    }
    for (g, group) in comp.groups.iter().enumerate() {
        for count in &mut table.mines_in[g] {
            let rem = count.div_small(group.cells.len() as u64);
            debug_assert_eq!(rem, 0, "C(s, k) * k is a multiple of s");
        }
    }
    Some(table)
}

/// Adds one assignment (`k[g]` mines in group `g`, realised in `weight` ways) to the table; the
/// per-cell counts are kept multiplied by the group's size until the end. Returns the work done,
/// as [`WORK_BUDGET`] counts it.
fn record(table: &mut Table, weight: &Big, k: &[usize], mines: usize) -> u64 {
    table.ways[mines].add_assign(weight);
    let mut adds = 1;
    for (g, &kg) in k.iter().enumerate() {
        if kg > 0 {
            table.mines_in[g][mines].add_mul_small(weight, kg as u64);
            adds += 1;
        }
    }
    adds * (weight.limb_count() as u64 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minesweeper::analyzer::frontier::Group;

    /// One number needing 4 mines among 8 interchangeable cells, and a second one sharing 2 of them.
    fn component() -> Component {
        Component {
            groups: vec![
                Group {
                    cells: (0..6).collect(),
                    constraints: vec![0],
                },
                Group {
                    cells: vec![6, 7],
                    constraints: vec![0, 1],
                },
            ],
            needs: vec![4, 1],
            at: 0,
        }
    }

    #[test]
    fn counts_by_mine_count() {
        let mut budget = 1000;
        let t = enumerate(&component(), 99, &mut budget).expect("within budget");
        // Exactly one of the two shared cells is a mine (2 ways), 3 of the 6 others (20 ways).
        assert_eq!(t.ways[4], Big::from_u64(40));
        assert_eq!(t.mines_in[0][4], Big::from_u64(20));
        assert_eq!(t.mines_in[1][4], Big::from_u64(20));
        assert!(budget < 1000);
    }

    #[test]
    fn a_finished_arrangement_costs_its_big_additions() {
        // One group of 8 cells needing 4 mines: one node (its bookkeeping and a one-limb
        // weight: NODE_UNITS + 2 units), one arrangement (2 additions of a one-limb weight: 4
        // units).
        let comp = Component {
            groups: vec![Group {
                cells: (0..8).collect(),
                constraints: vec![0],
            }],
            needs: vec![4],
            at: 0,
        };
        let mut budget = 1000;
        let t = enumerate(&comp, 99, &mut budget).expect("within budget");
        assert_eq!(t.ways[4], Big::from_u64(70));
        assert_eq!(1000 - budget, NODE_UNITS + 6);
        let mut short = NODE_UNITS + 5;
        assert!(enumerate(&comp, 99, &mut short).is_none());
        assert_eq!(short, 0, "an exhausted budget reads 0");
    }

    #[test]
    fn a_dead_end_costs_its_bookkeeping() {
        // Two groups of one cell under one number needing 2 mines, the second group also under
        // a number needing none: the first group must take its mine, and then the second can
        // take neither 1 (the second number) nor 0 (the first): a dead end, paid for too.
        let comp = Component {
            groups: vec![
                Group {
                    cells: vec![0],
                    constraints: vec![0],
                },
                Group {
                    cells: vec![1],
                    constraints: vec![0, 1],
                },
            ],
            needs: vec![2, 0],
            at: 0,
        };
        let mut budget = 1000;
        let t = enumerate(&comp, 99, &mut budget).expect("within budget");
        assert!(t.ways.iter().all(Big::is_zero));
        // One node at the first group (its range is k = 1 alone), one dead end at the second.
        assert_eq!(1000 - budget, (NODE_UNITS + 2) + NODE_UNITS);
    }

    #[test]
    fn stops_when_the_budget_runs_out() {
        assert!(enumerate(&component(), 99, &mut 2).is_none());
        assert!(enumerate(&component(), 0, &mut 1000).is_some_and(|t| t.ways[0].is_zero()));
    }
}
