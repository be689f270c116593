//! Confidence intervals for a win rate, and the sign test of a paired comparison.

/// The Wilson score interval at 95% (z = 1.96) for `wins` successes in `games` trials, as
/// fractions `(low, high)`. `(0, 1)` when `games == 0`.
#[must_use]
pub fn wilson_interval(wins: u64, games: u64) -> (f64, f64) {
    if games == 0 {
        return (0.0, 1.0);
    }
    let z = 1.96_f64;
    let n = games as f64;
    let p = wins as f64 / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The sign test's z score for a paired comparison where `a` games were won by the first
/// strategy only and `b` by the second only (normal approximation: `(a - b) / sqrt(a + b)`, 0 when
/// no game tells them apart). Under "no difference", `|z| > 1.96` has a 5% chance.
#[must_use]
pub fn sign_test_z(a: u64, b: u64) -> f64 {
    if a + b == 0 {
        return 0.0;
    }
    (a as f64 - b as f64) / ((a + b) as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_known_value() {
        // 40 wins in 100 games: 95% Wilson interval (0.3094, 0.4980).
        let (lo, hi) = wilson_interval(40, 100);
        assert!(
            (lo - 0.3094).abs() < 1e-4 && (hi - 0.4980).abs() < 1e-4,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson_interval(0, 10);
        assert!(lo == 0.0 && hi > 0.0);
    }

    #[test]
    fn sign_test_matches_a_known_value() {
        assert!((sign_test_z(30, 20) - 10.0 / 50f64.sqrt()).abs() < 1e-12);
        assert_eq!(sign_test_z(0, 0), 0.0);
    }
}
