//! A run's report as JSON (`--format json`): everything the text report shows, and everything
//! [`super::merge()`] needs to add shards up. Apart from the `timing` object, the text depends only
//! on the run (board, rule, first click, strategy, seed, games) and on the code that played it
//! (`sources`), never on the machine or the threads.
//!
//! ```json
//! {
//!   "format": "minesweeper-bot report",
//!   "version": 1,
//!   "sources": "0123456789abcdef",
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
//!
//! A run on no-guess boards has `"no_guess": true` after `first_cell` (a report without it is of
//! uniform boards), and its `timing` ends with the boards' generation times:
//!
//! ```json
//! "generation": {
//!   "nanoseconds": 61234567, "worst_nanoseconds": 2345678,
//!   "median_ms": 0.52, "mean_ms": 0.61, "worst_ms": 2.35,
//!   "histogram": { "327680": 3, "335872": 1, ... }
//! }
//! ```
//!
//! `nanoseconds` is the total over the games, and `histogram` counts the games whose time falls
//! in each bucket, named by its lower bound in nanoseconds (see [`Generation`]); the milliseconds
//! are derived from them for the reader.
//!
//! `sources` is the fingerprint of the sources that played the run ([`Sources`]), which a merge
//! requires to agree. Reports written before it was recorded lack it: they read as reports of
//! unknown sources, still version 1 (the field is an addition, as `no_guess` was).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::generation::Generation;
use super::report::Report;
use super::runner::{Run, Summary};
use super::sources::Sources;
use super::stats::wilson_interval;
use super::syntax::{parse_strategy, Spelled};
use cp_puzzles::minesweeper::game::{Config, FirstClick};
use cp_puzzles::minesweeper::Pos;

/// The value of the `format` field.
pub const FORMAT: &str = "minesweeper-bot report";
/// The value of the `version` field.
pub const VERSION: u32 = 1;

/// The most seconds a report may give, read or merged: about 31,700 years, far past any run, and
/// small enough that every figure derived from it (milliseconds a game) is a finite number,
/// which JSON can write (it has no infinity: it would write `null`, which it cannot read back).
pub const MAX_SECONDS: f64 = 1e12;

/// The report as it is written: see the module's documentation.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    format: String,
    version: u32,
    /// The sources fingerprint; absent (never `null`) in reports written before it existed.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    sources: Option<String>,
    board: Board,
    first_click: String,
    first_cell: [usize; 2],
    #[serde(default, skip_serializing_if = "is_false")]
    no_guess: bool,
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
    /// The no-guess boards' generation times (none for uniform boards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    generation: Option<Times>,
}

/// The generation times of a run's no-guess boards, one per game.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Times {
    nanoseconds: u64,
    worst_nanoseconds: u64,
    median_ms: f64,
    mean_ms: f64,
    worst_ms: f64,
    histogram: BTreeMap<u64, u64>,
}

impl Times {
    fn of(g: &Generation) -> Times {
        Times {
            nanoseconds: g.total_ns,
            worst_nanoseconds: g.worst_ns,
            median_ms: g.median_ms(),
            mean_ms: g.mean_ms(),
            worst_ms: g.worst_ms(),
            histogram: g.histogram().into_iter().collect(),
        }
    }
}

/// A field that is there (serde's `default` stands for one that is not): `null` is refused.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    String::deserialize(d).map(Some)
}

/// Whether `b` is false (serde's `skip_serializing_if` passes a reference).
fn is_false(b: &bool) -> bool {
    !*b
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
        sources: report.sources.map(|s| s.to_string()),
        board: Board {
            width: run.config.width(),
            height: run.config.height(),
            mines: run.config.mines(),
        },
        first_click: run.rule.to_string(),
        first_cell: [first.x, first.y],
        no_guess: run.no_guess,
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
            generation: run.no_guess.then(|| Times::of(&s.generation)),
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

/// Reads a report written by [`to_json`], checking it: the format and version, sources (if any)
/// written as 16 lowercase hex digits, a board and first click the game accepts, a strategy the
/// command line reads, at most as many wins as games, games numbered below 2^64, at least one
/// thread and a time from 0 to [`MAX_SECONDS`] seconds, and for no-guess boards (only for them) generation
/// times that count one board per game (see [`Generation::from_parts`]). The derived figures are
/// not read. The first cell is read as [`Run::first`] only where it is not the rule's convention,
/// so that a report reads back as the run that wrote it.
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
    let sources = match &d.sources {
        None => None,
        Some(text) => Some(Sources::parse(text).ok_or_else(|| {
            JsonError::Invalid(format!(
                "expected sources as 16 lowercase hex digits, found \"{text}\""
            ))
        })?),
    };
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
    if !(0.0..=MAX_SECONDS).contains(&t.seconds) {
        return invalid(format!(
            "expected seconds to be a number from 0 to {MAX_SECONDS:e}, found {:e}",
            t.seconds
        ));
    }
    let cell = Pos::new(d.first_cell[0], d.first_cell[1]);
    let run = Run {
        config,
        rule,
        first: (cell != rule.cell(&config)).then_some(cell),
        no_guess: d.no_guess,
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
    let generation = match (&t.generation, d.no_guess) {
        (None, false) => Generation::default(),
        (Some(g), true) => {
            let histogram: Vec<(u64, u64)> = g.histogram.iter().map(|(&b, &n)| (b, n)).collect();
            Generation::from_parts(d.games, g.nanoseconds, g.worst_nanoseconds, &histogram)
                .map_err(JsonError::Invalid)?
        }
        (None, true) => return invalid("expected timing.generation for no-guess boards".into()),
        (Some(_), false) => {
            return invalid("expected no timing.generation without no-guess boards".into())
        }
    };
    let summary = Summary {
        games: d.games,
        wins: d.wins,
        guesses: d.guesses,
        analyses: d.analyses,
        seconds: t.seconds,
        generation,
    };
    Ok(Report {
        run,
        summary,
        most_threads: t.threads.most,
        sources,
    })
}
