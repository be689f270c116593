//! The progress of a long search, kept in a small text file so that a stopped run continues where
//! it was:
//!
//! ```text
//! maxblack checkpoint 2
//! grid 17 17 3
//! walk 2 14 pruned
//! maxima 12 24 ...
//! pass 146
//! units 35120
//! done 0-15 17 19-30 31.0-4 31.5.0-2
//! checksum 0123456789abcdef
//! ```
//!
//! `grid` is the input (rows, columns, K); `walk` how the final walk cuts and numbers its work
//! (see [`Settings`]): every other line means something only with these. `maxima` holds the exact
//! maxima of the rectangles 1, 2, ... rows high that the final grid's search builds on (in the
//! search's orientation, narrow rows); `pass G` says that no grid holds more than G black cells,
//! `units` how many units of work the walk with goal G has (see `Search::units`), and `done`
//! lists the parts of that walk that hold no grid with G or more: a unit (`17`, or a range
//! `0-15`), or a part of one, named by the path of child numbers below it (`31.5.0-2`: children
//! 0 to 2 of child 5 of unit 31, numbered in the walk's order among the children that pass the
//! bounds at the goal, see `Search::children`); `max G` (in place of `pass`) says that G is the
//! maximum. Every line is a proved fact, so a file written at any moment is a valid start.
//!
//! The last line is a checksum (64-bit FNV-1a, in hex) of every byte before it. A file whose
//! checksum does not match, or that was made with other settings, is refused: it is never
//! trusted, since a wrong fact would silently give a wrong answer. The checksum catches damage and
//! edits, not a forgery by someone who recomputes it. The maxima are also checked against what
//! any maxima satisfy (see [`file`]).

mod done;
#[cfg(not(bundle))]
mod file;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use done::Done;
#[cfg(test)]
pub(super) use file::seal;

use super::error::Error;

/// What a checkpoint's content means depends on: the puzzle, and how the final walk cuts and
/// numbers its work. A file made with other settings is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Rows, columns and K of the puzzle.
    pub grid: (usize, usize, usize),
    /// The rows of each unit of work of a pass (0: one unit, the whole walk).
    pub unit_rows: usize,
    /// The deepest row at which parts of units are numbered.
    pub part_rows: usize,
    /// Whether the walk visits only some images of each grid (which changes its units).
    pub pruned: bool,
}

impl Settings {
    /// The rows and the width of the search's grid: the puzzle's, turned so that rows are as
    /// narrow as its shorter side.
    #[cfg(not(bundle))]
    fn search_shape(&self) -> (usize, usize) {
        let (r, c, _) = self.grid;
        (r.max(c), r.min(c))
    }
}

/// What a checkpoint file holds, and where it is written.
#[derive(Debug)]
pub struct Checkpoint {
    path: Option<PathBuf>,
    settings: Settings,
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
    /// The snapshots taken so far (each one's number).
    snapshots: u64,
    /// The number of the last snapshot written, shared with the snapshots: a snapshot older
    /// than it is not written.
    written: Arc<Mutex<u64>>,
}

/// The content of a checkpoint file at one moment, to be written to it.
#[cfg(not(bundle))]
#[derive(Debug)]
pub struct Snapshot {
    path: PathBuf,
    text: String,
    /// Its number: later snapshots have higher ones.
    number: u64,
    written: Arc<Mutex<u64>>,
}

#[cfg(not(bundle))]
impl Snapshot {
    /// Writes the snapshot to the file (see `file::write`), unless a later one was written
    /// already. Snapshots of one checkpoint are written one at a time (under a lock of their
    /// own, not the checkpoint's), so the file only moves forward.
    ///
    /// # Errors
    /// [`Error::Checkpoint`] if it cannot be written.
    pub fn write(self) -> Result<(), Error> {
        let mut written = self
            .written
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if *written >= self.number {
            return Ok(());
        }
        self.write_file()?;
        *written = self.number;
        Ok(())
    }

    #[cfg(not(bundle))]
    fn write_file(&self) -> Result<(), Error> {
        file::write(&self.path, &self.text).map_err(|e| {
            Error::Checkpoint(format!("{}: cannot be written: {e}", self.path.display()))
        })
    }
}

