//! The constraints a board's numbers put on its hidden cells: trivial and subset deductions, then
//! the remaining frontier split into groups (cells touching exactly the same numbers) and
//! independent components.

use crate::minesweeper::board::{Board, Cell};
use crate::minesweeper::error::Inconsistency;
use crate::minesweeper::grid::Grid;

/// What is known about a board cell before enumeration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Known {
    /// Revealed or flagged: not a cell to analyse.
    Shown,
    /// Hidden and not yet decided.
    Unknown,
    /// Hidden, and a mine in no arrangement (deduced).
    Safe,
    /// Hidden, and a mine in every arrangement (deduced).
    Mine,
}

/// A revealed number that still has hidden unflagged neighbours.
#[derive(Clone, Copy, Debug)]
struct Constraint {
    /// The board index of the number.
    at: usize,
    /// How many mines its hidden unflagged neighbours hold (the number minus its flagged neighbours).
    need: usize,
    /// Its hidden unflagged neighbours (decided or not), computed once.
    hidden: Around,
}

/// Up to 8 board indices (the neighbours of a cell, or some of them), in the order pushed.
#[derive(Clone, Copy, Debug)]
struct Around {
    cells: [u32; 8],
    len: usize,
}

impl Around {
    /// The neighbours of board index `i`, row-major (as [`Grid::neighbours`], on indices: the
    /// analyzer asks for them for every number of every board it analyses).
    fn new(grid: Grid, i: usize) -> Around {
        let (w, h) = (grid.width(), grid.height());
        let (x, y) = (i % w, i / w);
        let mut a = Around {
            cells: [0; 8],
            len: 0,
        };
        for row in y.saturating_sub(1)..=(y + 1).min(h - 1) {
            for j in row * w + x.saturating_sub(1)..=row * w + (x + 1).min(w - 1) {
                if j != i {
                    a.cells[a.len] = j as u32;
                    a.len += 1;
                }
            }
        }
        a
    }

    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.cells[..self.len].iter().map(|&c| c as usize)
    }
}

/// Collects at most 8 indices.
///
/// # Panics
/// If there are more than 8.
impl FromIterator<usize> for Around {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Around {
        let mut a = Around {
            cells: [0; 8],
            len: 0,
        };
        for i in iter {
            a.cells[a.len] = i as u32;
            a.len += 1;
        }
        a
    }
}

/// A set of frontier cells that touch exactly the same constraints: they are interchangeable.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    /// Board indices, ascending.
    pub cells: Vec<usize>,
    /// Indices into the component's `needs`, ascending.
    pub constraints: Vec<usize>,
}

/// An independent part of the frontier: no constraint links it to another component.
#[derive(Clone, Debug, Default)]
pub(crate) struct Component {
    pub groups: Vec<Group>,
    /// The number of mines each constraint needs among its (undecided) cells.
    pub needs: Vec<usize>,
    /// A board index of one of its numbers, to name in an error message.
    pub at: usize,
}

/// The board reduced to what must be enumerated.
#[derive(Debug)]
pub(crate) struct System {
    /// Per board cell.
    pub known: Vec<Known>,
    pub components: Vec<Component>,
    /// Undecided hidden cells touching no number: their number.
    pub off: usize,
    /// Mines not flagged and not deduced: they lie in the components and off the frontier.
    pub mines_left: usize,
}

const NONE: u32 = u32::MAX;

/// The constraints of a board and the deductions made so far.
struct Deducer<'a> {
    board: &'a Board,
    known: Vec<Known>,
    constraints: Vec<Constraint>,
    /// Per board cell: the index of its constraint, or `NONE`.
    constraint_of: Vec<u32>,
    /// Mines not flagged and not deduced.
    mines_left: usize,
}

impl System {
    /// Checks the numbers, makes the trivial and subset deductions, and splits what is left.
    ///
    /// # Errors
    /// An [`Inconsistency`] found on the way (not every one: enumeration finds the rest).
    pub(crate) fn build(board: &Board) -> Result<System, Inconsistency> {
        let mut d = Deducer::new(board)?;
        d.deduce()?;
        Ok(d.split())
    }
}

