//! The statistics kept between games: games, wins, best time and best 3BV/s per board and
//! first-click rule, in a small text file in the user's data directory.
//!
//! The file is `$XDG_DATA_HOME/cp-puzzles/minesweeper-play.stats` (`$XDG_DATA_HOME` defaulting
//! to `~/.local/share`, as the XDG convention has it), one line per board and rule:
//! `<board> <rule> <games> <wins> <best milliseconds, or -> <best 3BV/s in thousandths, or ->`,
//! e.g. `expert safe 12 5 93200 1843`; a line without the last field (as older files have) reads
//! as `-`. The rule is `safe` or `opening`, with `-no-guess` for no-guess boards.

use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The file's place, from the environment: `$XDG_DATA_HOME` if it is an absolute path, else
/// `$HOME/.local/share`; `None` if neither is set.
#[must_use]
pub fn default_path() -> Option<PathBuf> {
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .map(|home| home.join(".local/share"))
        })?;
    Some(data.join("cp-puzzles").join("minesweeper-play.stats"))
}

/// One board and rule's totals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub games: u64,
    pub wins: u64,
    /// The best winning time in milliseconds.
    pub best_ms: Option<u64>,
    /// The best winning 3BV/s, in thousandths.
    pub best_per_second_milli: Option<u64>,
}

/// Every board and rule's totals, keyed by `(board, rule)` (e.g. `("expert", "safe")`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    records: BTreeMap<(String, String), Record>,
}

impl Stats {
    /// Reads the file at `path`; a missing file is empty statistics.
    ///
    /// # Errors
    /// If the file cannot be read, or a line is malformed (naming the line).
    pub fn load(path: &Path) -> Result<Stats, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => Stats::parse(&text).map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Stats::default()),
            Err(e) => Err(format!("cannot read {}: {e}", path.display())),
        }
    }

    /// Reads the file's text.
    ///
    /// # Errors
    /// A line that is not `<board> <rule> <games> <wins> <best ms or -> [<best 3BV/s in
    /// thousandths or ->]`, or wins over games.
    pub fn parse(text: &str) -> Result<Stats, String> {
        let mut stats = Stats::default();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let bad = || {
                format!(
                    "line {}: expected \"board rule games wins best-ms [best-3bv/s-milli]\", \
                     found \"{line}\"",
                    i + 1
                )
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            let (board, rule, games, wins, best, speed) = match words[..] {
                [b, r, g, w, t] => (b, r, g, w, t, "-"),
                [b, r, g, w, t, s] => (b, r, g, w, t, s),
                _ => return Err(bad()),
            };
            let number = |w: &str| w.parse::<u64>().map_err(|_| bad());
            let optional = |w: &str| {
                if w == "-" {
                    Ok(None)
                } else {
                    number(w).map(Some)
                }
            };
            let record = Record {
                games: number(games)?,
                wins: number(wins)?,
                best_ms: optional(best)?,
                best_per_second_milli: optional(speed)?,
            };
            if record.wins > record.games {
                return Err(bad());
            }
            stats.records.insert((board.into(), rule.into()), record);
        }
        Ok(stats)
    }

    /// Counts one game on `board` under `rule`, won in `time` at `per_second` 3BV/s (if it has
    /// one: not under a second) if `won` is `Some((time, per_second))`. Returns whether the time
    /// is the best on that board and rule.
    pub fn record(
        &mut self,
        board: &str,
        rule: &str,
        won: Option<(Duration, Option<f64>)>,
    ) -> bool {
        let r = self.records.entry((board.into(), rule.into())).or_default();
        r.games += 1;
        let Some((time, per_second)) = won else {
            return false;
        };
        r.wins += 1;
        if let Some(per_second) = per_second {
            let speed = (per_second * 1000.0).round() as u64;
            if r.best_per_second_milli.is_none_or(|b| speed > b) {
                r.best_per_second_milli = Some(speed);
            }
        }
        let ms = u64::try_from(time.as_millis()).unwrap_or(u64::MAX);
        let best = r.best_ms.is_none_or(|b| ms < b);
        if best {
            r.best_ms = Some(ms);
        }
        best
    }

    /// The totals of `board` under `rule`.
    #[must_use]
    pub fn get(&self, board: &str, rule: &str) -> Record {
        self.records
            .get(&(board.to_string(), rule.to_string()))
            .copied()
            .unwrap_or_default()
    }

    /// Writes the file at `path`, making its directory if needed.
    ///
    /// # Errors
    /// If the directory or the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let fail = |e: io::Error| format!("cannot write {}: {e}", path.display());
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(fail)?;
        }
        let mut text = String::new();
        for ((board, rule), r) in &self.records {
            let dash = |v: Option<u64>| v.map_or_else(|| "-".to_string(), |b| b.to_string());
            let (best, speed) = (dash(r.best_ms), dash(r.best_per_second_milli));
            text += &format!("{board} {rule} {} {} {best} {speed}\n", r.games, r.wins);
        }
        std::fs::write(path, text).map_err(fail)
    }
}

