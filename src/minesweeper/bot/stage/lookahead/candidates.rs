//! The cells the lookahead examines.

use super::Pool;
use crate::minesweeper::bot::probabilities::{lowest, probability_grid};
use crate::minesweeper::bot::tolerance::SCORE_TIE;
use crate::minesweeper::{Analysis, Board, Cell, Pos};

/// A cell the lookahead examines, with the facts about it that the scores need.
pub struct Candidate {
    pub cell: Pos,
    /// Its mine probability.
    pub mine: f64,
    /// The mine probabilities of its hidden, unflagged neighbours.
    pub hidden: Vec<f64>,
    /// Its flagged neighbours.
    pub flagged: u8,
    /// Whether it touches a revealed cell.
    on_frontier: bool,
    /// Whether one of its hidden neighbours touches a revealed cell.
    near_frontier: bool,
}

impl Candidate {
    pub fn new(view: &Board, probability: &[f64], cell: Pos, mine: f64) -> Candidate {
        let mut c = Candidate {
            cell,
            mine,
            hidden: Vec::with_capacity(8),
            flagged: 0,
            on_frontier: false,
            near_frontier: false,
        };
        for q in view.neighbours(cell) {
            match view.get(q) {
                Cell::Hidden => {
                    c.hidden.push(probability[view.index(q)]);
                    c.near_frontier |= view
                        .neighbours(q)
                        .any(|r| matches!(view.get(r), Cell::Revealed(_)));
                }
                Cell::Flagged => c.flagged += 1,
                Cell::Revealed(_) => c.on_frontier = true,
            }
        }
        c
    }
}

/// The lookahead's candidates: the cells whose probability is within `window * (1 - p_min)` of
/// the lowest, safest first, trimmed to `pool`.
pub fn candidates(view: &Board, analysis: &Analysis, window: f64, pool: Pool) -> Vec<Candidate> {
    let probability = probability_grid(view, analysis);
    let (_, lowest_p) = lowest(analysis);
    let limit = lowest_p + window * (1.0 - lowest_p) + SCORE_TIE;
    let mut candidates: Vec<Candidate> = analysis
        .probabilities
        .iter()
        .filter(|&&(_, q)| q <= limit)
        .map(|&(p, q)| Candidate::new(view, &probability, p, q))
        .collect();
    // Safest first; then the fewest hidden neighbours (likelier to show a useful number); then
    // row-major, so that the order is total and the choice deterministic.
    candidates.sort_by(|a, b| {
        a.mine
            .total_cmp(&b.mine)
            .then(a.hidden.len().cmp(&b.hidden.len()))
            .then(a.cell.cmp(&b.cell))
    });
    let (mut plain, mut near) = (0, 0);
    let plain_slots = pool.interior - pool.near.min(pool.interior);
    candidates.retain(|c| {
        if c.on_frontier {
            return true;
        }
        if plain < plain_slots {
            plain += 1;
            return true;
        }
        if c.near_frontier && near < pool.interior - plain_slots {
            near += 1;
            return true;
        }
        false
    });
    candidates.truncate(pool.candidates);
    candidates
}
