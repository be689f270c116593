//! The mine probabilities the stages share: per cell, the lowest, and the number of mines among
//! a few cells.

use crate::minesweeper::{Analysis, Board, Pos};

/// The first cell with the lowest probability, with that probability.
///
/// # Panics
/// If `analysis.probabilities` is empty (a game in progress always has a hidden cell).
#[must_use]
pub fn lowest(analysis: &Analysis) -> (Pos, f64) {
    let mut best = analysis.probabilities[0];
    for &(p, q) in &analysis.probabilities[1..] {
        if q < best.1 {
            best = (p, q);
        }
    }
    best
}

/// Every cell's mine probability from `analysis`, row-major (0 for a cell that is not hidden).
#[must_use]
pub fn probability_grid(view: &Board, analysis: &Analysis) -> Vec<f64> {
    let mut probability = vec![0.0; view.grid().cells()];
    for &(p, q) in &analysis.probabilities {
        probability[view.index(p)] = q;
    }
    probability
}

/// The distribution of the number of mines among independent cells with these probabilities
/// (Poisson binomial): entry k is the chance of exactly k mines.
#[must_use]
pub fn mine_count_distribution(probabilities: &[f64]) -> Vec<f64> {
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
