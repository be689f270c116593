//! The lookahead: among the cells whose mine probability is close to the lowest, the one whose
//! click is expected to do best, judged by the numbers it may show.

mod candidates;
mod deep;
mod influence;
mod outlook;

use candidates::{candidates, Candidate};
use deep::Deep;
use influence::Influence;
use outlook::{look, Outcomes};

use crate::minesweeper::bot::calls::Calls;
use crate::minesweeper::bot::probabilities::{lowest, probability_grid};
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
    /// With a 50/50 influence weight, up to this many more cells outside the window (row-major)
    /// whose safety plus their share of possible 50/50s (see `Influence::share`) reaches the
    /// window's safety.
    pub extra: usize,
}

/// How the lookahead scores a candidate (see [`crate::minesweeper::bot::Strategy`]).
#[derive(Clone, Copy, Debug)]
pub enum Score {
    /// `(1 - p) * (1 - next_risk * (1 - progress))`.
    Progress { next_risk: f64 },
    /// `(1 - p) * E[1 - p_next]`, with weights from the neighbours' probabilities.
    Survival,
    /// The exact two-click score, blending the two best next safeties (see [`Outcomes`]).
    Secondary { blend: f64, lone: f64 },
}

/// The stage: which cells it examines and how it scores them.
#[derive(Clone, Copy, Debug)]
pub struct Lookahead {
    /// The candidates are the cells whose probability is within `window * (1 - p_min)` of the
    /// lowest, `p_min`.
    pub window: f64,
    pub pool: Pool,
    pub score: Score,
    /// With the `Secondary` score and no second move, a weight `w` above 0 multiplies a
    /// candidate's score by `1 + w * i / (1 - p)`, where `p` is its mine probability and `i` the
    /// share of the arrangements in which it is safe and part of a possible 50/50 (see
    /// [`Influence::share`]): clicking it now settles that 50/50 before it forms.
    pub influence: f64,
}

impl Lookahead {
    /// The best-scored candidate, with its mine probability. `calls` counts the analyzer calls.
    ///
    /// # Panics
    /// If `analysis.probabilities` is empty (a game in progress always has a hidden cell).
    #[must_use]
    pub fn guess(&self, view: &Board, analysis: &Analysis, calls: &mut Calls) -> (Pos, f64) {
        let candidates = candidates(view, analysis, self.window, self.pool);
        if let (Score::Secondary { blend, lone }, true) = (self.score, self.pool.deep > 0) {
            let deep = Deep {
                window: self.window,
                pool: self.pool,
                blend,
                lone,
            };
            return deep.choose(view, analysis, &candidates, calls);
        }
        if let (Score::Secondary { blend, lone }, true) = (self.score, self.influence > 0.0) {
            return self.influenced(view, analysis, &candidates, blend, lone, calls);
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
                Score::Secondary { blend, lone } => {
                    let outcomes = Outcomes {
                        ln_total: analysis.ln_arrangements,
                        safe: 1.0 - c.mine,
                        blend,
                        lone,
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

    /// The `Secondary` score times each candidate's 50/50 influence factor: the best candidate
    /// with its mine probability.
    fn influenced(
        &self,
        view: &Board,
        analysis: &Analysis,
        candidates: &[Candidate],
        blend: f64,
        lone: f64,
        calls: &mut Calls,
    ) -> (Pos, f64) {
        let probability = probability_grid(view, analysis);
        let mut influence = Influence::new(view, analysis, &probability);
        let extra = self.extra(
            view,
            analysis,
            &probability,
            candidates,
            &mut influence,
            calls,
        );
        let mut board = view.clone();
        let mut best = (candidates[0].cell, candidates[0].mine, f64::NEG_INFINITY);
        let listed = candidates.iter().map(|c| (c, None));
        for (c, known) in listed.chain(extra.iter().map(|(c, i)| (c, Some(*i)))) {
            let safe = 1.0 - c.mine;
            // The share is at most `min(p, 1 - p)`: the factor at most `1 + w * p / (1 - p)`.
            if safe + self.influence * c.mine.min(safe) <= best.2 + SCORE_TIE {
                continue;
            }
            let share = known.unwrap_or_else(|| influence.share(c.cell, calls));
            let factor = 1.0 + self.influence * share / safe;
            // The score is at most `safe * factor`.
            if safe * factor <= best.2 + SCORE_TIE {
                continue;
            }
            let outcomes = Outcomes {
                ln_total: analysis.ln_arrangements,
                safe,
                blend,
                lone,
                beat: best.2 / factor,
            };
            let score = outcomes.score(&mut board, c, calls) * factor;
            if score > best.2 + SCORE_TIE {
                best = (c.cell, c.mine, score);
            }
        }
        (best.0, best.1)
    }

    /// Up to [`Pool::extra`] cells outside the window and not among `candidates` whose safety
    /// plus their 50/50 share reaches the window's lowest safety, `(1 - p_min) * (1 - window)`,
    /// row-major, each with its share. Only the cells whose share, estimated with independent
    /// cells (see [`Influence::estimate`]), is at least [`MIN_ESTIMATE`] are counted exactly.
    fn extra(
        &self,
        view: &Board,
        analysis: &Analysis,
        probability: &[f64],
        candidates: &[Candidate],
        influence: &mut Influence,
        calls: &mut Calls,
    ) -> Vec<(Candidate, f64)> {
        let mut extra = Vec::new();
        if self.pool.extra == 0 {
            return extra;
        }
        let (_, p_min) = lowest(analysis);
        let limit = (1.0 - p_min) * (1.0 - self.window) - SCORE_TIE;
        for &(cell, q) in &analysis.probabilities {
            let safe = 1.0 - q;
            if safe >= limit
                || safe + q.min(safe) < limit
                || candidates.iter().any(|c| c.cell == cell)
            {
                continue;
            }
            if influence.estimate(cell) < MIN_ESTIMATE {
                continue;
            }
            let share = influence.share(cell, calls);
            if safe + share >= limit {
                extra.push((Candidate::new(view, probability, cell, q), share));
                if extra.len() == self.pool.extra {
                    break;
                }
            }
        }
        extra
    }
}

/// The smallest estimated 50/50 share for which a cell outside the window is counted exactly.
const MIN_ESTIMATE: f64 = 0.01;
