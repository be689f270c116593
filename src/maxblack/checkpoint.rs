//! The progress of a long search, kept in a small text file so that a stopped run continues where
//! it was:
//!
//! ```text
//! maxblack checkpoint
//! grid 17 17 3
//! maxima 9 16 ...
//! pass 146
//! units 35120
//! done 0-15 17 19-30 31.0-4 31.5.0-2
//! ```
//!
//! `grid` is the input (rows, columns, K); `maxima` the exact maxima of the rectangles 1, 2, ...
//! rows high that the final grid's search builds on (in the search's orientation, narrow rows);
//! `pass G` says that no grid holds more than G black cells, `units` how many units of work the
//! walk with goal G has (see `Search::units`; absent in older files), and `done` lists the parts
//! of that walk that hold no grid with G or more: a unit (`17`, or a range `0-15`), or a part of
//! one, named by the path of child numbers below it (`31.5.0-2`: children 0 to 2 of child 5 of
//! unit 31, numbered in the walk's order among the children that pass the bounds at the goal,
//! see `Search::children`); `max G` (in place of `pass`) says that G is the maximum. Every line
//! is a proved fact, so a file written at any moment is a valid start.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::error::Error;

/// What a checkpoint file holds, and where it is written.
#[derive(Debug)]
pub struct Checkpoint {
    path: Option<PathBuf>,
    /// Rows, columns and K of the puzzle.
    grid: (usize, usize, usize),
    /// `maxima[m]` for `m` in `0..rows` (empty until known).
    pub maxima: Vec<u32>,
    /// The goal of the current pass: no grid holds more.
    pub pass: Option<u32>,
    /// Whether the pass's goal is known to be the maximum.
    pub max_known: bool,
    /// The parts of the current pass that hold no grid as black as its goal.
    pub done: Done,
    /// The number of units of the current pass, if known.
    pub units: Option<usize>,
    /// How often the file is rewritten while units end.
    every: Duration,
    last_saved: Instant,
}

impl Checkpoint {
    /// A checkpoint kept in memory only.
    #[must_use]
    pub fn none(grid: (usize, usize, usize)) -> Self {
        Checkpoint {
            path: None,
            grid,
            maxima: Vec::new(),
            pass: None,
            max_known: false,
            done: Done::default(),
            units: None,
            every: Duration::from_secs(10),
            last_saved: Instant::now(),
        }
    }

