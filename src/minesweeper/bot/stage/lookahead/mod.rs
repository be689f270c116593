//! The lookahead: among the cells whose mine probability is close to the lowest, the one whose
//! click is expected to do best, judged by the numbers it may show.

mod candidates;
mod deep;
mod outlook;

use candidates::candidates;
use deep::Deep;
use outlook::{look, Common, Outcomes};

use crate::minesweeper::bot::calls::Calls;
use crate::minesweeper::bot::probabilities::probability_grid;
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
    /// With `deep`, the second move is looked at only when the two best one-move scores are
    /// within `close` thousandths (0: always).
    pub close: usize,
    /// Cells off the frontier are examined only if their safety is over `offedge` hundredths of
    /// the best frontier cell's (0: no such condition).
    pub offedge: usize,
    /// Whether the pick gives way to a safer cell that it dominates (0: no; 1: a cell proved
    /// safe whatever number the pick shows; 2: also the single safest cell after every number).
    pub dominance: usize,
}

/// How much safer a dominating cell must be than the pick.
const DOMINANCE_MARGIN: f64 = 1e-3;

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
        let mut best_common = Common::default();
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
                        living: self.pool.dominance & 8 != 0,
                        living_clears: self.pool.dominance & 16 != 0,
                    };
                    let mut common = Common::default();
                    let score = outcomes.score(&mut board, c, calls, &mut common);
                    if score > best.2 + SCORE_TIE {
                        best_common = common;
                    }
                    score
                }
            };
            if score > best.2 + SCORE_TIE {
                best = (c.cell, c.mine, score);
            }
        }
        self.dominating(view, analysis, &best_common, (best.0, best.1))
    }

    /// The pick `(cell, p)`, or a safer cell that dominates it (see [`Pool::dominance`]): a cell
    /// safe whenever the pick is safe can be clicked first at less risk, and the pick after it.
    fn dominating(
        &self,
        view: &Board,
        analysis: &Analysis,
        common: &Common,
        pick: (Pos, f64),
    ) -> (Pos, f64) {
        if self.pool.dominance & 3 == 0 {
            return pick;
        }
        let probability = probability_grid(view, analysis);
        let p = |q: Pos| probability[view.index(q)];
        let safer = |q: &Pos| p(*q) < pick.1 - DOMINANCE_MARGIN;
        let clear = common
            .clears()
            .iter()
            .filter(|q| safer(q))
            .min_by(|a, b| p(**a).total_cmp(&p(**b)).then(a.cmp(b)));
        if let Some(&q) = clear.filter(|_| self.pool.dominance & 1 != 0) {
            return (q, p(q));
        }
        match common.safest() {
            Some(q) if self.pool.dominance & 2 != 0 && safer(&q) => (q, p(q)),
            _ => pick,
        }
    }
}
