//! What clicking a candidate is expected to bring, over the numbers it may show.

use super::candidates::Candidate;
use crate::minesweeper::bot::calls::Calls;
use crate::minesweeper::bot::probabilities::mine_count_distribution;
use crate::minesweeper::bot::tolerance::{MASS_SLACK, NEGLIGIBLE, SCORE_TIE};
use crate::minesweeper::{Analysis, Board, Cell, Pos};

/// What clicking a safe cell is expected to bring, over the numbers it may show.
pub struct Outlook {
    /// The chance that the number proves some cell safe.
    pub progress: f64,
    /// The expected safety of the next click: 1 when a cell is proved safe, else 1 minus the
    /// lowest mine probability.
    pub safety: f64,
}

/// The [`Outlook`] of clicking the candidate `c` if it is safe: the numbers it may show are
/// weighted by the distribution of its mine neighbours (taken as independent), restricted to the
/// numbers that the analyzer finds consistent. `board` is the view, and is left as it was.
pub fn look(board: &mut Board, c: &Candidate, calls: &mut Calls) -> Outlook {
    let distribution = mine_count_distribution(&c.hidden);
    let (mut consistent, mut useful, mut safety) = (0.0, 0.0, 0.0);
    for (k, &weight) in distribution.iter().enumerate() {
        if weight < NEGLIGIBLE {
            continue;
        }
        board.set(c.cell, Cell::Revealed(c.flagged + k as u8));
        if let Ok(after) = calls.analyze(board) {
            consistent += weight;
            if after.safe.is_empty() {
                let lowest = after.probabilities.iter().map(|c| c.1).fold(1.0, f64::min);
                safety += weight * (1.0 - lowest);
            } else {
                useful += weight;
                safety += weight;
            }
        }
    }
    board.set(c.cell, Cell::Hidden);
    if consistent > 0.0 {
        Outlook {
            progress: useful / consistent,
            safety: safety / consistent,
        }
    } else {
        Outlook {
            progress: 0.0,
            safety: 0.0,
        }
    }
}

/// The exact two-click outlook of one candidate.
pub struct Outcomes {
    /// The log of the number of arrangements of the view.
    pub ln_total: f64,
    /// The chance that the candidate is safe.
    pub safe: f64,
    /// The weight of the second-best safety in the next click's safety.
    pub blend: f64,
    /// The best score so far: a candidate that cannot beat it is abandoned.
    pub beat: f64,
    /// Whether the next click's safeties leave out dead cells (cells whose every neighbour is
    /// revealed, flagged or a proved mine: their number is known in advance).
    pub living: bool,
    /// Whether a number that proves only dead cells safe counts as proving nothing.
    pub living_clears: bool,
}

impl Outcomes {
    /// `sum over numbers k of P(c safe and shows k) * s_k`, `s_k` the safety of the next click
    /// (see [`crate::minesweeper::bot::Strategy::Secondary`]); `NEG_INFINITY` once it cannot
    /// beat `self.beat`. Numbers are tried likeliest first (by the neighbours' probabilities
    /// taken as independent), and the loop stops when they hold all of `P(c safe)`. `board` is
    /// left as it was.
    /// `common` gathers what the numbers tried have in common.
    pub fn score(
        &self,
        board: &mut Board,
        c: &Candidate,
        calls: &mut Calls,
        common: &mut Common,
    ) -> f64 {
        let distribution = mine_count_distribution(&c.hidden);
        let mut order: Vec<usize> = (0..distribution.len()).collect();
        order.sort_by(|&a, &b| distribution[b].total_cmp(&distribution[a]).then(a.cmp(&b)));
        let (mut mass, mut score) = (0.0, 0.0);
        for k in order {
            if mass >= self.safe * (1.0 - MASS_SLACK) {
                break;
            }
            // Even if every remaining outcome were perfectly safe, no better than the best.
            if score + (self.safe - mass) <= self.beat + SCORE_TIE {
                board.set(c.cell, Cell::Hidden);
                return f64::NEG_INFINITY;
            }
            board.set(c.cell, Cell::Revealed(c.flagged + k as u8));
            let Ok(after) = calls.analyze(board) else {
                continue;
            };
            let weight = (after.ln_arrangements - self.ln_total).exp();
            mass += weight;
            score += weight * self.next_safety(board, &after);
            common.add(&after);
        }
        board.set(c.cell, Cell::Hidden);
        score
    }

