//! Checkpoints of `quarto-book`: the solved positions of the deepest level of a book, one text
//! book line each (`OOOO PPPPPPPPPPPPPPPP w|d|l [N]`, see [`Book`](super::Book)), appended as
//! they are solved, in any order.
//!
//! A checkpoint is read back against the level it belongs to: every line must be a position of
//! that level (a canonical position with the book's depth of pieces placed); blank lines and
//! `#` lines are skipped; the same position again with the same entry is accepted, with another
//! value or distance (in this file or in another one read before) is refused. A last line
//! without its newline is what a killed run leaves: it is ignored, and [`Writer::open`] cuts it
//! off before appending.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

use cp_puzzles::quarto::book::{
    entry_line, not_a_regular_file, parse_entry_line, regular_file, BookError, Entry,
};
use cp_puzzles::quarto::symmetry::Canonical;

/// The largest checkpoint read: 64 MiB (a whole level 4 takes about 2 MB).
pub const MAX_CHECKPOINT_BYTES: u64 = 64 << 20;

/// The positions of one level of a book, to check checkpoint lines against.
#[derive(Debug)]
pub struct Level {
    /// Pieces placed in each position.
    pub placed: u32,
    /// The positions, in canonical order.
    pub positions: Vec<Canonical>,
    members: BTreeSet<Canonical>,
}

impl Level {
    /// The level of the canonical positions `positions`, each with `placed` pieces placed.
    #[must_use]
    pub fn new(placed: u32, positions: BTreeSet<Canonical>) -> Level {
        Level {
            placed,
            positions: positions.iter().copied().collect(),
            members: positions,
        }
    }

    /// Whether `c` is a position of the level.
    #[must_use]
    pub fn contains(&self, c: &Canonical) -> bool {
        self.members.contains(c)
    }
}

/// Where an entry was read: the file's number among those read (see [`Known::files`]) and the
/// line (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Origin {
    file: usize,
    line: usize,
}

/// The values read from checkpoints so far, with where each was first read.
#[derive(Debug, Default)]
pub struct Known {
    values: BTreeMap<Canonical, (Entry, Origin)>,
    /// The files read, in order.
    files: Vec<PathBuf>,
}

/// What reading one checkpoint found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadSummary {
    /// Entry lines read (repeats included).
    pub entries: usize,
    /// The length in bytes of the complete lines (everything but an unfinished last line).
    pub complete_bytes: u64,
    /// The number of the unfinished last line that was ignored, if any.
    pub unfinished_line: Option<usize>,
}

/// Why a checkpoint was refused.
#[derive(Debug)]
pub enum CheckpointError {
    /// The file cannot be read.
    Read(PathBuf, std::io::Error),
    /// The path is no regular file: what it is instead (a folder, a character device, ...).
    NotAFile(PathBuf, &'static str),
    /// The file is over [`MAX_CHECKPOINT_BYTES`].
    TooLarge(PathBuf),
    /// A line that is not an entry.
    BadLine(PathBuf, usize),
    /// A line whose position has another number of pieces placed than the level's.
    OtherDepth {
        path: PathBuf,
        line: usize,
        placed: u32,
        level: u32,
    },
    /// A line whose position is not one of the level (not canonical, or not reachable in play).
    NotInLevel {
        path: PathBuf,
        line: usize,
        level: u32,
    },
    /// A line giving a position another value or distance than an earlier line did.
    Conflict {
        path: PathBuf,
        line: usize,
        position: Canonical,
        value: Entry,
        first_path: PathBuf,
        first_line: usize,
        first_value: Entry,
    },
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Read(path, e) => {
                write!(f, "checkpoint {}: cannot read it: {e}", path.display())
            }
            CheckpointError::NotAFile(path, found) => write!(
                f,
                "checkpoint {}: expected a regular file, found {found}",
                path.display()
            ),
            CheckpointError::TooLarge(path) => write!(
                f,
                "checkpoint {}: larger than a checkpoint can be ({MAX_CHECKPOINT_BYTES} bytes)",
                path.display()
            ),
            CheckpointError::BadLine(path, line) => write!(
                f,
                "checkpoint {} line {line}: expected \"OOOO PPPPPPPPPPPPPPPP w|d|l [N]\" (hex occupancy, hex pieces, value, distance 1-8)",
                path.display()
            ),
            CheckpointError::OtherDepth { path, line, placed, level } => write!(
                f,
                "checkpoint {} line {line}: a position with {placed} pieces placed, not {level} (the --depth)",
                path.display()
            ),
            CheckpointError::NotInLevel { path, line, level } => write!(
                f,
                "checkpoint {} line {line}: not a canonical position with {level} pieces placed",
                path.display()
            ),
            CheckpointError::Conflict {
                path,
                line,
                position,
                value,
                first_path,
                first_line,
                first_value,
            } => write!(
                f,
                "checkpoint {} line {line}: {:04x} {:016x} is {} there, but {} in checkpoint {} line {first_line}",
                path.display(),
                position.occupied,
                position.pieces,
                value,
                first_value,
                first_path.display()
            ),
        }
    }
}

impl std::error::Error for CheckpointError {}