/// A table: one row per board and rule with its games, wins, win rate, best time and best 3BV/s,
/// or `no games yet`.
impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.records.is_empty() {
            return writeln!(f, "no games yet");
        }
        writeln!(
            f,
            "{:<14} {:<16} {:>6} {:>6} {:>9} {:>10} {:>10}",
            "board", "first click", "games", "wins", "win rate", "best time", "best 3BV/s"
        )?;
        for ((board, rule), r) in &self.records {
            let rate = 100.0 * r.wins as f64 / r.games.max(1) as f64;
            let best = r.best_ms.map_or_else(
                || "-".to_string(),
                |ms| format!("{:.1} s", ms as f64 / 1000.0),
            );
            let speed = r
                .best_per_second_milli
                .map_or_else(|| "-".to_string(), |m| format!("{:.2}", m as f64 / 1000.0));
            writeln!(
                f,
                "{board:<14} {rule:<16} {:>6} {:>6} {:>8.1}% {best:>10} {speed:>10}",
                r.games, r.wins, rate
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_through_the_text() {
        let mut s = Stats::default();
        let won = |ms, speed| Some((Duration::from_millis(ms), Some(speed)));
        assert!(!s.record("expert", "safe", None));
        assert!(s.record("expert", "safe", won(93_200, 1.5)));
        assert!(!s.record("expert", "safe", won(95_000, 1.8)));
        assert!(s.record("9x9/5", "opening-no-guess", won(4_000, 2.0)));
        // A win too quick for a rate: a best time, the best 3BV/s unchanged.
        assert!(s.record(
            "9x9/5",
            "opening-no-guess",
            Some((Duration::from_millis(5), None))
        ));
        let quick = Stats::get(&s, "9x9/5", "opening-no-guess");
        assert_eq!(
            (quick.wins, quick.best_ms, quick.best_per_second_milli),
            (2, Some(5), Some(2_000))
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/minesweeper-play.stats");
        s.save(&path).unwrap();
        assert_eq!(Stats::load(&path).unwrap(), s);
        let e = Stats::get(&s, "expert", "safe");
        assert_eq!((e.games, e.wins, e.best_ms), (3, 2, Some(93_200)));
        assert_eq!(e.best_per_second_milli, Some(1_800));
        // An older file's line, without the 3BV/s.
        let old = Stats::parse("expert safe 3 1 50000\n").unwrap();
        assert_eq!(old.get("expert", "safe").best_per_second_milli, None);
        assert_eq!(old.get("expert", "safe").best_ms, Some(50_000));
    }

    #[test]
    fn a_missing_file_is_empty_and_a_bad_line_is_named() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            Stats::load(&dir.path().join("none")).unwrap(),
            Stats::default()
        );
        assert_eq!(Stats::default().to_string(), "no games yet\n");
        let e = Stats::parse("expert safe 1 0 -\nexpert opening x 0 -\n").unwrap_err();
        assert!(e.starts_with("line 2: expected"), "{e}");
        assert!(Stats::parse("expert safe 1 2 -").is_err());
    }
}
