//! The two-move lookahead of [`Pool::deep`].

use super::candidates::{candidates, Candidate};
use super::outlook::Outcomes;
use super::Pool;
use crate::minesweeper::bot::calls::Calls;
use crate::minesweeper::bot::probabilities::mine_count_distribution;
use crate::minesweeper::bot::tolerance::{MASS_SLACK, SCORE_TIE};
use crate::minesweeper::{Analysis, Board, Cell, Pos};

/// The two-move lookahead: the best [`Pool::deep`] candidates by their one-move score get a
/// second move.
pub struct Deep {
    pub window: f64,
    pub pool: Pool,
    pub blend: f64,
    pub lone: f64,
}

impl Deep {
    /// Scores `candidates` one move ahead, keeps the best `pool.deep`, and returns the one with
    /// the best two-move score with its mine probability.
    pub fn choose(
        &self,
        view: &Board,
        analysis: &Analysis,
        candidates: &[Candidate],
        calls: &mut Calls,
    ) -> (Pos, f64) {
        let mut board = view.clone();
        let top = self.top(&mut board, analysis, candidates, self.pool.deep, calls);
        let first = &candidates[top.first().map_or(0, |t| t.0)];
        let mut best = (first.cell, first.mine, f64::NEG_INFINITY);
        for &(i, _) in &top {
            let c = &candidates[i];
            if 1.0 - c.mine <= best.2 + SCORE_TIE {
                continue;
            }
            let score = self.two_moves(&mut board, analysis, c, calls);
            if score > best.2 + SCORE_TIE {
                best = (c.cell, c.mine, score);
            }
        }
        (best.0, best.1)
    }

    /// The indices of the best `keep` candidates by their one-move score, best first (ties in
    /// candidate order), with their scores.
    fn top(
        &self,
        board: &mut Board,
        analysis: &Analysis,
        candidates: &[Candidate],
        keep: usize,
        calls: &mut Calls,
    ) -> Vec<(usize, f64)> {
        let mut top: Vec<(usize, f64)> = Vec::with_capacity(keep + 1);
        for (i, c) in candidates.iter().enumerate() {
            let beat = if top.len() < keep {
                f64::NEG_INFINITY
            } else {
                top[top.len() - 1].1
            };
            if 1.0 - c.mine <= beat + SCORE_TIE {
                break;
            }
            let outcomes = Outcomes {
                ln_total: analysis.ln_arrangements,
                safe: 1.0 - c.mine,
                blend: self.blend,
                lone: self.lone,
                beat,
            };
            let score = outcomes.score(board, c, calls);
            if score > beat + SCORE_TIE {
                let at = top.partition_point(|t| t.1 + SCORE_TIE >= score);
                top.insert(at, (i, score));
                top.truncate(keep);
            }
        }
        top
    }

    /// `sum over numbers k of P(c safe and shows k) * v_k`, where `v_k` is 1 if the number
    /// proves a cell safe (or leaves only mines), else the best one-move score on that board.
    fn two_moves(
        &self,
        board: &mut Board,
        analysis: &Analysis,
        c: &Candidate,
        calls: &mut Calls,
    ) -> f64 {
        let safe = 1.0 - c.mine;
        let distribution = mine_count_distribution(&c.hidden);
        let (mut mass, mut score) = (0.0, 0.0);
        for k in 0..distribution.len() {
            if mass >= safe * (1.0 - MASS_SLACK) {
                break;
            }
            board.set(c.cell, Cell::Revealed(c.flagged + k as u8));
            let Ok(after) = calls.analyze(board) else {
                continue;
            };
            let weight = (after.ln_arrangements - analysis.ln_arrangements).exp();
            mass += weight;
            score += weight * self.next_score(board, &after, calls);
        }
        board.set(c.cell, Cell::Hidden);
        score
    }

    /// The best one-move score on `board` analysed as `after` (1 if a cell is safe).
    fn next_score(&self, board: &Board, after: &Analysis, calls: &mut Calls) -> f64 {
        if !after.safe.is_empty() || after.mines.len() == after.probabilities.len() {
            return 1.0;
        }
        let candidates = candidates(board, after, self.window, self.pool);
        let mut scratch = board.clone();
        let top = self.top(&mut scratch, after, &candidates, 1, calls);
        top.first().map_or(0.0, |t| t.1)
    }
}
