//! The analysis of a board: safe cells, certain mines, every hidden cell's exact mine probability,
//! and the recommended click.

use super::big::Big;
use super::combine::{combine, combine_cost, count, COMBINE_BUDGET};
use super::enumerate::{enumerate, Table, WORK_BUDGET};
use super::frontier::{mine_count, Known, System};
use crate::minesweeper::board::{Board, Cell};
use crate::minesweeper::error::{Budget, Error, Inconsistency};
use crate::minesweeper::grid::Pos;

/// What [`analyze`] finds. Every list is row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Hidden cells that are a mine in no arrangement.
    pub safe: Vec<Pos>,
    /// Hidden unflagged cells that are a mine in every arrangement.
    pub mines: Vec<Pos>,
    /// The recommended click with its mine probability: the first safe cell if there is one, else
    /// the best guess (see [`best_guess`]). `None` if no hidden unflagged cell can be safe: none is
    /// hidden, or every one is a certain mine.
    pub best: Option<(Pos, f64)>,
    /// Every hidden unflagged cell with its mine probability (within [`PROBABILITY_ERROR`] of the
    /// exact ratio; exactly 0 for a safe cell and exactly 1 for a certain mine).
    pub probabilities: Vec<(Pos, f64)>,
    /// The natural log of the number of arrangements of the mines that agree with the board (the
    /// flags counted as mines), within [`LN_RELATIVE_ERROR`] relative: two boards' counts can be
    /// compared.
    pub ln_arrangements: f64,
}

/// The exact result: every hidden unflagged cell's probability as a ratio of two big integers.
#[derive(Debug)]
pub struct ExactAnalysis {
    /// The numerators: index 0 is 0, index 1 is 1, then one per group, then the off-frontier cells'.
    numerators: Vec<Big>,
    /// The denominators: index 0 is 1, index 1 the total, index 2 the total times the cells off the
    /// frontier.
    denominators: [Big; 3],
    /// Every hidden unflagged cell, row-major, with its numerator and denominator indices.
    cells: Vec<(Pos, usize, usize)>,
    /// As [`Analysis::ln_arrangements`].
    ln_arrangements: f64,
}

impl ExactAnalysis {
    /// As [`cells`](Self::cells), with an id per distinct ratio: cells with the same id have the
    /// same probability (ids are below [`ratio_count`](Self::ratio_count)).
    pub fn cells_with_ids(&self) -> impl Iterator<Item = (Pos, usize, &Big, &Big)> + '_ {
        self.cells
            .iter()
            .map(move |&(p, n, d)| (p, n, &self.numerators[n], &self.denominators[d]))
    }

    /// One more than the largest id [`cells_with_ids`](Self::cells_with_ids) gives.
    #[must_use]
    pub fn ratio_count(&self) -> usize {
        self.numerators.len()
    }

    /// Every hidden unflagged cell, row-major, with its mine probability `numerator / denominator`.
    pub fn cells(&self) -> impl Iterator<Item = (Pos, &Big, &Big)> + '_ {
        self.cells
            .iter()
            .map(move |&(p, n, d)| (p, &self.numerators[n], &self.denominators[d]))
    }

    /// The hidden cells that are a mine in no arrangement, row-major.
    pub fn safe(&self) -> impl Iterator<Item = Pos> + '_ {
        self.cells()
            .filter(|(_, n, _)| n.is_zero())
            .map(|(p, _, _)| p)
    }

    /// The hidden unflagged cells that are a mine in every arrangement, row-major.
    pub fn mines(&self) -> impl Iterator<Item = Pos> + '_ {
        self.cells().filter(|(_, n, d)| n == d).map(|(p, _, _)| p)
    }

    /// Every hidden unflagged cell, row-major, with its mine probability as an `f64` (see
    /// [`Analysis::probabilities`]).
    #[must_use]
    pub fn probabilities(&self) -> Vec<(Pos, f64)> {
        // The f64 of each distinct ratio, computed once: on a big board most cells share one.
        let mut cache: Vec<Option<f64>> = vec![None; self.ratio_count()];
        self.cells_with_ids()
            .map(|(p, id, n, d)| (p, *cache[id].get_or_insert_with(|| Big::ratio_f64(n, d))))
            .collect()
    }

    /// The recommended click on `board` (the board analysed), as [`Analysis::best`]. The
    /// probabilities are computed only if no cell is safe.
    #[must_use]
    pub fn best(&self, board: &Board) -> Option<(Pos, f64)> {
        recommend(board, self.safe().next(), || self.probabilities())
    }

    /// As [`Analysis::ln_arrangements`].
    #[must_use]
    pub fn ln_arrangements(&self) -> f64 {
        self.ln_arrangements
    }
}

/// A board's frontier and its components' tables: the steps of [`analyze_exact`] before the
/// combination, within the budgets.
struct Tables {
    system: System,
    tables: Vec<Table>,
}

impl Tables {
    /// The frontier system of `board` and every component's table.
    ///
    /// # Errors
    /// As [`analyze_exact`].
    fn of(board: &Board) -> Result<Tables, Error> {
        let system = System::build(board)?;
        let frontier: usize = system
            .components
            .iter()
            .flat_map(|c| &c.groups)
            .map(|g| g.cells.len())
            .sum();
        let too_complex = |budget| Error::TooComplex {
            budget,
            frontier,
            components: system.components.len(),
        };
        let mut work = WORK_BUDGET;
        let mut tables = Vec::with_capacity(system.components.len());
        for c in &system.components {
            let t = enumerate(c, system.mines_left, &mut work).ok_or_else(|| {
                too_complex(if work == 0 {
                    Budget::Enumeration
                } else {
                    Budget::TableSize
                })
            })?;
            if t.ways.iter().all(Big::is_zero) {
                return Err(Inconsistency::Numbers {
                    at: board.pos(c.at),
                }
                .into());
            }
            tables.push(t);
        }
        if combine_cost(&tables, frontier, system.mines_left) > COMBINE_BUDGET {
            return Err(too_complex(Budget::Combination));
        }
        Ok(Tables { system, tables })
    }
}

