//! A checkpoint's file: its text (see the parent module), checked when read (the checksum, the
//! settings, the consistency of the maxima and the pass), and written to a new file then renamed.
//!
//! The maxima are checked against what the maxima of any puzzle satisfy: they do not fall with
//! the height, one more row adds at most its width, and `maxima[a + b] <= maxima[a] +
//! maxima[b]`; the pass lies between the grid's floor and its Russian-doll bound. These catch
//! numbers that cannot be maxima, not every wrong one: the checksum is what vouches for the
//! file.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::{Checkpoint, Done, Settings};

/// The first line of a checkpoint.
const HEADER: &str = "maxblack checkpoint 2";
/// The first line of the files written before checkpoints had a checksum.
const UNCHECKED_HEADER: &str = "maxblack checkpoint";
/// The largest file read as a checkpoint (a pass with millions of units done in scattered
/// ranges stays far below).
const MAX_BYTES: u64 = 256 << 20;
/// How many names `PATH.tmp.PID.N` a write tries before it gives up.
pub(super) const TEMPORARY_NAMES: u32 = 100;
/// What the user is told to do with a file that is refused.
const AFRESH: &str = "it is not trusted: remove it to start afresh";

/// The 64-bit FNV-1a hash of `bytes`.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `text` (whole lines) followed by its checksum line.
pub(in crate::maxblack) fn seal(mut text: String) -> String {
    let sum = checksum(text.as_bytes());
    text.push_str(&format!("checksum {sum:016x}\n"));
    text
}

/// The text of the checkpoint in `path` without its checksum line, the checksum checked; `None`
/// if there is no such file. On error, what is wrong.
pub(super) fn read(path: &Path) -> Result<Option<String>, String> {
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot be read: {e}")),
    };
    if !meta.is_file() {
        return Err("is not a regular file".into());
    }
    let too_large = || format!("is larger than a checkpoint ({MAX_BYTES} bytes at most)");
    if meta.len() > MAX_BYTES {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|f| f.take(MAX_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot be read: {e}"))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(too_large());
    }
    let text = String::from_utf8(bytes).map_err(|_| "is not text: not a checkpoint".to_string())?;
    unseal(&text).map(|body| Some(body.to_string()))
}

/// The lines of `text` before its checksum line, if the checksum matches them.
fn unseal(text: &str) -> Result<&str, String> {
    match text.lines().next() {
        Some(HEADER) => {}
        Some(UNCHECKED_HEADER) => {
            return Err(format!(
                "was written by an older version of maxblack, without a checksum, and cannot \
                 be verified: {AFRESH}"
            ))
        }
        _ => return Err(format!("line 1: expected {HEADER:?}: not a checkpoint")),
    }
    let lines = text.lines().count();
    let body_end = text
        .strip_suffix('\n')
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1);
    let last = text[body_end..]
        .strip_suffix('\n')
        .unwrap_or(&text[body_end..]);
    let recorded = last
        .strip_prefix("checksum ")
        .filter(|hex| hex.len() == 16 && text.ends_with('\n'))
        .and_then(|hex| u64::from_str_radix(hex, 16).ok());
    let Some(recorded) = recorded else {
        return Err(format!(
            "line {lines}: expected \"checksum\" and 16 hex digits as the last line (the file \
             is cut short or was edited): {AFRESH}"
        ));
    };
    let body = &text[..body_end];
    if checksum(body.as_bytes()) != recorded {
        return Err(format!(
            "the checksum does not match the content (the file is damaged or was edited): \
             {AFRESH}"
        ));
    }
    Ok(body)
}

/// A line's words after the first, as numbers.
fn numbers<'a>(words: impl Iterator<Item = &'a str>) -> Result<Vec<u64>, String> {
    words
        .map(|w| w.parse::<u64>().map_err(|_| format!("bad number {w:?}")))
        .collect()
}

impl Checkpoint {
    /// Reads the text of a checkpoint whose checksum matched (see [`read`]); on error, what is
    /// wrong, with the line number where there is one.
    pub(super) fn read(&mut self, text: &str) -> Result<(), String> {
        let (mut grid, mut walk) = (None, None);
        for (no, line) in text.lines().enumerate().skip(1).map(|(i, l)| (i + 1, l)) {
            let mut words = line.split_whitespace();
            let Some(word) = words.next() else { continue };
            let at = |what: String| format!("line {no}: {what}");
            match word {
                "grid" => grid = Some((no, numbers(words).map_err(at)?)),
                "walk" => walk = Some((no, words.collect::<Vec<&str>>().join(" "))),
                "maxima" => {
                    let values = numbers(words).map_err(at)?;
                    self.maxima = std::iter::once(0)
                        .chain(values.iter().map(|&v| u32::try_from(v).unwrap_or(u32::MAX)))
                        .collect();
                }
                "pass" | "max" | "units" => {
                    let &[g] = numbers(words).map_err(at)?.as_slice() else {
                        return Err(at(format!("expected one number after {word}")));
                    };
                    if word == "units" {
                        self.units = Some(usize::try_from(g).unwrap_or(usize::MAX));
                    } else {
                        self.pass = Some(u32::try_from(g).unwrap_or(u32::MAX));
                        self.max_known = word == "max";
                    }
                }
                "done" => self.done = Done::read(line).map_err(at)?,
                _ => return Err(at(format!("unknown line {word:?}"))),
            }
        }
        self.check_settings(grid, walk)?;
        self.check_content()
    }