impl Known {
    /// Reads the checkpoint at `path` into the known values, checking each line against `level`.
    ///
    /// # Errors
    /// The file cannot be read or is too large, or the first line that is not an entry, not a
    /// position of `level`, or gives a known position another value or distance.
    pub fn read(&mut self, path: &Path, level: &Level) -> Result<ReadSummary, CheckpointError> {
        let file = regular_file(path).map_err(|e| match e {
            BookError::NotAFile { found } => CheckpointError::NotAFile(path.to_path_buf(), found),
            BookError::Read(e) => CheckpointError::Read(path.to_path_buf(), e),
            other => CheckpointError::Read(path.to_path_buf(), std::io::Error::other(other)),
        })?;
        let mut bytes = Vec::new();
        file.take(MAX_CHECKPOINT_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| CheckpointError::Read(path.to_path_buf(), e))?;
        if bytes.len() as u64 > MAX_CHECKPOINT_BYTES {
            return Err(CheckpointError::TooLarge(path.to_path_buf()));
        }
        self.add(path, &bytes, level)
    }

    /// Adds the checkpoint `bytes` (read from `path`, named in errors).
    ///
    /// # Errors
    /// As [`Known::read`].
    pub fn add(
        &mut self,
        path: &Path,
        bytes: &[u8],
        level: &Level,
    ) -> Result<ReadSummary, CheckpointError> {
        let file = self.files.len();
        self.files.push(path.to_path_buf());
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let lines: Vec<&[u8]> = bytes[..complete].split_inclusive(|&b| b == b'\n').collect();
        let mut entries = 0;
        for (i, raw) in lines.iter().enumerate() {
            let origin = Origin { file, line: i + 1 };
            let text = std::str::from_utf8(raw).map_or("\u{0}", str::trim);
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            let (c, v) = parse_entry_line(text)
                .ok_or_else(|| CheckpointError::BadLine(path.to_path_buf(), origin.line))?;
            self.check_level(path, origin.line, &c, level)?;
            self.insert(path, origin, c, v)?;
            entries += 1;
        }
        Ok(ReadSummary {
            entries,
            complete_bytes: complete as u64,
            unfinished_line: (complete < bytes.len()).then_some(lines.len() + 1),
        })
    }

    fn check_level(
        &self,
        path: &Path,
        line: usize,
        c: &Canonical,
        level: &Level,
    ) -> Result<(), CheckpointError> {
        let placed = c.occupied.count_ones();
        if placed != level.placed {
            return Err(CheckpointError::OtherDepth {
                path: path.to_path_buf(),
                line,
                placed,
                level: level.placed,
            });
        }
        if !level.contains(c) {
            return Err(CheckpointError::NotInLevel {
                path: path.to_path_buf(),
                line,
                level: level.placed,
            });
        }
        Ok(())
    }

    fn insert(
        &mut self,
        path: &Path,
        origin: Origin,
        c: Canonical,
        v: Entry,
    ) -> Result<(), CheckpointError> {
        match self.values.get(&c) {
            Some(&(old, first)) if old != v => Err(CheckpointError::Conflict {
                path: path.to_path_buf(),
                line: origin.line,
                position: c,
                value: v,
                first_path: self.files[first.file].clone(),
                first_line: first.line,
                first_value: old,
            }),
            Some(_) => Ok(()),
            None => {
                self.values.insert(c, (v, origin));
                Ok(())
            }
        }
    }

    /// The entry of `c`, if a checkpoint gave it.
    #[must_use]
    pub fn entry(&self, c: &Canonical) -> Option<Entry> {
        self.values.get(c).map(|&(v, _)| v)
    }
}

/// A run's own checkpoint, locked for the run's lifetime (an advisory lock: a second run on the
/// same file is refused instead of cutting or interleaving the first one's lines). Solved entries
/// are appended one whole line per write, so that a run killed at any moment leaves at most an
/// unfinished last line.
#[derive(Debug)]
pub struct Writer {
    file: File,
    path: PathBuf,
    /// When the file's data was last synced to its storage.
    synced: Instant,
}

/// The most time between two syncs of a checkpoint's data to its storage while entries are
/// appended: what a machine that goes down (not only the process) can lose.
pub const SYNC_EVERY: Duration = Duration::from_secs(10);

