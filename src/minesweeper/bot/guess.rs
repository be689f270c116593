//! How the bot guesses when no cell is proved safe.

use super::endgame::{self, best_click};
use super::fifty;
use crate::minesweeper::{analyze, Analysis, Board, Cell, Pos};

/// A guessing strategy. All are deterministic: the same position gives the same guess.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Strategy {
    /// The lowest mine probability; ties go to the first cell in row-major order.
    Lowest,
    /// The analyzer's own recommendation (`Analysis::best`).
    Analyzer,
    /// One move of lookahead. Among the cells whose probability `p` is close to the lowest, pick
    /// the one that maximizes `(1 - p) * (1 - next_risk * (1 - progress))`, where `progress` is
    /// the chance that the number it shows (estimated from its neighbours' probabilities, over
    /// the values the analyzer finds consistent) proves some cell safe, and `next_risk` is the
    /// assumed risk of the next guess that a guess without progress leads to.
    Progress { next_risk: f64 },
    /// As `Progress`, but when few arrangements remain (see [`super::endgame`]), the click that
    /// maximizes the exact chance of winning.
    Endgame { next_risk: f64 },
    /// As `Endgame`, but the lookahead maximizes the chance of surviving this click and the next:
    /// `(1 - p) * E[1 - p_next]`, where `p_next` is the lowest mine probability on the board after
    /// the number the cell shows (0 if that number proves a cell safe). `window` plays the part of
    /// `next_risk` only in choosing the candidates.
    Survival { window: f64 },
    /// As `Survival`, with exact weights: the chance that the cell is safe and shows each number
    /// is a ratio of arrangement counts (the analyzer's, before and after the number). The
    /// safety of the next click after a number is 1 if it proves a cell safe, else
    /// `(1 - blend) * s1 + blend * s2`, with `s1` and `s2` the two best safeties on the board then.
    /// The exact endgame search runs up to `endgame` arrangements. With `regions`, it first
    /// looks for a region of the board independent of the rest and small enough to solve exactly
    /// (see [`endgame::region_click`]). Past the endgame search, `forced` 50/50s are guessed
    /// before the lookahead.
    Secondary {
        window: f64,
        blend: f64,
        endgame: usize,
        regions: bool,
        pool: Pool,
        forced: Forced,
    },
}

/// Which guesses that the game must take anyway are taken at once (see [`fifty`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forced {
    /// None: the lookahead decides.
    None,
    /// Dead 50/50s: a pair or a 2x2 box that no number can ever resolve.
    Dead,
    /// Dead 50/50s, then pseudo-50/50s: a cell that is a mine only where it forms a dead 50/50.
    Pseudo,
}

/// How the lookahead scores a candidate.
#[derive(Clone, Copy)]
enum Score {
    Progress { next_risk: f64 },
    Survival,
    Secondary { blend: f64 },
}

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

/// The pool of the older strategies.
const SMALL_POOL: Pool = Pool {
    candidates: 8,
    interior: 2,
    near: 0,
    deep: 0,
};

impl Strategy {
    /// The `progress` lookahead with its default parameter.
    pub const PROGRESS: Strategy = Strategy::Progress { next_risk: 0.1 };
    /// The `progress` lookahead, and the exact search in the endgame.
    pub const ENDGAME: Strategy = Strategy::Endgame { next_risk: 0.1 };
    /// The two-click survival lookahead with approximate weights.
    pub const SURVIVAL: Strategy = Strategy::Survival { window: 0.1 };
    /// The exact-weight lookahead, with the endgame search up to 1,000 arrangements.
    pub const SECONDARY: Strategy = Strategy::Secondary {
        window: 0.1,
        blend: 0.2,
        endgame: 1000,
        regions: false,
        pool: Pool {
            candidates: 12,
            interior: 4,
            near: 0,
            deep: 0,
        },
        forced: Forced::None,
    };
    /// The best measured strategy: [`Strategy::SECONDARY`] with the endgame search up to 4,000
    /// arrangements, exact play in independent regions, and dead and pseudo-50/50s guessed at
    /// once.
    pub const REGIONS: Strategy = Strategy::Secondary {
        window: 0.1,
        blend: 0.2,
        endgame: 4000,
        regions: true,
        pool: Pool {
            candidates: 12,
            interior: 4,
            near: 0,
            deep: 0,
        },
        forced: Forced::Pseudo,
    };