impl<'a> Deducer<'a> {
    fn new(board: &'a Board) -> Result<Deducer<'a>, Inconsistency> {
        let flags = board.flags();
        if flags > board.mines() {
            return Err(Inconsistency::TooManyFlags {
                flags,
                mines: board.mines(),
            });
        }
        let n = board.cells().len();
        let known = board
            .cells()
            .iter()
            .map(|&c| match c {
                Cell::Hidden => Known::Unknown,
                _ => Known::Shown,
            })
            .collect();
        let mut d = Deducer {
            board,
            known,
            constraints: Vec::new(),
            constraint_of: vec![NONE; n],
            mines_left: board.mines() - flags,
        };
        for i in 0..n {
            if let Cell::Revealed(number) = board.cells()[i] {
                d.add_constraint(i, number)?;
            }
        }
        Ok(d)
    }

    fn around(&self, i: usize) -> Around {
        Around::new(self.board.grid(), i)
    }

    fn add_constraint(&mut self, i: usize, number: u8) -> Result<(), Inconsistency> {
        let (cells, around) = (self.board.cells(), self.around(i));
        let flagged = around.iter().filter(|&j| cells[j] == Cell::Flagged).count();
        let hidden: Around = around
            .iter()
            .filter(|&j| cells[j] == Cell::Hidden)
            .collect();
        let number_usize = usize::from(number);
        if number_usize < flagged || number_usize > flagged + hidden.len {
            return Err(Inconsistency::Number {
                at: self.board.pos(i),
                number,
                flagged,
                hidden: hidden.len,
            });
        }
        if hidden.len > 0 {
            self.constraint_of[i] = self.constraints.len() as u32;
            self.constraints.push(Constraint {
                at: i,
                need: number_usize - flagged,
                hidden,
            });
        }
        Ok(())
    }

    /// The undecided cells of constraint `c` and how many mines they hold.
    fn undecided(&self, c: usize) -> Result<(Around, usize), Inconsistency> {
        let con = self.constraints[c];
        let known = |j: usize| self.known[j];
        let cells: Around = con
            .hidden
            .iter()
            .filter(|&j| known(j) == Known::Unknown)
            .collect();
        let mines = con
            .hidden
            .iter()
            .filter(|&j| known(j) == Known::Mine)
            .count();
        match con.need.checked_sub(mines) {
            Some(need) if need <= cells.len => Ok((cells, need)),
            _ => Err(Inconsistency::Numbers {
                at: self.board.pos(con.at),
            }),
        }
    }

    /// Decides `cells` as `to` and queues the constraints around them.
    fn decide(
        &mut self,
        cells: impl Iterator<Item = usize>,
        to: Known,
        queue: &mut Vec<u32>,
        queued: &mut [bool],
    ) -> Result<(), Inconsistency> {
        for j in cells {
            if self.known[j] != Known::Unknown {
                continue;
            }
            self.known[j] = to;
            if to == Known::Mine {
                self.mines_left = self
                    .mines_left
                    .checked_sub(1)
                    .ok_or_else(|| mine_count(self.board))?;
            }
            for k in self.around(j).iter() {
                let c = self.constraint_of[k];
                if c != NONE && !queued[c as usize] {
                    queued[c as usize] = true;
                    queue.push(c);
                }
            }
        }
        Ok(())
    }

    /// Trivial deductions (a number whose cells are all safe or all mines) and subset deductions (a
    /// number whose undecided cells lie within another's), to a fixpoint.
    fn deduce(&mut self) -> Result<(), Inconsistency> {
        let mut queue: Vec<u32> = (0..self.constraints.len() as u32).rev().collect();
        let mut queued = vec![true; self.constraints.len()];
        while let Some(c) = queue.pop() {
            let c = c as usize;
            queued[c] = false;
            let (cells, need) = self.undecided(c)?;
            if cells.len == 0 {
                continue;
            }
            if need == 0 || need == cells.len {
                let to = if need == 0 { Known::Safe } else { Known::Mine };
                self.decide(cells.iter(), to, &mut queue, &mut queued)?;
                continue;
            }
            self.deduce_subsets(c, &cells, need, &mut queue, &mut queued)?;
        }
        Ok(())
    }

    /// Compares constraint `c` with every constraint whose undecided cells contain its own (their
    /// numbers are at most 2 columns and rows apart).
    fn deduce_subsets(
        &mut self,
        c: usize,
        cells: &Around,
        need: usize,
        queue: &mut Vec<u32>,
        queued: &mut [bool],
    ) -> Result<(), Inconsistency> {
        let grid = self.board.grid();
        let at = self.constraints[c].at;
        for q in grid.block(grid.pos(at), 2) {
            let b = self.constraint_of[grid.index(q)];
            if b != NONE && b as usize != c {
                self.deduce_subset(at, (cells, need), b as usize, queue, queued)?;
            }
        }
        Ok(())
    }

    /// If constraint `b`'s undecided cells strictly contain `small` (the undecided cells of the
    /// number at `at` and the mines they hold), and the cells outside are then all safe or all
    /// mines, decides them.
    fn deduce_subset(
        &mut self,
        at: usize,
        (cells, need): (&Around, usize),
        b: usize,
        queue: &mut Vec<u32>,
        queued: &mut [bool],
    ) -> Result<(), Inconsistency> {
        let (big, big_need) = self.undecided(b)?;
        let inside = |j: usize| cells.iter().any(|k| k == j);
        if big.len <= cells.len || !cells.iter().all(|j| big.iter().any(|k| k == j)) {
            return Ok(());
        }
        let rest = big.len - cells.len;
        let rest_need =
            big_need
                .checked_sub(need)
                .filter(|&r| r <= rest)
                .ok_or(Inconsistency::Numbers {
                    at: self.board.pos(at),
                })?;
        if rest_need == 0 || rest_need == rest {
            let to = if rest_need == 0 {
                Known::Safe
            } else {
                Known::Mine
            };
            let outside: Vec<usize> = big.iter().filter(|&j| !inside(j)).collect();
            self.decide(outside.into_iter(), to, queue, queued)?;
        }
        Ok(())
    }

    /// Groups the undecided frontier cells and splits them into independent components.
    fn split(self) -> System {
        // Each frontier cell's signature: the live constraints around it, ascending.
        let mut live = vec![false; self.constraints.len()];
        let mut needs = vec![0; self.constraints.len()];
        for c in 0..self.constraints.len() {
            let (cells, need) = self
                .undecided(c)
                .expect("deduction left a constraint inconsistent");
            live[c] = cells.len > 0;
            needs[c] = need;
        }
        // (cell, constraint) for every undecided cell of every live constraint, sorted: each
        // frontier cell's live constraints come together, ascending.
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for (c, &alive) in live.iter().enumerate() {
            if alive {
                let (cells, _) = self.undecided(c).expect("checked above");
                pairs.extend(cells.iter().map(|i| (i as u32, c as u32)));
            }
        }
        pairs.sort_unstable();
        let mut signed: Vec<([u32; 8], usize)> = Vec::new();
        for (k, &(i, c)) in pairs.iter().enumerate() {
            if k == 0 || pairs[k - 1].0 != i {
                signed.push(([NONE; 8], i as usize));
            }
            let sig = &mut signed.last_mut().expect("pushed above").0;
            let len = sig.iter().take_while(|&&d| d != NONE).count();
            sig[len] = c;
        }
        let unknown = self.known.iter().filter(|&&k| k == Known::Unknown).count();
        let off = unknown - signed.len();
        signed.sort_unstable();
        let mut groups: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
        for (k, (sig, i)) in signed.iter().enumerate() {
            if k == 0 || signed[k - 1].0 != *sig {
                let cs = sig.iter().take_while(|&&c| c != NONE).map(|&c| c as usize);
                groups.push((Vec::new(), cs.collect()));
            }
            groups.last_mut().expect("pushed above").0.push(*i);
        }
        let components = components(&groups, &needs, &self.constraints);
        System {
            known: self.known,
            components,
            off,
            mines_left: self.mines_left,
        }
    }
}

/// Splits the groups into components (breadth-first over constraints linked by groups), groups ordered so that each
/// constraint's groups come close together (breadth-first over constraints).
fn components(
    groups: &[(Vec<usize>, Vec<usize>)],
    needs: &[usize],
    constraints: &[Constraint],
) -> Vec<Component> {
    let m = needs.len();
    let mut groups_of: Vec<Vec<usize>> = vec![Vec::new(); m];
    for (g, (_, cs)) in groups.iter().enumerate() {
        for &c in cs {
            groups_of[c].push(g);
        }
    }
    let mut placed = vec![false; groups.len()];
    let mut seen = vec![false; m];
    let mut local = vec![usize::MAX; m];
    let mut out = Vec::new();
    for start in 0..m {
        if seen[start] || groups_of[start].is_empty() {
            continue;
        }
        let mut comp = Component {
            at: constraints[start].at,
            ..Component::default()
        };
        let mut order = vec![start];
        seen[start] = true;
        let mut head = 0;
        while head < order.len() {
            let c = order[head];
            head += 1;
            local[c] = comp.needs.len();
            comp.needs.push(needs[c]);
            for &g in &groups_of[c] {
                for &d in &groups[g].1 {
                    if !seen[d] {
                        seen[d] = true;
                        order.push(d);
                    }
                }
            }
        }
        for &c in &order {
            for &g in &groups_of[c] {
                if !placed[g] {
                    placed[g] = true;
                    comp.groups.push(Group {
                        cells: groups[g].0.clone(),
                        constraints: Vec::new(),
                    });
                    let last = comp.groups.last_mut().expect("pushed above");
                    last.constraints = groups[g].1.iter().map(|&d| local[d]).collect();
                }
            }
        }
        out.push(comp);
    }
    out
}

/// The inconsistency "the unflagged mines can't be placed", with the board's figures.
pub(crate) fn mine_count(board: &Board) -> Inconsistency {
    Inconsistency::MineCount {
        mines_left: board.mines() - board.flags(),
        hidden: board.cells().iter().filter(|&&c| c == Cell::Hidden).count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn around_is_the_grids_neighbours_on_indices() {
        for (w, h) in [(1, 1), (1, 4), (4, 1), (2, 2), (5, 4), (30, 16)] {
            let grid = Grid::new(w, h).unwrap();
            for i in 0..grid.cells() {
                let want: Vec<usize> = grid
                    .neighbours(grid.pos(i))
                    .map(|q| grid.index(q))
                    .collect();
                let got: Vec<usize> = Around::new(grid, i).iter().collect();
                assert_eq!(got, want, "{w}x{h}, cell {i}");
            }
        }
    }
}