    /// The checkpoint in `path` for the puzzle `grid`, or a fresh one if the file does not exist,
    /// rewritten at most once every `every` as units end (and at each pass).
    ///
    /// # Errors
    /// [`Error::Checkpoint`] if the file cannot be read, is not a checkpoint, or is one for
    /// another puzzle.
    #[cfg(not(bundle))]
    pub fn open(path: &Path, grid: (usize, usize, usize), every: Duration) -> Result<Self, Error> {
        let mut c = Checkpoint {
            path: Some(path.to_path_buf()),
            every,
            ..Checkpoint::none(grid)
        };
        let text = match fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(c),
            Err(e) => return Err(c.error(format!("cannot be read: {e}"))),
        };
        c.read(&text)
            .map_err(|(line, what)| c.error(format!("line {line}: {what}")))?;
        Ok(c)
    }

    /// The bundle for online judges keeps no checkpoint file.
    #[cfg(bundle)]
    pub fn open(path: &Path, _: (usize, usize, usize), _: Duration) -> Result<Self, Error> {
        Err(Error::Checkpoint(format!(
            "{}: not kept by this build",
            path.display()
        )))
    }

    /// The bundle for online judges writes no file.
    #[cfg(bundle)]
    pub fn save(&mut self) -> Result<(), Error> {
        self.last_saved = Instant::now();
        Ok(())
    }

    fn error(&self, what: String) -> Error {
        let path = self.path.as_deref().unwrap_or(Path::new(""));
        Error::Checkpoint(format!("{}: {what}", path.display()))
    }

    /// Reads the file's text; on error, the line number and what is wrong.
    #[cfg(not(bundle))]
    fn read(&mut self, text: &str) -> Result<(), (usize, String)> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        match lines.next() {
            Some((_, "maxblack checkpoint")) => {}
            _ => return Err((1, "expected \"maxblack checkpoint\"".into())),
        }
        for (no, line) in lines {
            let mut words = line.split_whitespace();
            let Some(word) = words.next() else { continue };
            let numbers: Vec<u64> = words
                .map(|w| {
                    w.parse::<u64>()
                        .map_err(|_| (no, format!("bad number {w:?}")))
                })
                .collect::<Result<_, _>>()
                .or_else(|e| {
                    if word == "done" {
                        Ok(Vec::new())
                    } else {
                        Err(e)
                    }
                })?;
            match word {
                "grid" => {
                    let (r, c, k) = self.grid;
                    if numbers != [r as u64, c as u64, k as u64] {
                        return Err((no, format!("for another puzzle, not {r} {c} {k}")));
                    }
                }
                "maxima" => {
                    self.maxima = std::iter::once(0)
                        .chain(numbers.iter().map(|&v| v as u32))
                        .collect();
                }
                "pass" | "max" | "units" => {
                    let &[g] = numbers.as_slice() else {
                        return Err((no, format!("expected one number after {word}")));
                    };
                    if word == "units" {
                        self.units = Some(g as usize);
                    } else {
                        self.pass = Some(g as u32);
                        self.max_known = word == "max";
                    }
                }
                "done" => self.done = Done::read(line).map_err(|what| (no, what))?,
                _ => return Err((no, format!("unknown line {word:?}"))),
            }
        }
        Ok(())
    }

    /// The file's text.
    #[cfg(not(bundle))]
    fn text(&self) -> String {
        let (r, c, k) = self.grid;
        let mut text = format!("maxblack checkpoint\ngrid {r} {c} {k}\n");
        if self.maxima.len() > 1 {
            let maxima: Vec<String> = self.maxima[1..].iter().map(u32::to_string).collect();
            text += &format!("maxima {}\n", maxima.join(" "));
        }
        if let Some(g) = self.pass {
            let word = if self.max_known { "max" } else { "pass" };
            text += &format!("{word} {g}\n");
            if let Some(units) = self.units {
                text += &format!("units {units}\n");
            }
            text += &format!("done{}\n", self.done.text());
        }
        text
    }

    /// Writes the file now (through a temporary file renamed over it, so that a stop in the
    /// middle leaves the previous version).
    ///
    /// # Errors
    /// [`Error::Checkpoint`] if it cannot be written.
    #[cfg(not(bundle))]
    pub fn save(&mut self) -> Result<(), Error> {
        self.last_saved = Instant::now();
        let Some(path) = self.path.clone() else {
            return Ok(());
        };
        let mut tmp = path.clone().into_os_string();
        tmp.push(".tmp");
        fs::write(&tmp, self.text())
            .and_then(|()| fs::rename(&tmp, &path))
            .map_err(|e| self.error(format!("cannot be written: {e}")))
    }

    /// Writes the file if the last write is older than the interval.
    ///
    /// # Errors
    /// As [`Checkpoint::save`].
    pub fn save_now_and_then(&mut self) -> Result<(), Error> {
        if self.last_saved.elapsed() >= self.every {
            self.save()
        } else {
            Ok(())
        }
    }

    /// Starts the pass with goal `goal` (every higher goal is ruled out) and `units` units of
    /// work, keeping the parts done if it is the pass already recorded.
    ///
    /// # Errors
    /// [`Error::Checkpoint`] if the recorded pass has another number of units, or names a unit
    /// past the last (a file from another version of the walk).
    pub fn start_pass(&mut self, goal: u32, units: usize) -> Result<(), Error> {
        if self.pass != Some(goal) {
            self.pass = Some(goal);
            self.done = Done::default();
        } else {
            let recorded = self.units.unwrap_or(units);
            let last = self.done.last_unit();
            if recorded != units || last.is_some_and(|u| u as usize >= units) {
                let found = match last {
                    Some(u) if recorded == units => format!("names unit {u}"),
                    _ => format!("has {recorded}"),
                };
                return Err(self.error(format!(
                    "the pass at {goal} has {units} units of work, but the file {found}: it \
                     was written by another version of the search (remove it to start again)"
                )));
            }
        }
        self.units = Some(units);
        Ok(())
    }
}

/// The parts of a pass found empty: a tree of child numbers. Each node is wholly done, or holds
/// ranges of children wholly done and the children partly done.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Done {
    /// Whether the whole part is done.
    all: bool,
    /// The children wholly done, as ranges: first to last.
    whole: BTreeMap<u32, u32>,
    /// The children partly done (none of them wholly).
    sub: BTreeMap<u32, Done>,
}

/// The deepest path a `done` line may name (the grid has at most 20 rows).
const MAX_PATH: usize = 24;

