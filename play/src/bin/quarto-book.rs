//! `quarto-book`: computes the opening book of `quarto` and `quarto-play`, the value of every
//! canonical position with 1 to `--depth` pieces placed (with the distance of each win and
//! loss), and writes it to stdout in the binary form (or the text form with `--text`); progress
//! on stderr.
//!
//! Only the deepest level is searched: each shallower position's entry follows from the entries
//! of the positions its moves lead to, one level deeper. The deepest level can be searched in
//! parts: `--checkpoint FILE` records each solved position as it is found and skips those
//! already there, `--shard K/N` searches one part of the level (into the checkpoint only), and
//! `--from FILE` merges the checkpoints of other runs.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::error::ErrorKind;
use clap::Parser;
use cp_puzzles::quarto::book::{entry_from_children, entry_line, Entry};
use cp_puzzles::quarto::symmetry::Canonical;
use cp_puzzles::quarto::{Piece, Value};
use cp_puzzles_play::quarto_play::book::checkpoint::{Known, Level, ReadSummary, Shard, Writer};
use cp_puzzles_play::quarto_play::book::{canonical_positions, Book, Solver};

/// The deepest level `--depth` allows. A whole book stops at 4 (`BOOK_DEPTH`): with 5 placed it
/// would hold 2.1 million positions, about 14 MB, over what `--book` reads. The level with 5
/// placed is written by its exceptions (`--non-draws`), or searched in parts (`--shard`).
const MAX_DEPTH: u32 = 5;

/// The deepest whole book `quarto-book` writes.
const BOOK_DEPTH: u32 = 4;

/// The least time between two progress lines.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// Computes the opening book of quarto and quarto-play with the perfect solver.
#[derive(Debug, Parser)]
#[command(name = "quarto-book", version)]
struct Args {
    /// The deepest positions stored, in pieces placed (1 to 4; 5 with --non-draws, --shard or
    /// --measure).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    depth: u32,
    /// Write only the deepest level's entries that are neither draws nor wins in 1, and no
    /// shallower level: the level known by its exceptions (every other position of it is a
    /// draw, or a win in 1 when its piece in hand completes a line).
    #[arg(long, conflicts_with_all = ["measure", "convert"])]
    non_draws: bool,
    /// Only count the positions of each depth and time N of the deepest, spread evenly over
    /// the canonical order, one after the other on one searcher; then print their median.
    #[arg(long, value_name = "N", conflicts_with_all = ["checkpoint", "from", "shard", "no_search"])]
    measure: Option<usize>,
    /// Worker threads, each with its own solver (the book does not depend on it); the default is
    /// the number of cores.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Write the text form (one `OOOO PPPPPPPPPPPPPPPP w|d|l [N]` line per position, N the
    /// distance of a win or a loss) instead of the binary form.
    #[arg(long)]
    text: bool,
    /// Instead of solving, read this book (either form) and write it again (`--text` or binary):
    /// the same entries always give the same bytes.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["measure", "checkpoint", "from", "shard", "no_search"])]
    convert: Option<PathBuf>,
    /// Append each solved position of the deepest level to FILE (one text book line each) and
    /// skip the positions already in it: a killed run, run again, goes on where it stopped.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Also take the positions in these checkpoints (other runs' or shards') as solved; they are
    /// only read. One or more files, and repeatable. Without --checkpoint, a run with --from
    /// never searches.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    from: Vec<PathBuf>,
    /// Search only the positions of the deepest level whose index in canonical order is K
    /// modulo N (0 <= K < N), into the --checkpoint, and write no book.
    #[arg(
        long,
        value_name = "K/N",
        requires = "checkpoint",
        conflicts_with = "no_search"
    )]
    shard: Option<Shard>,
    /// Never search: write the book if the checkpoints hold every position of the deepest
    /// level, else say how many are missing and exit 1.
    #[arg(long)]
    no_search: bool,
}

/// Why a run stopped: the message (one line) and the exit code.
struct Failure {
    code: u8,
    message: String,
}