    /// Checks the `grid` and `walk` lines (their line numbers and what follows the word).
    fn check_settings(
        &self,
        grid: Option<(usize, Vec<u64>)>,
        walk: Option<(usize, String)>,
    ) -> Result<(), String> {
        let (r, c, k) = self.settings.grid;
        match grid {
            None => return Err("no \"grid\" line: not a checkpoint".into()),
            Some((no, numbers)) if numbers != [r as u64, c as u64, k as u64] => {
                return Err(format!("line {no}: for another puzzle, not {r} {c} {k}"))
            }
            Some(_) => {}
        }
        let expected = walk_line(&self.settings);
        match walk {
            None => Err("no \"walk\" line: not a checkpoint".into()),
            Some((no, found)) if found != expected => Err(format!(
                "line {no}: made with another walk ({found:?}, not {expected:?}): {AFRESH}"
            )),
            Some(_) => Ok(()),
        }
    }

    /// Checks that the maxima and the pass are numbers they can be (see the module's doc).
    fn check_content(&self) -> Result<(), String> {
        let (rows, width) = self.settings.search_shape();
        let m = &self.maxima;
        let bad = |what: String| Err(format!("{what}: {AFRESH}"));
        if !m.is_empty() && m.len() != rows {
            return bad(format!("{} maxima, not {}", m.len() - 1, rows - 1));
        }
        for h in 1..m.len() {
            if m[h] < m[h - 1] || m[h] - m[h - 1] > width as u32 {
                return bad(format!(
                    "the maxima {} and {} cannot follow",
                    m[h - 1],
                    m[h]
                ));
            }
            if let Some(a) = (1..h).find(|&a| m[h] > m[a] + m[h - a]) {
                return bad(format!(
                    "the maximum of {h} rows ({}) exceeds those of {a} and {} rows together",
                    m[h],
                    h - a
                ));
            }
        }
        let Some(pass) = self.pass else {
            if self.units.is_some() || !self.done.is_empty() {
                return bad("units or parts done without a pass".into());
            }
            return Ok(());
        };
        if rows >= 2 {
            if m.is_empty() {
                return bad(format!("a pass at {pass} without the maxima"));
            }
            let bound = (1..rows).map(|j| m[j] + m[rows - j]).min().unwrap_or(0);
            if pass < m[rows - 1] || pass > bound.max(m[rows - 1]) {
                return bad(format!("a pass at {pass} outside what the maxima allow"));
            }
        }
        Ok(())
    }

    /// The file's text, sealed with its checksum.
    pub(super) fn text(&self) -> String {
        let (r, c, k) = self.settings.grid;
        let mut text = format!(
            "{HEADER}\ngrid {r} {c} {k}\nwalk {}\n",
            walk_line(&self.settings)
        );
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
        seal(text)
    }
}

/// What follows `walk` in a checkpoint made with `settings`: the rows of a unit, the deepest row
/// at which parts are numbered, and whether images are pruned (`2 14 pruned`).
fn walk_line(settings: &Settings) -> String {
    let images = if settings.pruned { "pruned" } else { "all" };
    format!("{} {} {images}", settings.unit_rows, settings.part_rows)
}

/// Writes `text` to `path`: to a new file beside it (created exclusively, so never an existing
/// file and never through a symbolic link), then renamed over `path` (which replaces `path`
/// itself, even if it is a link). A stop in the middle leaves the previous file. It is not
/// flushed to the disk (tests rewrite it after every unit): a file that a crash of the machine
/// leaves damaged fails its checksum and is refused.
pub(super) fn write(path: &Path, text: &str) -> io::Result<()> {
    let (tmp, mut file) = new_file_beside(path)?;
    let written = file
        .write_all(text.as_bytes())
        .and_then(|()| fs::rename(&tmp, path));
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// A new file `PATH.tmp.PID.N`, created exclusively (`create_new`), with the first `N` free.
fn new_file_beside(path: &Path) -> io::Result<(PathBuf, File)> {
    for n in 0..TEMPORARY_NAMES {
        let mut name = path.as_os_str().to_owned();
        name.push(format!(".tmp.{}.{n}", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&name) {
            Ok(file) => return Ok((PathBuf::from(name), file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free name for a new file beside it",
    ))
}