impl Done {
    /// Whether nothing is done.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        !self.all && self.whole.is_empty() && self.sub.is_empty()
    }

    /// Whether child `i` is wholly done.
    fn has_whole(&self, i: u32) -> bool {
        self.all
            || self
                .whole
                .range(..=i)
                .next_back()
                .is_some_and(|(_, &last)| last >= i)
    }

    /// Marks the children `a..=b` wholly done.
    fn add_whole(&mut self, a: u32, b: u32) {
        if self.all {
            return;
        }
        let (mut first, mut last) = (a, b);
        if let Some((&s, &e)) = self.whole.range(..=a).next_back() {
            if e.saturating_add(1) >= a {
                (first, last) = (s, last.max(e));
            }
        }
        let joined: Vec<u32> = self
            .whole
            .range(first..=last.saturating_add(1))
            .map(|(&s, _)| s)
            .collect();
        for s in joined {
            last = last.max(self.whole.remove(&s).unwrap_or(s));
        }
        self.whole.insert(first, last);
        let inside: Vec<u32> = self.sub.range(a..=b).map(|(&i, _)| i).collect();
        for i in inside {
            self.sub.remove(&i);
        }
    }

    /// Whether the part at `path` is done (itself or a part holding it).
    #[must_use]
    pub fn contains(&self, path: &[u32]) -> bool {
        match self.node(path) {
            Ok(d) => d.all,
            Err(done) => done,
        }
    }

    /// The node of the part at `path`; `Err(true)` if a part holding it is done, `Err(false)`
    /// if nothing inside it is recorded.
    fn node(&self, path: &[u32]) -> Result<&Done, bool> {
        let mut d = self;
        for &i in path {
            if d.has_whole(i) {
                return Err(true);
            }
            d = d.sub.get(&i).ok_or(false)?;
        }
        Ok(d)
    }

    /// What is done inside the part at `path` (`None` if nothing, or if all of it is).
    #[must_use]
    pub fn below(&self, path: &[u32]) -> Option<&Done> {
        self.node(path).ok().filter(|d| !d.all)
    }

    /// The node of the part holding the children `path`'s last names, created if need be;
    /// `None` if a part holding it is done.
    fn parent_mut(&mut self, path: &[u32]) -> Option<&mut Done> {
        let mut d = self;
        for &i in &path[..path.len().saturating_sub(1)] {
            if d.has_whole(i) {
                return None;
            }
            d = d.sub.entry(i).or_default();
        }
        Some(d)
    }

    /// Marks the part at `path` done.
    pub fn insert(&mut self, path: &[u32]) {
        match path.last() {
            None => {
                *self = Done {
                    all: true,
                    ..Done::default()
                }
            }
            Some(&i) => {
                if let Some(d) = self.parent_mut(path) {
                    d.add_whole(i, i);
                }
            }
        }
    }

    /// Marks the part at `path` done if its children `0..children` (at least one) all are;
    /// whether it is done.
    pub fn close(&mut self, path: &[u32], children: u32) -> bool {
        let whole = match self.node(path) {
            Err(done) => return done,
            Ok(d) => d.all || d.whole.get(&0).is_some_and(|&last| last + 1 >= children),
        };
        if whole {
            self.insert(path);
        }
        whole
    }

    /// The highest unit number named.
    fn last_unit(&self) -> Option<u32> {
        let whole = self.whole.values().next_back().copied();
        let sub = self.sub.keys().next_back().copied();
        whole.max(sub)
    }

    /// ` 0-15 17 31.0-4 31.5.0-2`: the done parts, in order.
    #[must_use]
    #[cfg(not(bundle))]
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.write(&mut String::new(), &mut out);
        out
    }

    #[cfg(not(bundle))]
    fn write(&self, prefix: &mut String, out: &mut String) {
        let mut whole = self.whole.iter().peekable();
        let mut sub = self.sub.iter().peekable();
        loop {
            let next_whole = whole.peek().map(|(&a, _)| a);
            let next_sub = sub.peek().map(|(&i, _)| i);
            let take_whole = match (next_whole, next_sub) {
                (None, None) => return,
                (Some(a), Some(i)) => a < i,
                (w, _) => w.is_some(),
            };
            if take_whole {
                let (&a, &b) = whole.next().expect("a range");
                out.push(' ');
                out.push_str(prefix);
                out.push_str(&if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                });
            } else {
                let (&i, d) = sub.next().expect("a part");
                let len = prefix.len();
                prefix.push_str(&format!("{i}."));
                d.write(prefix, out);
                prefix.truncate(len);
            }
        }
    }

    /// The inverse of [`Done::text`] on a `done ...` line; on error, what is wrong.
    #[cfg(not(bundle))]
    fn read(line: &str) -> Result<Done, String> {
        let mut done = Done::default();
        for part in line.split_whitespace().skip(1) {
            let bad = || format!("bad part of a unit {part:?}");
            let mut steps: Vec<&str> = part.split('.').collect();
            let last = steps.pop().unwrap_or_default();
            let mut path = steps
                .iter()
                .map(|step| step.parse::<u32>().map_err(|_| bad()))
                .collect::<Result<Vec<u32>, String>>()?;
            let (a, b) = match last.split_once('-') {
                Some((a, b)) => (a.parse::<u32>(), b.parse::<u32>()),
                None => (last.parse(), last.parse()),
            };
            let (Ok(a), Ok(b)) = (a, b) else {
                return Err(bad());
            };
            if a > b || path.len() >= MAX_PATH {
                return Err(bad());
            }
            path.push(a);
            if let Some(d) = done.parent_mut(&path) {
                d.add_whole(a, b);
            }
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_round_trip() {
        let mut done = Done::default();
        for path in [
            &[0][..],
            &[1],
            &[3],
            &[6],
            &[7],
            &[8],
            &[9, 0],
            &[9, 1],
            &[9, 2, 4],
        ] {
            done.insert(path);
        }
        let text = done.text();
        assert_eq!(text, " 0-1 3 6-8 9.0-1 9.2.4");
        assert_eq!(Done::read(&format!("done{text}")), Ok(done.clone()));
        assert!(done.contains(&[9, 1, 5]) && !done.contains(&[9, 2]) && !done.contains(&[2]));
        assert!(done.below(&[9]).is_some() && done.below(&[9, 0]).is_none());
        assert!(!done.close(&[9, 2], 5));
        assert!(!done.close(&[9], 3));
        done.insert(&[9, 2]);
        assert!(done.close(&[9], 3));
        assert_eq!(done.text(), " 0-1 3 6-9");
        assert!(Done::read("done 1.x").is_err() && Done::read("done 5-2").is_err());
        let mut ranges = Done::read("done 0-3 5 7-9 12.1").expect("reads");
        ranges.insert(&[4]);
        ranges.insert(&[11]);
        assert_eq!(ranges.text(), " 0-5 7-9 11 12.1");
        ranges.insert(&[10]);
        ranges.insert(&[6]);
        assert_eq!(ranges.text(), " 0-11 12.1");
        ranges.insert(&[12]);
        assert_eq!(ranges.text(), " 0-12");
        assert_eq!(ranges.last_unit(), Some(12));
    }

    #[test]
    fn text_round_trips() {
        let mut c = Checkpoint::none((17, 17, 3));
        c.maxima = vec![0, 12, 22];
        c.start_pass(146, 5).expect("a new pass");
        c.done.insert(&[1]);
        c.done.insert(&[3, 2]);
        let mut d = Checkpoint::none((17, 17, 3));
        d.read(&c.text()).expect("reads back");
        assert_eq!((&d.maxima, d.pass, d.max_known), (&c.maxima, c.pass, false));
        assert_eq!((&d.done, d.units), (&c.done, Some(5)));
        assert!(d.start_pass(146, 5).is_ok());
        assert!(d.start_pass(146, 6).is_err());
        let mut other = Checkpoint::none((17, 17, 4));
        assert!(other.read(&c.text()).is_err());
    }

    /// A file written before parts of units were saved (no `units` line) still reads, unless it
    /// names a unit the pass does not have.
    #[test]
    fn older_files_read() {
        let text = "maxblack checkpoint\ngrid 17 17 3\nmaxima 12 24\npass 146\ndone 0-33219\n";
        let mut c = Checkpoint::none((17, 17, 3));
        c.read(text).expect("reads");
        assert!(c.done.contains(&[33219]) && !c.done.contains(&[33220]));
        let mut short = Checkpoint::none((17, 17, 3));
        short.read(text).expect("reads");
        assert!(short.start_pass(146, 33000).is_err());
        assert!(c.start_pass(146, 40000).is_ok());
        assert!(c.text().contains("pass 146\nunits 40000\ndone 0-33219\n"));
    }
}