impl Failure {
    fn new(code: u8, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
        }
    }
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            e.exit()
        }
        Err(e) => {
            // clap's message up to its first blank line (before the usage and tips), on one line.
            let text = e.to_string();
            let lines: Vec<&str> = (text.lines())
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            let message = lines.join(" ");
            let message = message.strip_prefix("error: ").unwrap_or(&message);
            eprintln!("quarto-book: {message} (see --help)");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("quarto-book: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}

fn run(args: &Args) -> Result<(), Failure> {
    let part_only = args.shard.is_some() || args.measure.is_some() || args.non_draws;
    if args.depth > BOOK_DEPTH && !part_only {
        return Err(Failure::new(
            2,
            format!(
                "--depth {}: a whole book stops at {BOOK_DEPTH} pieces placed; add --non-draws \
                 (the level's exceptions) or --shard K/N (search part of the level)",
                args.depth
            ),
        ));
    }
    if let Some(n) = args.measure {
        measure(args.depth, n);
        return Ok(());
    }
    if !args.text && args.shard.is_none() && io::stdout().is_terminal() {
        return Err(Failure::new(
            2,
            "the binary book goes to stdout: redirect it to a file, or use --text",
        ));
    }
    let book = match &args.convert {
        Some(path) => Book::read_file(path)
            .map_err(|e| Failure::new(2, format!("{}: {e}", path.display())))?,
        None => match build(args)? {
            Some(book) => book,
            None => return Ok(()),
        },
    };
    let bytes = if args.text {
        book.to_text().into_bytes()
    } else {
        book.to_bytes()
    };
    let mut out = io::stdout().lock();
    out.write_all(&bytes)
        .and_then(|()| out.flush())
        .map_err(|e| Failure::new(1, format!("cannot write the book: {e}")))
}

/// The book of every canonical position with 1 to `--depth` pieces placed: the deepest level
/// from the checkpoints and by search, the others from it. `None` for a shard, which only
/// fills its checkpoint.
fn build(args: &Args) -> Result<Option<Book>, Failure> {
    let depth = args.depth;
    let level = Level::new(depth, canonical_positions(depth));
    let mut known = Known::default();
    let mut writer = open_checkpoint(args, &mut known, &level)?;
    for path in &args.from {
        let summary = known
            .read(path, &level)
            .map_err(|e| Failure::new(2, e.to_string()))?;
        note_unfinished(path, summary);
    }
    let shard = args.shard.unwrap_or(Shard { index: 0, count: 1 });
    let targets: Vec<Canonical> = (level.positions.iter().enumerate())
        .filter(|&(i, _)| shard.has(i))
        .map(|(_, c)| *c)
        .collect();
    let todo: Vec<Canonical> = (targets.iter())
        .filter(|c| known.entry(c).is_none())
        .copied()
        .collect();
    let part = match args.shard {
        Some(s) => format!("shard {s} of depth {depth}"),
        None => format!("depth {depth}"),
    };
    eprintln!(
        "{part}: {} canonical positions, {} in checkpoints, {} to search",
        targets.len(),
        targets.len() - todo.len(),
        todo.len()
    );
    if let Some(refusal) = search_refused(args, todo.len(), targets.len()) {
        return Err(refusal);
    }
    let mut progress = Progress::new(&part, targets.len(), todo.len());
    let solved = solve_all(&todo, depth, threads(args), &mut progress, |c, v| {
        let Some(w) = &mut writer else { return Ok(()) };
        w.append(c, v).map_err(|e| write_failure(w, &e))
    })?;
    if let Some(w) = &mut writer {
        w.sync().map_err(|e| write_failure(w, &e))?;
    }
    if args.shard.is_some() {
        let path = args
            .checkpoint
            .as_deref()
            .expect("--shard requires --checkpoint");
        eprintln!(
            "{part}: all {} positions in {}",
            targets.len(),
            path.display()
        );
        return Ok(None);
    }
    let deepest = level.positions.iter().map(|c| {
        let v = (known.entry(c).or_else(|| solved.get(c).copied()))
            .expect("every position of the level is known or solved");
        (*c, v)
    });
    if args.non_draws {
        return Ok(Some(exceptions(deepest)));
    }
    Ok(Some(derive(deepest, depth)))
}

/// Why the run must not search its `missing` positions (of `total` in its part), if it must not:
/// `--no-search`, or a merge (`--from` without a `--checkpoint` to record a search in).
fn search_refused(args: &Args, missing: usize, total: usize) -> Option<Failure> {
    let how = if missing == 0 {
        return None;
    } else if args.no_search {
        "without --no-search they would be searched"
    } else if !args.from.is_empty() && args.checkpoint.is_none() {
        "add --checkpoint FILE to search them and record them there"
    } else {
        return None;
    };
    let depth = args.depth;
    Some(Failure::new(
        1,
        format!("{missing} of the {total} positions with {depth} pieces placed are in no checkpoint ({how})"),
    ))
}

/// Opens and locks the run's own `--checkpoint` (created if missing) and reads it into `known`;
/// with `--no-search` it is only read, if it exists, and no writer is returned.
fn open_checkpoint(
    args: &Args,
    known: &mut Known,
    level: &Level,
) -> Result<Option<Writer>, Failure> {
    let Some(path) = &args.checkpoint else {
        return Ok(None);
    };
    if args.no_search {
        if path.exists() {
            let summary = known
                .read(path, level)
                .map_err(|e| Failure::new(2, e.to_string()))?;
            note_unfinished(path, summary);
        }
        return Ok(None);
    }
    let (writer, summary) =
        Writer::open(path, known, level).map_err(|e| Failure::new(2, e.to_string()))?;
    note_unfinished(path, summary);
    Ok(Some(writer))
}

/// The failure of a run whose checkpoint `w` cannot be written.
fn write_failure(w: &Writer, e: &io::Error) -> Failure {
    let path = w.path().display();
    Failure::new(1, format!("checkpoint {path}: cannot write: {e}"))
}

/// Says on stderr that the last line of the checkpoint at `path` was unfinished, if it was.
fn note_unfinished(path: &Path, summary: ReadSummary) {
    if let Some(line) = summary.unfinished_line {
        eprintln!(
            "checkpoint {}: line {line} is unfinished (a run was stopped while writing it): ignored",
            path.display()
        );
    }
}

/// The entries of `deepest` (a whole level) that are neither draws nor wins in 1: what
/// [`Book::with_draws_at`](cp_puzzles::quarto::Book::with_draws_at) needs to know the level.
fn exceptions(deepest: impl Iterator<Item = (Canonical, Entry)>) -> Book {
    let mut book = Book::default();
    for (c, v) in deepest {
        let win_in_1 = v.value() == Value::Win && v.distance() == Some(1);
        if v.value() != Value::Draw && !win_in_1 {
            book.insert(c, v);
        }
    }
    book
}

/// The book of the deepest level `deepest` (`depth` pieces placed, every position) and of the
/// levels above it, each position's entry from its children's.
fn derive(deepest: impl Iterator<Item = (Canonical, Entry)>, depth: u32) -> Book {
    let mut book = Book::default();
    for (c, v) in deepest {
        book.insert(c, v);
    }
    for placed in (1..depth).rev() {
        let level: Vec<(Canonical, Entry)> = canonical_positions(placed)
            .into_iter()
            .map(|c| {
                let v = entry_from_children(&book, &c.board(), piece0())
                    .expect("every position one level deeper is in the book");
                (c, v)
            })
            .collect();
        eprintln!(
            "depth {placed}: {} positions from depth {}",
            level.len(),
            placed + 1
        );
        for (c, v) in level {
            book.insert(c, v);
        }
    }
    book
}

/// Times `n` positions of `depth`, spread evenly over the canonical order, and prints their
/// median.
fn measure(depth: u32, n: usize) {
    let positions: Vec<Canonical> = canonical_positions(depth).into_iter().collect();
    eprintln!("depth {depth}: {} canonical positions", positions.len());
    let n = n.min(positions.len());
    if n == 0 {
        return;
    }
    let mut solver = Solver::new(depth);
    let mut times = Vec::with_capacity(n);
    for i in 0..n {
        let c = &positions[i * positions.len() / n];
        let start = Instant::now();
        let v = solver.solve(c);
        let t = start.elapsed().as_secs_f64();
        eprintln!("  {} {t:.3} s", entry_line(c, v));
        times.push(t);
    }
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / n as f64;
    eprintln!(
        "depth {depth}: {n} positions, median {:.3} s, mean {mean:.3} s, worst {:.3} s a position; \
         the whole level at the mean: {:.1} core-hours",
        times[n / 2],
        times[n - 1],
        mean * positions.len() as f64 / 3600.0
    );
}

fn piece0() -> Piece {
    Piece::new(0).expect("0 is a piece")
}

/// The number of worker threads `args` ask for, or the number of cores.
fn threads(args: &Args) -> usize {
    args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    )
}

/// The progress lines of a search: positions done (from checkpoints or searched) out of the
/// total, the rate of this run's searches and the time left at that rate.
struct Progress<'a> {
    part: &'a str,
    total: usize,
    to_search: usize,
    searched: usize,
    start: Instant,
    last: Instant,
}

