//! The progress bar of a run: drawn on stderr, only when it is a terminal.

use std::fmt::Write;

use indicatif::ProgressStyle;

/// The bar's template: the bar, the games done of all, the rate and the time left.
const TEMPLATE: &str = "{bar:40} {pos}/{len} games, {rate}, eta {eta}";

/// The bar's look: indicatif's, but the rate rounded as [`rate`] writes it (indicatif's own
/// `{per_sec}` shows 4 decimals: `32.9079/s`).
#[must_use]
pub fn style() -> ProgressStyle {
    ProgressStyle::with_template(TEMPLATE)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn Write| {
                // A failed write only leaves the key blank on one frame.
                let _ = w.write_str(&rate(state.per_sec()));
            },
        )
}

/// `games_per_second` as the bar shows it, with 3 significant digits at most and no more than
/// the games themselves tell (whole games from 100 a second): `32.9/s`, `1.25/s`, `4180/s`.
#[must_use]
pub fn rate(games_per_second: f64) -> String {
    let r = games_per_second;
    if !r.is_finite() || r < 0.0 {
        "-/s".to_string()
    } else if r >= 99.95 {
        format!("{r:.0}/s")
    } else if r >= 9.995 {
        format!("{r:.1}/s")
    } else {
        format!("{r:.2}/s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_is_rounded() {
        assert_eq!(rate(32.907_9), "32.9/s");
        assert_eq!(rate(1.254_1), "1.25/s");
        assert_eq!(rate(0.0), "0.00/s");
        assert_eq!(rate(9.999), "10.0/s");
        assert_eq!(rate(99.97), "100/s");
        assert_eq!(rate(4_180.46), "4180/s");
        assert_eq!(rate(f64::INFINITY), "-/s");
        assert_eq!(rate(f64::NAN), "-/s");
    }

    #[test]
    fn the_template_is_valid() {
        assert!(ProgressStyle::with_template(TEMPLATE).is_ok());
    }
}