    /// Picks a hidden, unflagged cell to click and returns it with its mine probability.
    /// `analyses` counts the analyzer calls the strategy makes.
    ///
    /// # Panics
    /// If `analysis.probabilities` is empty (a game in progress always has a hidden cell).
    pub fn choose(self, view: &Board, analysis: &Analysis, analyses: &mut u32) -> (Pos, f64) {
        match self {
            Strategy::Lowest => lowest(analysis),
            // `None` (no hidden cell can be safe) never happens in a game in progress.
            Strategy::Analyzer => analysis.best.unwrap_or((Pos::new(0, 0), 1.0)),
            Strategy::Progress { next_risk } => lookahead(
                view,
                analysis,
                next_risk,
                SMALL_POOL,
                Score::Progress { next_risk },
                analyses,
            ),
            Strategy::Endgame { next_risk } => {
                exact_endgame(view, analysis, endgame::MAX_ARRANGEMENTS).unwrap_or_else(|| {
                    let score = Score::Progress { next_risk };
                    lookahead(view, analysis, next_risk, SMALL_POOL, score, analyses)
                })
            }
            Strategy::Survival { window } => {
                exact_endgame(view, analysis, endgame::MAX_ARRANGEMENTS).unwrap_or_else(|| {
                    lookahead(
                        view,
                        analysis,
                        window,
                        SMALL_POOL,
                        Score::Survival,
                        analyses,
                    )
                })
            }
            Strategy::Secondary {
                window,
                blend,
                endgame,
                regions,
                pool,
                forced,
            } => {
                let region = || {
                    endgame::region_click(view, endgame, analysis.ln_arrangements)
                        .map(|(p, _win, q)| (p, q))
                };
                regions
                    .then(region)
                    .flatten()
                    .or_else(|| exact_endgame(view, analysis, endgame))
                    .or_else(|| match forced {
                        Forced::None => None,
                        Forced::Dead => fifty::forced(view, analysis, false, analyses),
                        Forced::Pseudo => fifty::forced(view, analysis, true, analyses),
                    })
                    .unwrap_or_else(|| {
                        let score = Score::Secondary { blend };
                        lookahead(view, analysis, window, pool, score, analyses)
                    })
            }
        }
    }
}

/// The endgame search's click and its mine probability, if at most `max` arrangements fit the
/// view (checked first on the analyzer's count, which costs nothing) and the search succeeds.
fn exact_endgame(view: &Board, analysis: &Analysis, max: usize) -> Option<(Pos, f64)> {
    if analysis.ln_arrangements > (max as f64).ln() + 1e-9 {
        return None;
    }
    best_click(view, max).map(|(p, _win, q)| (p, q))
}

/// The first cell with the lowest probability.
fn lowest(analysis: &Analysis) -> (Pos, f64) {
    let mut best = analysis.probabilities[0];
    for &(p, q) in &analysis.probabilities[1..] {
        if q < best.1 {
            best = (p, q);
        }
    }
    best
}

/// Every cell's mine probability from `analysis`, row-major (0 for a cell that is not hidden).
pub(super) fn probability_grid(view: &Board, analysis: &Analysis) -> Vec<f64> {
    let mut probability = vec![0.0; view.width() * view.height()];
    for &(p, q) in &analysis.probabilities {
        probability[view.index(p)] = q;
    }
    probability
}

/// Facts about one cell that the lookahead needs from the board.
struct Neighbourhood {
    /// The mine probabilities of its hidden, unflagged neighbours.
    hidden: Vec<f64>,
    /// Its flagged neighbours.
    flagged: u8,
    /// Whether it touches a revealed cell.
    on_frontier: bool,
    /// Whether one of its hidden neighbours touches a revealed cell.
    near_frontier: bool,
}