impl<'a> Progress<'a> {
    fn new(part: &'a str, total: usize, to_search: usize) -> Progress<'a> {
        let now = Instant::now();
        Progress {
            part,
            total,
            to_search,
            searched: 0,
            start: now,
            last: now,
        }
    }

    /// Counts one more position searched, and prints a line if the last was long enough ago
    /// or the search is over.
    fn tick(&mut self) {
        self.searched += 1;
        let finished = self.searched == self.to_search;
        if !finished && self.last.elapsed() < PROGRESS_EVERY {
            return;
        }
        self.last = Instant::now();
        let elapsed = self.start.elapsed().as_secs_f64();
        let rate = self.searched as f64 / elapsed.max(1e-9);
        let left = (self.to_search - self.searched) as f64 / rate;
        eprintln!(
            "  {}: {}/{} done, {} searched in {} ({rate:.2}/s), {} left",
            self.part,
            self.total - self.to_search + self.searched,
            self.total,
            self.searched,
            duration(elapsed),
            if finished {
                "nothing".to_string()
            } else {
                format!("about {}", duration(left))
            }
        );
    }
}

/// `seconds` as seconds, minutes or hours.
fn duration(seconds: f64) -> String {
    if seconds < 120.0 {
        format!("{seconds:.1} s")
    } else if seconds < 7200.0 {
        format!("{:.1} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// The entry of every position in `todo` (all with `placed` pieces placed), solved on `threads`
/// threads that each take the next position not yet taken, with a solver of their own. Each
/// entry goes to `record` as soon as it is found (in the order they are found); the first error
/// of `record` stops the search.
fn solve_all(
    todo: &[Canonical],
    placed: u32,
    threads: usize,
    progress: &mut Progress,
    mut record: impl FnMut(&Canonical, Entry) -> Result<(), Failure>,
) -> Result<BTreeMap<Canonical, Entry>, Failure> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        for _ in 0..threads.min(todo.len()) {
            let (tx, next, stop) = (tx.clone(), &next, &stop);
            scope.spawn(move || {
                let mut solver = Solver::new(placed);
                while !stop.load(Ordering::Relaxed) {
                    let Some(c) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    if tx.send((*c, solver.solve(c))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut solved = BTreeMap::new();
        for (c, v) in rx {
            if let Err(f) = record(&c, v) {
                stop.store(true, Ordering::Relaxed);
                return Err(f);
            }
            solved.insert(c, v);
            progress.tick();
        }
        Ok(solved)
    })
}