/// As [`Analysis::ln_arrangements`] (the same value, to the bit), without the probabilities: the
/// cheaper call when only the count matters.
///
/// # Errors
/// As [`analyze_exact`], in the same cases.
pub fn ln_arrangements(board: &Board) -> Result<f64, Error> {
    let Tables { system, tables } = Tables::of(board)?;
    let (total, ln_scale) =
        count(&tables, system.off, system.mines_left).ok_or_else(|| mine_count(board))?;
    Ok(total.ln() + ln_scale)
}

/// Analyses a board exactly; see [`analyze`].
///
/// # Errors
/// [`Error::Inconsistent`] if no arrangement of the mines agrees with the board;
/// [`Error::TooComplex`] if the work would exceed a budget (see `docs/minesweeper.md`).
pub fn analyze_exact(board: &Board) -> Result<ExactAnalysis, Error> {
    let Tables { system, tables } = Tables::of(board)?;
    let counts =
        combine(&tables, system.off, system.mines_left).ok_or_else(|| mine_count(board))?;
    let mut numerators = vec![Big::zero(), Big::from_u64(1)];
    // group_index[board cell]: its numerator index, for frontier cells.
    let mut group_index = vec![usize::MAX; board.cells().len()];
    for (comp, nums) in system.components.iter().zip(counts.groups) {
        for (group, num) in comp.groups.iter().zip(nums) {
            for &i in &group.cells {
                group_index[i] = numerators.len();
            }
            numerators.push(num);
        }
    }
    let off_index = numerators.len();
    numerators.push(counts.off_mines);
    let mut off_den = counts.total.clone();
    off_den.mul_small(system.off.max(1) as u64);
    let cells = (0..board.cells().len())
        .filter(|&i| board.cells()[i] == Cell::Hidden)
        .map(|i| {
            let (n, d) = match system.known[i] {
                Known::Safe => (0, 0),
                Known::Mine => (1, 0),
                _ if group_index[i] != usize::MAX => (group_index[i], 1),
                _ => (off_index, 2),
            };
            (board.pos(i), n, d)
        })
        .collect();
    let ln_arrangements = counts.total.ln() + counts.ln_scale;
    Ok(ExactAnalysis {
        ln_arrangements,
        numerators,
        denominators: [Big::from_u64(1), counts.total, off_den],
        cells,
    })
}

/// Finds the safe cells, the certain mines and every hidden unflagged cell's mine probability,
/// every arrangement of the mines that agrees with the board being equally likely.
///
/// # Errors
/// As [`analyze_exact`].
pub fn analyze(board: &Board) -> Result<Analysis, Error> {
    let exact = analyze_exact(board)?;
    let safe: Vec<Pos> = exact.safe().collect();
    let probabilities = exact.probabilities();
    let best = recommend(board, safe.first().copied(), || &probabilities[..]);
    Ok(Analysis {
        ln_arrangements: exact.ln_arrangements,
        mines: exact.mines().collect(),
        safe,
        best,
        probabilities,
    })
}

/// The recommended click: `safe` (a safe cell) with probability 0 if there is one, else
/// [`best_guess`] over `probabilities()` (called only then).
fn recommend<P: AsRef<[(Pos, f64)]>>(
    board: &Board,
    safe: Option<Pos>,
    probabilities: impl FnOnce() -> P,
) -> Option<(Pos, f64)> {
    match safe {
        Some(p) => Some((p, 0.0)),
        None => best_guess(board, probabilities().as_ref()),
    }
}

/// Two probabilities closer than this are a near-tie for [`best_guess`]: a difference too small to
/// be worth a worse-placed guess, and far wider than the error of a probability
/// ([`PROBABILITY_ERROR`]), so that rounding never decides between two equal ratios.
pub const NEAR_TIE: f64 = 1e-9;

/// The largest error of a probability in [`Analysis::probabilities`] (in fact a few ulps): two
/// probabilities closer than this may be the same ratio.
pub const PROBABILITY_ERROR: f64 = 1e-12;

/// The largest relative error of [`Analysis::ln_arrangements`] and of [`Big::ln`].
pub const LN_RELATIVE_ERROR: f64 = 1e-12;

/// The guess to make when no cell is safe: among the cells that can be safe (probability below 1)
/// whose mine probability is within [`NEAR_TIE`] of the lowest, the one with the fewest hidden
/// unflagged neighbours (it is the likeliest to show a 0 and open an area; corners first), then
/// the first row-major. `None` if no cell can be safe: none is hidden, or every one is a certain
/// mine (probability exactly 1).
#[must_use]
pub fn best_guess(board: &Board, probabilities: &[(Pos, f64)]) -> Option<(Pos, f64)> {
    let lowest = probabilities
        .iter()
        .map(|&(_, p)| p)
        .fold(f64::INFINITY, f64::min);
    let hidden_around = |p: Pos| {
        board
            .neighbours(p)
            .filter(|&q| board.get(q) == Cell::Hidden)
            .count()
    };
    probabilities
        .iter()
        .filter(|&&(_, p)| p < 1.0 && p <= lowest + NEAR_TIE)
        .min_by_key(|&&(p, _)| (hidden_around(p), p))
        .copied()
}