fn neighbourhood(view: &Board, probability: &[f64], p: Pos) -> Neighbourhood {
    let mut n = Neighbourhood {
        hidden: Vec::with_capacity(8),
        flagged: 0,
        on_frontier: false,
        near_frontier: false,
    };
    for q in view.neighbours(p) {
        match view.get(q) {
            Cell::Hidden => {
                n.hidden.push(probability[q.y * view.width() + q.x]);
                n.near_frontier |= view
                    .neighbours(q)
                    .any(|r| matches!(view.get(r), Cell::Revealed(_)));
            }
            Cell::Flagged => n.flagged += 1,
            Cell::Revealed(_) => n.on_frontier = true,
        }
    }
    n
}

/// The lookahead's candidates: the cells whose probability is within `window * (1 - p_min)` of
/// the lowest, safest first, trimmed to `pool`, each with its mine probability and neighbourhood.
fn candidates(
    view: &Board,
    analysis: &Analysis,
    window: f64,
    pool: Pool,
) -> Vec<(Pos, f64, Neighbourhood)> {
    let probability = probability_grid(view, analysis);
    let (_, lowest_p) = lowest(analysis);
    let limit = lowest_p + window * (1.0 - lowest_p) + 1e-12;
    let mut candidates: Vec<(Pos, f64, Neighbourhood)> = analysis
        .probabilities
        .iter()
        .filter(|&&(_, q)| q <= limit)
        .map(|&(p, q)| (p, q, neighbourhood(view, &probability, p)))
        .collect();
    // Safest first; then the fewest hidden neighbours (likelier to show a useful number); then
    // row-major, so that the order is total and the choice deterministic.
    candidates.sort_by(|a, b| {
        a.1.total_cmp(&b.1)
            .then(a.2.hidden.len().cmp(&b.2.hidden.len()))
            .then(a.0.cmp(&b.0))
    });
    let (mut plain, mut near) = (0, 0);
    let plain_slots = pool.interior - pool.near.min(pool.interior);
    candidates.retain(|c| {
        if c.2.on_frontier {
            return true;
        }
        if plain < plain_slots {
            plain += 1;
            return true;
        }
        if c.2.near_frontier && near < pool.interior - plain_slots {
            near += 1;
            return true;
        }
        false
    });
    candidates.truncate(pool.candidates);
    candidates
}

/// Scores the cells whose probability is within `window * (1 - p_min)` of the lowest, and returns
/// the best with its mine probability.
fn lookahead(
    view: &Board,
    analysis: &Analysis,
    window: f64,
    pool: Pool,
    score: Score,
    analyses: &mut u32,
) -> (Pos, f64) {
    let candidates = candidates(view, analysis, window, pool);
    if let (Score::Secondary { blend }, true) = (score, pool.deep > 0) {
        let deep = Deep {
            window,
            pool,
            blend,
        };
        return deep.choose(view, analysis, &candidates, analyses);
    }
    let mut board = view.clone();
    let mut best = (candidates[0].0, candidates[0].1, f64::NEG_INFINITY);
    for (p, q, around) in &candidates {
        // The score is at most 1 - q, and the candidates come safest first: none left can win.
        if 1.0 - q <= best.2 + 1e-12 {
            break;
        }
        let score = match score {
            Score::Progress { next_risk } => {
                let next = look(&mut board, *p, around, analyses);
                (1.0 - q) * (1.0 - next_risk * (1.0 - next.progress))
            }
            Score::Survival => (1.0 - q) * look(&mut board, *p, around, analyses).safety,
            Score::Secondary { blend } => {
                let outcomes = Outcomes {
                    ln_total: analysis.ln_arrangements,
                    safe: 1.0 - q,
                    blend,
                    beat: best.2,
                };
                outcomes.score(&mut board, *p, around, analyses)
            }
        };
        if score > best.2 + 1e-12 {
            best = (*p, *q, score);
        }
    }
    (best.0, best.1)
}

