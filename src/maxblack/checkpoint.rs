//! The progress of a long search, kept in a small text file so that a stopped run continues where
//! it was:
//!
//! ```text
//! maxblack checkpoint
//! grid 17 17 3
//! maxima 9 16 ...
//! pass 146
//! done 0-15 17 19-30
//! ```
//!
//! `grid` is the input (rows, columns, K); `maxima` the exact maxima of the rectangles 1, 2, ...
//! rows high that the final grid's search builds on (in the search's orientation, narrow rows);
//! `pass G` says that no grid holds more than G black cells, and `done` lists the units of work
//! of the walk with goal G (see `Search::units`) that hold no grid with G or more; `max G` (in
//! place of `pass`) says that G is the maximum. Every line is a proved fact, so a file written at
//! any moment is a valid start.

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
    /// `done[i]`: unit `i` of the current pass holds no grid as black as its goal.
    pub done: Vec<bool>,
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
            done: Vec::new(),
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

    fn error(&self, what: String) -> Error {
        let path = self.path.as_deref().unwrap_or(Path::new(""));
        Error::Checkpoint(format!("{}: {what}", path.display()))
    }

    /// Reads the file's text; on error, the line number and what is wrong.
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
                "pass" | "max" => {
                    let &[g] = numbers.as_slice() else {
                        return Err((no, format!("expected one number after {word}")));
                    };
                    self.pass = Some(g as u32);
                    self.max_known = word == "max";
                }
                "done" => self.done = read_ranges(line).ok_or((no, "bad unit ranges".into()))?,
                _ => return Err((no, format!("unknown line {word:?}"))),
            }
        }
        Ok(())
    }

    /// The file's text.
    fn text(&self) -> String {
        let (r, c, k) = self.grid;
        let mut text = format!("maxblack checkpoint\ngrid {r} {c} {k}\n");
        if self.maxima.len() > 1 {
            let maxima: Vec<String> = self.maxima[1..].iter().map(u32::to_string).collect();
            text += &format!("maxima {}\n", maxima.join(" "));
        }
        if let Some(g) = self.pass {
            let word = if self.max_known { "max" } else { "pass" };
            text += &format!("{word} {g}\ndone{}\n", write_ranges(&self.done));
        }
        text
    }

    /// Writes the file now (through a temporary file renamed over it, so that a stop in the
    /// middle leaves the previous version).
    ///
    /// # Errors
    /// [`Error::Checkpoint`] if it cannot be written.
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

    /// Starts the pass with goal `goal` (every higher goal is ruled out), keeping the units done if
    /// it is the pass already recorded.
    pub fn start_pass(&mut self, goal: u32, units: usize) {
        if self.pass != Some(goal) {
            self.pass = Some(goal);
            self.done.clear();
        }
        self.done.resize(units, false);
    }
}

/// ` 0-15 17 19-30` for the units done.
fn write_ranges(done: &[bool]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < done.len() {
        if !done[i] {
            i += 1;
            continue;
        }
        let start = i;
        while i < done.len() && done[i] {
            i += 1;
        }
        out += &if i - start == 1 {
            format!(" {start}")
        } else {
            format!(" {start}-{}", i - 1)
        };
    }
    out
}

/// The inverse of [`write_ranges`] on a `done ...` line.
fn read_ranges(line: &str) -> Option<Vec<bool>> {
    let mut done = Vec::new();
    for range in line.split_whitespace().skip(1) {
        let (a, b) = match range.split_once('-') {
            Some((a, b)) => (a.parse::<usize>().ok()?, b.parse::<usize>().ok()?),
            None => {
                let a = range.parse::<usize>().ok()?;
                (a, a)
            }
        };
        if a > b || b >= 1 << 32 {
            return None;
        }
        if done.len() <= b {
            done.resize(b + 1, false);
        }
        done[a..=b].iter_mut().for_each(|d| *d = true);
    }
    Some(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_round_trip() {
        let done = vec![true, true, false, true, false, false, true, true, true];
        let text = write_ranges(&done);
        assert_eq!(text, " 0-1 3 6-8");
        assert_eq!(read_ranges(&format!("done{text}")), Some(done));
    }

    #[test]
    fn text_round_trips() {
        let mut c = Checkpoint::none((17, 17, 3));
        c.maxima = vec![0, 12, 22];
        c.start_pass(146, 5);
        c.done[1] = true;
        let mut d = Checkpoint::none((17, 17, 3));
        d.read(&c.text()).expect("reads back");
        assert_eq!((&d.maxima, d.pass, d.max_known), (&c.maxima, c.pass, false));
        assert_eq!(d.done, vec![false, true]);
        let mut other = Checkpoint::none((17, 17, 4));
        assert!(other.read(&c.text()).is_err());
    }
}
