//! What clicking a candidate is expected to bring, over the numbers it may show.

use super::candidates::Candidate;
use crate::minesweeper::bot::calls::Calls;
use crate::minesweeper::bot::probabilities::mine_count_distribution;
use crate::minesweeper::bot::tolerance::{MASS_SLACK, NEGLIGIBLE, SCORE_TIE};
use crate::minesweeper::{Analysis, Board, Cell};

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
    /// The weight of the best safety among the other cells after a number that proves exactly
    /// one cell safe (0: such a number is worth 1, as when it proves several).
    pub lone: f64,
    /// The best score so far: a candidate that cannot beat it is abandoned.
    pub beat: f64,
}

impl Outcomes {
    /// `sum over numbers k of P(c safe and shows k) * s_k`, `s_k` the safety of the next click
    /// (see [`crate::minesweeper::bot::Strategy::Secondary`]); `NEG_INFINITY` once it cannot
    /// beat `self.beat`. Numbers are tried likeliest first (by the neighbours' probabilities
    /// taken as independent), and the loop stops when they hold all of `P(c safe)`. `board` is
    /// left as it was.
    pub fn score(&self, board: &mut Board, c: &Candidate, calls: &mut Calls) -> f64 {
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
            score += weight * self.next_safety(&after);
        }
        board.set(c.cell, Cell::Hidden);
        score
    }

    /// The safety of the next click on a board analysed as `after`: 1 if it proves two cells
    /// safe or every other hidden cell a mine; `1 - lone * p2` if it proves one cell safe, `p2`
    /// the lowest mine probability among the others; else the blend of the two best safeties.
    fn next_safety(&self, after: &Analysis) -> f64 {
        let decided = after.mines.len() + after.safe.len() == after.probabilities.len();
        if after.safe.len() > 1 || decided {
            return 1.0;
        }
        let (mut p1, mut p2) = (1.0f64, 1.0f64);
        for &(_, q) in &after.probabilities {
            if q < p1 {
                p2 = p1;
                p1 = q;
            } else if q < p2 {
                p2 = q;
            }
        }
        if after.safe.is_empty() {
            (1.0 - self.blend) * (1.0 - p1) + self.blend * (1.0 - p2)
        } else {
            1.0 - self.lone * p2
        }
    }
}