/// Why a run's own checkpoint cannot be used.
#[derive(Debug)]
pub enum OpenError {
    /// Another process holds the file's lock.
    Locked(PathBuf),
    /// The file cannot be opened, created, read or cut.
    Io(PathBuf, std::io::Error),
    /// The file is refused as a checkpoint.
    Refused(CheckpointError),
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Locked(path) => write!(
                f,
                "checkpoint {}: another run is using it (one run at a time per checkpoint)",
                path.display()
            ),
            OpenError::Io(path, e) => write!(f, "checkpoint {}: {e}", path.display()),
            OpenError::Refused(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for OpenError {}

impl Writer {
    /// Opens the checkpoint at `path` (created if missing) and locks it, reads its entries into
    /// `known` against `level`, and cuts off an unfinished last line, ready to append.
    ///
    /// # Errors
    /// Another run holds the lock, the file cannot be opened, read or cut, or it is refused as
    /// [`Known::read`] refuses a checkpoint: a path that is no regular file (`/dev/null`, which
    /// would take every line and keep none, a folder, a named pipe) is refused before it is
    /// opened, and again once open.
    pub fn open(
        path: &Path,
        known: &mut Known,
        level: &Level,
    ) -> Result<(Writer, ReadSummary), OpenError> {
        let io = |e| OpenError::Io(path.to_path_buf(), e);
        let refuse =
            |found| OpenError::Refused(CheckpointError::NotAFile(path.to_path_buf(), found));
        match std::fs::metadata(path) {
            Ok(meta) => not_a_regular_file(&meta).map_or(Ok(()), |found| Err(refuse(found)))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(e)),
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        if let Some(found) = not_a_regular_file(&file.metadata().map_err(io)?) {
            return Err(refuse(found));
        }
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(OpenError::Locked(path.to_path_buf()))
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
        }
        let mut bytes = Vec::new();
        (&mut file)
            .take(MAX_CHECKPOINT_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_CHECKPOINT_BYTES {
            return Err(OpenError::Refused(CheckpointError::TooLarge(
                path.to_path_buf(),
            )));
        }
        let summary = known.add(path, &bytes, level).map_err(OpenError::Refused)?;
        if summary.complete_bytes < bytes.len() as u64 {
            file.set_len(summary.complete_bytes).map_err(io)?;
        }
        file.seek(SeekFrom::End(0)).map_err(io)?;
        let writer = Writer {
            file,
            path: path.to_path_buf(),
            synced: Instant::now(),
        };
        Ok((writer, summary))
    }

    /// Appends the entry `c`, `v` (one line, written at once, not buffered: the process can be
    /// killed right after), and syncs the file if the last sync is [`SYNC_EVERY`] old.
    ///
    /// # Errors
    /// The write or the sync fails.
    pub fn append(&mut self, c: &Canonical, v: Entry) -> std::io::Result<()> {
        let line = format!("{}\n", entry_line(c, v));
        self.file.write_all(line.as_bytes())?;
        if self.synced.elapsed() >= SYNC_EVERY {
            self.sync()?;
        }
        Ok(())
    }

    /// Syncs the file's data to its storage.
    ///
    /// # Errors
    /// The sync fails.
    pub fn sync(&mut self) -> std::io::Result<()> {
        self.file.sync_data()?;
        self.synced = Instant::now();
        Ok(())
    }

    /// The checkpoint's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// A part of a level to search: the positions whose index in canonical order is `index` modulo
/// `count` (`K/N` on the command line, `0 <= K < N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K: the remainder of the indices taken.
    pub index: u32,
    /// N: the number of shards.
    pub count: u32,
}

impl Shard {
    /// Whether the position of index `i` (in canonical order) belongs to the shard.
    #[must_use]
    pub fn has(&self, i: usize) -> bool {
        i % self.count as usize == self.index as usize
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("expected K/N with 0 <= K < N (such as 0/8), found \"{s}\"");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) =
            (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quarto_play::book::canonical_positions;
    use cp_puzzles::quarto::Value;

    /// Every index belongs to exactly one shard of N, for every N; bad shard texts are refused.
    #[test]
    fn shards_partition_the_level() {
        for count in 1..=12 {
            for i in 0..200 {
                let owners = (0..count)
                    .filter(|&index| Shard { index, count }.has(i))
                    .count();
                assert_eq!(owners, 1, "index {i} of {count} shards");
            }
        }
        assert_eq!("3/8".parse(), Ok(Shard { index: 3, count: 8 }));
        for bad in [
            "", "3", "3/", "/3", "2/2", "0/0", "-1/2", "1/2/3", "a/b", " 1/2",
        ] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    /// The complete lines are read, an unfinished last one is not (and its number is told), and
    /// a written entry reads back as itself.
    #[test]
    fn unfinished_last_line_is_left_out() {
        let level = Level::new(1, canonical_positions(1));
        let win = Entry::new(Value::Win, Some(3)).unwrap();
        let draw = Entry::of_value(Value::Draw);
        let lines: Vec<String> = (level.positions.iter().zip([win, draw].iter().cycle()))
            .map(|(c, &v)| format!("{}\n", entry_line(c, v)))
            .collect();
        let text = lines.concat();
        for cut in 0..=text.len() {
            let mut known = Known::default();
            let summary = known
                .add(Path::new("x"), &text.as_bytes()[..cut], &level)
                .unwrap();
            let complete = text[..cut].matches('\n').count();
            assert_eq!(summary.entries, complete);
            assert_eq!(
                summary.complete_bytes as usize,
                lines[..complete].concat().len()
            );
            let unfinished = text[..cut].len() > summary.complete_bytes as usize;
            assert_eq!(summary.unfinished_line, unfinished.then_some(complete + 1));
            for (k, c) in level.positions.iter().enumerate() {
                let expected = (k < complete).then_some(if k % 2 == 0 { win } else { draw });
                assert_eq!(known.entry(c), expected);
            }
        }
    }
}
