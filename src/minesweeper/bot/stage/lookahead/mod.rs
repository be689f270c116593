//! The lookahead: among the cells whose mine probability is close to the lowest, the one whose
//! click is expected to do best, judged by the numbers it may show.

mod candidates;
mod deep;
mod outlook;

use candidates::candidates;
use deep::Deep;
use outlook::{look, Outcomes};

use crate::minesweeper::bot::calls::Calls;
use crate::minesweeper::bot::tolerance::SCORE_TIE;
use crate::minesweeper::{Analysis, Board, Pos};

/// How many cells the lookahead examines per guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pool {
    /// The most cells in all.
    pub candidates: usize,
    /// The most cells off the frontier (with no revealed neighbour) among them: these cells are
    /// nearly interchangeable, so a few (the ones with the fewest hidden neighbours) suffice.
    pub interior: usize,
    /// Of those, how many are kept for cells next to a frontier cell (the fewest hidden
    /// neighbours first): their number tells about the frontier.
    pub near: usize,
    /// How many of the best-scored cells get a second move of lookahead (0: none). For these,
    /// the safety after a number that proves nothing is the best one-move score on that board
    /// instead of the blend of its two best safeties.
    pub deep: usize,
}

/// How the lookahead scores a candidate (see [`crate::minesweeper::bot::Strategy`]).
#[derive(Clone, Copy, Debug)]
pub enum Score {
    /// `(1 - p) * (1 - next_risk * (1 - progress))`.
    Progress { next_risk: f64 },
    /// `(1 - p) * E[1 - p_next]`, with weights from the neighbours' probabilities.
    Survival,
    /// The exact two-click score, blending the two best next safeties.
    Secondary { blend: f64 },
}

/// The stage: which cells it examines and how it scores them.
#[derive(Clone, Copy, Debug)]
pub struct Lookahead {
    /// The candidates are the cells whose probability is within `window * (1 - p_min)` of the
    /// lowest, `p_min`.
    pub window: f64,
    pub pool: Pool,
    pub score: Score,
}

impl Lookahead {
    /// The best-scored candidate, with its mine probability. `calls` counts the analyzer calls.
    ///
    /// # Panics
    /// If `analysis.probabilities` is empty (a game in progress always has a hidden cell).
    #[must_use]
    pub fn guess(&self, view: &Board, analysis: &Analysis, calls: &mut Calls) -> (Pos, f64) {
        let candidates = candidates(view, analysis, self.window, self.pool);
        if let (Score::Secondary { blend }, true) = (self.score, self.pool.deep > 0) {
            let deep = Deep {
                window: self.window,
                pool: self.pool,
                blend,
            };
            return deep.choose(view, analysis, &candidates, calls);
        }
        let mut board = view.clone();
        let mut best = (candidates[0].cell, candidates[0].mine, f64::NEG_INFINITY);
        for c in &candidates {
            // The score is at most 1 - q, and the candidates come safest first: none left can win.
            if 1.0 - c.mine <= best.2 + SCORE_TIE {
                break;
            }
            let score = match self.score {
                Score::Progress { next_risk } => {
                    let next = look(&mut board, c, calls);
                    (1.0 - c.mine) * (1.0 - next_risk * (1.0 - next.progress))
                }
                Score::Survival => (1.0 - c.mine) * look(&mut board, c, calls).safety,
                Score::Secondary { blend } => {
                    let outcomes = Outcomes {
                        ln_total: analysis.ln_arrangements,
                        safe: 1.0 - c.mine,
                        blend,
                        beat: best.2,
                    };
                    outcomes.score(&mut board, c, calls)
                }
            };
            if score > best.2 + SCORE_TIE {
                best = (c.cell, c.mine, score);
            }
        }
        (best.0, best.1)
    }
}
