//! Shards put back together: the reports of runs over disjoint, adjacent ranges of one seed's
//! games add up to the report of one run over their union, if the same code played them all.

use std::fmt;
use std::io::Read;
use std::path::Path;

use super::json::{from_json, MAX_SECONDS};
use super::report::Report;
use super::runner::Summary;
use super::sources::Sources;
use super::syntax::Spelled;

/// The largest report file read, in bytes (a report is under a kilobyte).
pub const MAX_REPORT_BYTES: u64 = 1 << 20;

/// Why shards cannot be merged: the file at fault and what was expected of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeError {
    pub file: String,
    pub what: String,
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.what)
    }
}

impl std::error::Error for MergeError {}

/// Reads the JSON report in the file at `path` (see `super::json`).
///
/// # Errors
/// A file that cannot be read, is over [`MAX_REPORT_BYTES`], or is not a valid report.
pub fn read_report(path: &Path) -> Result<Report, MergeError> {
    let fail = |what: String| MergeError {
        file: path.display().to_string(),
        what,
    };
    let file = std::fs::File::open(path).map_err(|e| fail(format!("cannot read it: {e}")))?;
    let mut text = String::new();
    file.take(MAX_REPORT_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| fail(format!("cannot read it: {e}")))?;
    if text.len() as u64 > MAX_REPORT_BYTES {
        return Err(fail(format!(
            "expected a report of at most {MAX_REPORT_BYTES} bytes"
        )));
    }
    from_json(&text).map_err(|e| fail(e.to_string()))
}

/// Adds up `shards` (each a file name and its report) into the report of one run over all their
/// games: the counts and the seconds are summed, the threads span the shards' fewest to most, and
/// the figures derived from the counts (the rate, the interval) are those of the sums.
///
/// The shards may come in any order; they must share the board, the first-click rule and cell,
/// the boards' kind (no-guess or not), the strategy, the seed and the sources fingerprint (all
/// unknown, for reports written before it was recorded, or all the same), and their game ranges,
/// sorted, must follow one another with neither overlap nor gap (a missing shard is an error, not
/// a smaller run). The seconds are added in the order of the games, so the result does not depend
/// on the order of `shards`.
///
/// # Errors
/// No shard; a shard whose setting or sources differ from the first file's; two shards that
/// share games; a gap between two shards; totals past 2^64 - 1, seconds past [`MAX_SECONDS`].
pub fn merge(shards: &[(String, Report)]) -> Result<Report, MergeError> {
    let Some((first_name, first)) = shards.first() else {
        return Err(MergeError {
            file: "merge".to_string(),
            what: "expected at least one report".to_string(),
        });
    };
    for (name, shard) in &shards[1..] {
        same_setting(first_name, first, name, shard)?;
    }
    let mut sorted: Vec<&(String, Report)> = shards.iter().collect();
    sorted.sort_by_key(|(_, r)| (r.run.first_game, r.summary.games));
    let (_, start) = sorted[0];
    let mut merged = Report {
        summary: Summary::default(),
        ..start.clone()
    };
    let mut end = (start.run.first_game, sorted[0].0.as_str());
    for (name, shard) in sorted {
        let (run, s) = (&shard.run, &shard.summary);
        let fail = |what: String| MergeError {
            file: name.clone(),
            what,
        };
        if run.first_game != end.0 {
            let kind = if run.first_game < end.0 {
                "overlap"
            } else {
                "leave a gap"
            };
            return Err(fail(format!(
                "expected games from game {} to follow {}, found games from game {} (the two \
                 {kind})",
                end.0, end.1, run.first_game
            )));
        }
        let overflow = || fail("expected totals below 2^64".to_string());
        merged.summary = std::mem::take(&mut merged.summary)
            .checked_add(s)
            .ok_or_else(overflow)?;
        if merged.summary.seconds > MAX_SECONDS {
            return Err(fail(format!(
                "expected the shards' seconds to add up to at most {MAX_SECONDS:e}, found {:e}",
                merged.summary.seconds
            )));
        }
        merged.run.threads = merged.run.threads.min(run.threads);
        merged.most_threads = merged.most_threads.max(shard.most_threads);
        end = (run.end_game().ok_or_else(overflow)?, name.as_str());
    }
    merged.run.games = merged.summary.games;
    Ok(merged)
}

/// `on` or `off`.
fn on_off(on: bool) -> String {
    if on { "on" } else { "off" }.to_string()
}

/// Checks that `b` (from the file `b_name`) was run with the setting of `a` (from `a_name`).
fn same_setting(a_name: &str, a: &Report, b_name: &str, b: &Report) -> Result<(), MergeError> {
    let (x, y) = (&a.run, &b.run);
    let pairs = [
        ("board", x.config.to_string(), y.config.to_string()),
        ("first click", x.rule.to_string(), y.rule.to_string()),
        (
            "first cell",
            format!("({}, {})", x.first_click().x, x.first_click().y),
            format!("({}, {})", y.first_click().x, y.first_click().y),
        ),
        ("no-guess", on_off(x.no_guess), on_off(y.no_guess)),
        (
            "strategy",
            Spelled(x.strategy).to_string(),
            Spelled(y.strategy).to_string(),
        ),
        ("seed", x.seed.to_string(), y.seed.to_string()),
    ];
    for (what, expected, found) in pairs {
        if expected != found {
            return Err(MergeError {
                file: b_name.to_string(),
                what: format!("expected {what} {expected} as in {a_name}, found {found}"),
            });
        }
    }
    if x.strategy != y.strategy {
        return Err(MergeError {
            file: b_name.to_string(),
            what: format!("expected the strategy of {a_name}"),
        });
    }
    same_sources(a_name, a.sources, b_name, b.sources)
}

/// What a report written before the sources fingerprint was recorded says of its sources.
const UNKNOWN: &str = "no sources (a report written before they were recorded)";

/// Checks that `b` (from the file `b_name`) was played by the sources of `a` (from `a_name`):
/// the same fingerprint, or none for both.
fn same_sources(
    a_name: &str,
    a: Option<Sources>,
    b_name: &str,
    b: Option<Sources>,
) -> Result<(), MergeError> {
    let what = match (a, b) {
        (Some(x), Some(y)) if x != y => format!("expected sources {x} as in {a_name}, found {y}"),
        (Some(x), None) => format!("expected sources {x} as in {a_name}, found {UNKNOWN}"),
        (None, Some(y)) => format!("expected {UNKNOWN} as in {a_name}, found sources {y}"),
        _ => return Ok(()),
    };
    Err(MergeError {
        file: b_name.to_string(),
        what,
    })
}