/// The bundle for online judges takes no snapshot.
#[cfg(bundle)]
pub struct Snapshot;

#[cfg(bundle)]
impl Snapshot {
    pub fn write(self) -> Result<(), Error> {
        Ok(())
    }
}

impl Checkpoint {
    /// A checkpoint kept in memory only.
    #[must_use]
    pub fn none(settings: Settings) -> Self {
        Checkpoint {
            path: None,
            settings,
            maxima: Vec::new(),
            pass: None,
            max_known: false,
            done: Done::default(),
            units: None,
            every: Duration::from_secs(10),
            last_saved: Instant::now(),
            snapshots: 0,
            written: Arc::new(Mutex::new(0)),
        }
    }

    /// The checkpoint in `path` for a walk with `settings`, or a fresh one if the file does not
    /// exist, rewritten at most once every `every` as units end (and at each pass).
    ///
    /// # Errors
    /// [`Error::Checkpoint`], naming the file, if it cannot be read, is not a checkpoint, fails
    /// its checksum or its checks, was written without a checksum, or is for another puzzle or
    /// other settings.
    #[cfg(not(bundle))]
    pub fn open(path: &Path, settings: Settings, every: Duration) -> Result<Self, Error> {
        let mut c = Checkpoint {
            path: Some(path.to_path_buf()),
            every,
            ..Checkpoint::none(settings)
        };
        let Some(text) = file::read(path).map_err(|what| c.error(what))? else {
            return Ok(c);
        };
        c.read(&text).map_err(|what| c.error(what))?;
        Ok(c)
    }

    /// The bundle for online judges keeps no checkpoint file.
    #[cfg(bundle)]
    pub fn open(path: &Path, _: Settings, _: Duration) -> Result<Self, Error> {
        Err(Error::Checkpoint(format!(
            "{}: not kept by this build",
            path.display()
        )))
    }

    #[cfg(not(bundle))]
    fn error(&self, what: String) -> Error {
        let path = self.path.as_deref().unwrap_or(Path::new(""));
        Error::Checkpoint(format!("{}: {what}", path.display()))
    }

    /// Writes the file now (see [`Snapshot::write`]).
    ///
    /// # Errors
    /// [`Error::Checkpoint`] if it cannot be written.
    pub fn save(&mut self) -> Result<(), Error> {
        self.snapshot().map_or(Ok(()), Snapshot::write)
    }

    /// The file's content as it stands, to be written later with [`Snapshot::write`] (outside
    /// any lock held on the checkpoint); `None` for a checkpoint kept in memory only.
    #[cfg(not(bundle))]
    pub fn snapshot(&mut self) -> Option<Snapshot> {
        self.last_saved = Instant::now();
        let path = self.path.clone()?;
        self.snapshots += 1;
        Some(Snapshot {
            path,
            text: self.text(),
            number: self.snapshots,
            written: Arc::clone(&self.written),
        })
    }

    /// The bundle for online judges writes no file.
    #[cfg(bundle)]
    pub fn snapshot(&mut self) -> Option<Snapshot> {
        self.last_saved = Instant::now();
        None
    }

    /// A snapshot (see [`Checkpoint::snapshot`]) if the last one is older than the interval.
    pub fn snapshot_if_due(&mut self) -> Option<Snapshot> {
        if self.last_saved.elapsed() >= self.every {
            self.snapshot()
        } else {
            None
        }
    }

    /// Starts the pass with goal `goal` (every higher goal is ruled out) and `units` units of
    /// work, keeping the parts done if it is the pass already recorded.
    ///
    /// # Errors
    /// [`Error::Checkpoint`] if the recorded pass has another number of units, or names a unit
    /// past the last (a file from another version of the walk).
    #[cfg(not(bundle))]
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
                     was written by another version of the search (remove it to start afresh)"
                )));
            }
        }
        self.units = Some(units);
        Ok(())
    }

    /// The bundle for online judges reads no file, so a pass is new or the one it started.
    #[cfg(bundle)]
    pub fn start_pass(&mut self, goal: u32, units: usize) -> Result<(), Error> {
        if self.pass != Some(goal) {
            self.pass = Some(goal);
            self.done = Done::default();
        }
        self.units = Some(units);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
