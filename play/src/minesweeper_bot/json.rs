//! A run's report as JSON (`--format json`): everything the text report shows, and everything
//! [`super::merge()`] needs to add shards up. Apart from the `timing` object, the text depends only
//! on the run (board, rule, first click, strategy, seed, games), never on the machine or the
//! threads.
//!
//! ```json
//! {
//!   "format": "minesweeper-bot report",
//!   "version": 1,
//!   "board": { "width": 9, "height": 9, "mines": 10 },
//!   "first_click": "safe",
//!   "first_cell": [0, 0],
//!   "strategy": "regions",
//!   "seed": 1,
//!   "first_game": 0,
//!   "games": 100,
//!   "wins": 91,
//!   "guesses": 60,
//!   "analyses": 3240,
//!   "win_rate": 0.91,
//!   "interval": [0.8377, 0.9519],
//!   "guesses_per_game": 0.6,
//!   "analyses_per_game": 32.4,
//!   "timing": { "threads": { "fewest": 2, "most": 2 }, "seconds": 0.12, "ms_per_game": 1.2 }
//! }
//! ```
//!
//! The counts (`wins`, `guesses`, `analyses`) are the ones a merge adds; the rates, the interval
//! and the per-game figures are derived from them, written for the reader and recomputed, never
//! read back.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::report::Report;
use super::runner::{Run, Summary};
use super::stats::wilson_interval;
use super::syntax::{parse_strategy, Spelled};
use cp_puzzles::minesweeper::game::{Config, FirstClick};
use cp_puzzles::minesweeper::Pos;

/// The value of the `format` field.
pub const FORMAT: &str = "minesweeper-bot report";
/// The value of the `version` field.
pub const VERSION: u32 = 1;

/// The report as it is written: see the module's documentation.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    format: String,
    version: u32,
    board: Board,
    first_click: String,
    first_cell: [usize; 2],
    strategy: String,
    seed: u64,
    first_game: u64,
    games: u64,
    wins: u64,
    guesses: u64,
    analyses: u64,
    win_rate: f64,
    interval: [f64; 2],
    guesses_per_game: f64,
    analyses_per_game: f64,
    timing: Timing,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Board {
    width: usize,
    height: usize,
    mines: usize,
}

/// The fields that vary between identical runs: the machine's threads and the wall-clock time.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Timing {
    threads: ThreadRange,
    /// The runs' wall-clock seconds, added up over merged runs.
    seconds: f64,
    ms_per_game: f64,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThreadRange {
    fewest: usize,
    most: usize,
}

/// The report as pretty-printed JSON, with a final newline.
#[must_use]
pub fn to_json(report: &Report) -> String {
    let (run, s) = (&report.run, &report.summary);
    let per_game = |x: f64| x / s.games.max(1) as f64;
    let (low, high) = wilson_interval(s.wins, s.games);
    let first = run.first_click();
    let document = Document {
        format: FORMAT.to_string(),
        version: VERSION,
        board: Board {
            width: run.config.width(),
            height: run.config.height(),
            mines: run.config.mines(),
        },
        first_click: run.rule.to_string(),
        first_cell: [first.x, first.y],
        strategy: Spelled(run.strategy).to_string(),
        seed: run.seed,
        first_game: run.first_game,
        games: s.games,
        wins: s.wins,
        guesses: s.guesses,
        analyses: s.analyses,
        win_rate: per_game(s.wins as f64),
        interval: [low, high],
        guesses_per_game: per_game(s.guesses as f64),
        analyses_per_game: per_game(s.analyses as f64),
        timing: Timing {
            threads: ThreadRange {
                fewest: run.threads,
                most: report.most_threads,
            },
            seconds: s.seconds,
            ms_per_game: per_game(1000.0 * s.seconds),
        },
    };
    let mut text = serde_json::to_string_pretty(&document).expect("a report serializes");
    text.push('\n');
    text
}

/// Why a text is not a report.
#[derive(Debug)]
pub enum JsonError {
    /// Not JSON, or not the report's fields (serde's message names the line and column).
    Syntax(serde_json::Error),
    /// Well-formed, but not a report this program can merge: what was expected, what was found.
    Invalid(String),
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonError::Syntax(e) => write!(f, "{e}"),
            JsonError::Invalid(what) => write!(f, "{what}"),
        }
    }
}

impl std::error::Error for JsonError {}

/// Reads a report written by [`to_json`], checking it: the format and version, a board and first
/// click the game accepts, a strategy the command line reads, at most as many wins as games,
/// games numbered below 2^64, at least one thread and a finite, non-negative time. The derived
/// figures are not read. The first cell is read as [`Run::first`] only where it is not the
/// rule's convention, so that a report reads back as the run that wrote it.
///
/// # Errors
/// [`JsonError`], saying what was expected.
pub fn from_json(text: &str) -> Result<Report, JsonError> {
    let invalid = |what: String| Err(JsonError::Invalid(what));
    if !text.trim_start().starts_with('{') {
        return invalid("expected a JSON object (a minesweeper-bot report)".to_string());
    }
    let d: Document = serde_json::from_str(text).map_err(JsonError::Syntax)?;
    if d.format != FORMAT || d.version != VERSION {
        return invalid(format!(
            "expected format \"{FORMAT}\" version {VERSION}, found \"{}\" version {}",
            d.format, d.version
        ));
    }
    let config = Config::new(d.board.width, d.board.height, d.board.mines)
        .map_err(|e| JsonError::Invalid(e.to_string()))?;
    let rule: FirstClick = d.first_click.parse().map_err(|_| {
        JsonError::Invalid(format!(
            "expected first_click safe or opening, found \"{}\"",
            d.first_click
        ))
    })?;
    let strategy = parse_strategy(&d.strategy).map_err(|e| JsonError::Invalid(e.to_string()))?;
    let t = &d.timing;
    if d.wins > d.games {
        return invalid(format!(
            "expected at most as many wins as games ({}), found {}",
            d.games, d.wins
        ));
    }
    if t.threads.fewest == 0 || t.threads.fewest > t.threads.most {
        return invalid(format!(
            "expected threads with 1 <= fewest <= most, found fewest {} and most {}",
            t.threads.fewest, t.threads.most
        ));
    }
    if !(t.seconds.is_finite() && t.seconds >= 0.0) {
        return invalid(format!(
            "expected seconds to be a finite number at least 0, found {}",
            t.seconds
        ));
    }
    let cell = Pos::new(d.first_cell[0], d.first_cell[1]);
    let run = Run {
        config,
        rule,
        first: (cell != rule.cell(&config)).then_some(cell),
        strategy,
        first_game: d.first_game,
        games: d.games,
        seed: d.seed,
        threads: t.threads.fewest,
    };
    run.check().map_err(|e| JsonError::Invalid(e.to_string()))?;
    if run.end_game().is_none() {
        return invalid(format!(
            "expected the games to be numbered below 2^64, found {} games from game {}",
            d.games, d.first_game
        ));
    }
    let summary = Summary {
        games: d.games,
        wins: d.wins,
        guesses: d.guesses,
        analyses: d.analyses,
        seconds: t.seconds,
    };
    Ok(Report {
        run,
        summary,
        most_threads: t.threads.most,
    })
}