    /// The safety of the next click on `board` analysed as `after`.
    fn next_safety(&self, board: &Board, after: &Analysis) -> f64 {
        if after.mines.len() == after.probabilities.len() {
            return 1.0;
        }
        let living_clear = || after.safe.iter().any(|&p| !dead(board, after, p));
        if !after.safe.is_empty() && (!self.living_clears || living_clear()) {
            return 1.0;
        }
        let blend = |living_only: bool| {
            let (mut p1, mut p2) = (1.0f64, 1.0f64);
            for &(cell, q) in &after.probabilities {
                if q == 0.0 || (living_only && q < 1.0 && dead(board, after, cell)) {
                    continue;
                }
                if q < p1 {
                    p2 = p1;
                    p1 = q;
                } else if q < p2 {
                    p2 = q;
                }
            }
            (p1 < 1.0).then(|| (1.0 - self.blend) * (1.0 - p1) + self.blend * (1.0 - p2))
        };
        if self.living {
            if let Some(s) = blend(true) {
                return s;
            }
        }
        blend(false).unwrap_or(0.0)
    }
}

/// What the numbers a candidate may show have in common, over the numbers tried.
#[derive(Clone, Debug, Default)]
pub struct Common {
    /// The cells proved safe after every number tried (`None` before the first).
    clears: Option<Vec<Pos>>,
    /// The single safest cell after every number (the only safe cell, or the only one of the
    /// lowest probability): `None` before the first number, `Some(None)` once it differs or is
    /// not single.
    safest: Option<Option<Pos>>,
}

impl Common {
    /// Adds the number whose board is analysed as `after`.
    fn add(&mut self, after: &Analysis) {
        let clears = match self.clears.take() {
            None => after.safe.clone(),
            Some(mut clears) => {
                clears.retain(|p| after.safe.contains(p));
                clears
            }
        };
        self.clears = Some(clears);
        let single = single_safest(after);
        self.safest = Some(match self.safest {
            None => single,
            Some(previous) if previous == single => single,
            Some(_) => None,
        });
    }

    /// The cells proved safe whatever number the candidate shows (of the numbers tried).
    pub fn clears(&self) -> &[Pos] {
        self.clears.as_deref().unwrap_or(&[])
    }

    /// The cell that is the single safest whatever number the candidate shows, if there is one.
    pub fn safest(&self) -> Option<Pos> {
        self.safest.flatten()
    }
}

/// The only safe cell on a board analysed as `after`, or, when none is safe, the only cell of the
/// lowest mine probability; `None` when there are several.
fn single_safest(after: &Analysis) -> Option<Pos> {
    if !after.safe.is_empty() {
        return (after.safe.len() == 1).then(|| after.safe[0]);
    }
    let lowest = after.probabilities.iter().map(|c| c.1).fold(1.0, f64::min);
    let mut at = after
        .probabilities
        .iter()
        .filter(|c| c.1 <= lowest + crate::minesweeper::NEAR_TIE);
    match (at.next(), at.next()) {
        (Some(&(p, _)), None) => Some(p),
        _ => None,
    }
}

/// Whether `cell`'s number is known in advance on `board` analysed as `after`: every neighbour is
/// revealed, flagged or a proved mine.
fn dead(board: &Board, after: &Analysis, cell: Pos) -> bool {
    board
        .neighbours(cell)
        .all(|q| board.get(q) != Cell::Hidden || after.mines.contains(&q))
}