/// The two-move lookahead of [`Pool::deep`].
struct Deep {
    window: f64,
    pool: Pool,
    blend: f64,
}

impl Deep {
    /// Scores `candidates` one move ahead, keeps the best `pool.deep`, and returns the one with
    /// the best two-move score with its mine probability.
    fn choose(
        &self,
        view: &Board,
        analysis: &Analysis,
        candidates: &[(Pos, f64, Neighbourhood)],
        analyses: &mut u32,
    ) -> (Pos, f64) {
        let mut board = view.clone();
        let top = self.top(&mut board, analysis, candidates, self.pool.deep, analyses);
        let first = &candidates[top.first().map_or(0, |t| t.0)];
        let mut best = (first.0, first.1, f64::NEG_INFINITY);
        for &(i, _) in &top {
            let (p, q, around) = &candidates[i];
            if 1.0 - q <= best.2 + 1e-12 {
                continue;
            }
            let score = self.two_moves(&mut board, analysis, *p, 1.0 - q, around, analyses);
            if score > best.2 + 1e-12 {
                best = (*p, *q, score);
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
        candidates: &[(Pos, f64, Neighbourhood)],
        keep: usize,
        analyses: &mut u32,
    ) -> Vec<(usize, f64)> {
        let mut top: Vec<(usize, f64)> = Vec::with_capacity(keep + 1);
        for (i, (p, q, around)) in candidates.iter().enumerate() {
            let beat = if top.len() < keep {
                f64::NEG_INFINITY
            } else {
                top[top.len() - 1].1
            };
            if 1.0 - q <= beat + 1e-12 {
                break;
            }
            let outcomes = Outcomes {
                ln_total: analysis.ln_arrangements,
                safe: 1.0 - q,
                blend: self.blend,
                beat,
            };
            let score = outcomes.score(board, *p, around, analyses);
            if score > beat + 1e-12 {
                let at = top.partition_point(|t| t.1 + 1e-12 >= score);
                top.insert(at, (i, score));
                top.truncate(keep);
            }
        }
        top
    }

    /// `sum over numbers k of P(p safe and shows k) * v_k`, where `v_k` is 1 if the number
    /// proves a cell safe (or leaves only mines), else the best one-move score on that board.
    fn two_moves(
        &self,
        board: &mut Board,
        analysis: &Analysis,
        p: Pos,
        safe: f64,
        around: &Neighbourhood,
        analyses: &mut u32,
    ) -> f64 {
        let distribution = mine_count_distribution(&around.hidden);
        let (mut mass, mut score) = (0.0, 0.0);
        for k in 0..distribution.len() {
            if mass >= safe * (1.0 - 1e-9) {
                break;
            }
            board.set(p, Cell::Revealed(around.flagged + k as u8));
            *analyses += 1;
            let Ok(after) = analyze(board) else {
                continue;
            };
            let weight = (after.ln_arrangements - analysis.ln_arrangements).exp();
            mass += weight;
            score += weight * self.next_score(board, &after, analyses);
        }
        board.set(p, Cell::Hidden);
        score
    }

    /// The best one-move score on `board` analysed as `after` (1 if a cell is safe).
    fn next_score(&self, board: &Board, after: &Analysis, analyses: &mut u32) -> f64 {
        if !after.safe.is_empty() || after.mines.len() == after.probabilities.len() {
            return 1.0;
        }
        let candidates = candidates(board, after, self.window, self.pool);
        let mut scratch = board.clone();
        let top = self.top(&mut scratch, after, &candidates, 1, analyses);
        top.first().map_or(0.0, |t| t.1)
    }
}

/// What clicking a safe cell is expected to bring, over the numbers it may show.
struct Outlook {
    /// The chance that the number proves some cell safe.
    progress: f64,
    /// The expected safety of the next click: 1 when a cell is proved safe, else 1 minus the
    /// lowest mine probability.
    safety: f64,
}

/// The [`Outlook`] of clicking the safe cell `p`: the numbers it may show are weighted by the
/// distribution of its mine neighbours (taken as independent), restricted to the numbers that the
/// analyzer finds consistent. `board` is the view, and is left as it was.
fn look(board: &mut Board, p: Pos, around: &Neighbourhood, analyses: &mut u32) -> Outlook {
    let distribution = mine_count_distribution(&around.hidden);
    let (mut consistent, mut useful, mut safety) = (0.0, 0.0, 0.0);
    for (k, &weight) in distribution.iter().enumerate() {
        if weight < 1e-9 {
            continue;
        }
        board.set(p, Cell::Revealed(around.flagged + k as u8));
        *analyses += 1;
        if let Ok(after) = analyze(board) {
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
    board.set(p, Cell::Hidden);
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
struct Outcomes {
    /// The log of the number of arrangements of the view.
    ln_total: f64,
    /// The chance that the candidate is safe.
    safe: f64,
    /// The weight of the second-best safety in the next click's safety.
    blend: f64,
    /// The best score so far: a candidate that cannot beat it is abandoned.
    beat: f64,
}

impl Outcomes {
    /// `sum over numbers k of P(p safe and shows k) * s_k`, `s_k` the safety of the next click
    /// (see [`Strategy::Secondary`]); `NEG_INFINITY` once it cannot beat `self.beat`. Numbers
    /// are tried likeliest first (by the neighbours' probabilities taken as independent), and the
    /// loop stops when they hold all of `P(p safe)`. `board` is left as it was.
    fn score(&self, board: &mut Board, p: Pos, around: &Neighbourhood, analyses: &mut u32) -> f64 {
        let distribution = mine_count_distribution(&around.hidden);
        let mut order: Vec<usize> = (0..distribution.len()).collect();
        order.sort_by(|&a, &b| distribution[b].total_cmp(&distribution[a]).then(a.cmp(&b)));
        let (mut mass, mut score) = (0.0, 0.0);
        for k in order {
            if mass >= self.safe * (1.0 - 1e-9) {
                break;
            }
            // Even if every remaining outcome were perfectly safe, no better than the best.
            if score + (self.safe - mass) <= self.beat + 1e-12 {
                board.set(p, Cell::Hidden);
                return f64::NEG_INFINITY;
            }
            board.set(p, Cell::Revealed(around.flagged + k as u8));
            *analyses += 1;
            let Ok(after) = analyze(board) else {
                continue;
            };
            let weight = (after.ln_arrangements - self.ln_total).exp();
            mass += weight;
            score += weight * self.next_safety(&after);
        }
        board.set(p, Cell::Hidden);
        score
    }

    /// The safety of the next click on a board analysed as `after`.
    fn next_safety(&self, after: &Analysis) -> f64 {
        if !after.safe.is_empty() || after.mines.len() == after.probabilities.len() {
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
        (1.0 - self.blend) * (1.0 - p1) + self.blend * (1.0 - p2)
    }
}

/// The distribution of the number of mines among independent cells with these probabilities
/// (Poisson binomial): entry k is the chance of exactly k mines.
fn mine_count_distribution(probabilities: &[f64]) -> Vec<f64> {
    let mut d = vec![0.0; probabilities.len() + 1];
    d[0] = 1.0;
    for (i, &q) in probabilities.iter().enumerate() {
        for k in (0..=i + 1).rev() {
            let stay = d[k] * (1.0 - q);
            let from_below = if k > 0 { d[k - 1] * q } else { 0.0 };
            d[k] = stay + from_below;
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poisson_binomial_sums_to_one() {
        let d = mine_count_distribution(&[0.5, 0.5]);
        assert_eq!(d, vec![0.25, 0.5, 0.25]);
        let d = mine_count_distribution(&[0.1, 0.9, 0.3]);
        assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
