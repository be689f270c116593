//! `quarto-book`: computes the opening book of `quarto` and `quarto-play`, the value of every
//! canonical position with 1 to `--depth` pieces placed, and writes it to stdout in the binary
//! form (or the text form with `--text`); progress on stderr.
//!
//! Only the deepest level is searched: each shallower position's value follows from the values
//! of the positions its moves lead to, one level deeper.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use cp_puzzles::quarto::book::value_from_children;
use cp_puzzles::quarto::symmetry::Canonical;
use cp_puzzles::quarto::{Piece, Value};
use cp_puzzles_play::quarto_play::book::{canonical_positions, searcher_for, solve, Book};

/// The deepest book `--depth` allows: every position with 4 pieces placed is already answered
/// in under a second by search, so deeper levels would only grow the book (and the number of
/// positions to solve grows about tenfold a level).
const MAX_DEPTH: u32 = 4;

/// Computes the opening book of quarto and quarto-play with the perfect solver.
#[derive(Debug, Parser)]
#[command(name = "quarto-book", version)]
struct Args {
    /// The deepest positions stored, in pieces placed (1 to 4).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    depth: u32,
    /// Only count the positions of each depth and time the first N of the deepest, then stop.
    #[arg(long)]
    measure: Option<usize>,
    /// Worker threads, each with its own solver (the book does not depend on it); the default is
    /// the number of cores.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Write the text form (one `OOOO PPPPPPPPPPPPPPPP w|d|l` line per position) instead of the
    /// binary form.
    #[arg(long)]
    text: bool,
    /// Instead of solving, read this book (either form) and write it again (`--text` or binary):
    /// the same entries always give the same bytes.
    #[arg(long, value_name = "FILE")]
    convert: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if !args.text && args.measure.is_none() && io::stdout().is_terminal() {
        eprintln!(
            "quarto-book: the binary book goes to stdout: redirect it to a file, or use --text"
        );
        return ExitCode::from(2);
    }
    let book = match &args.convert {
        Some(path) => match Book::read_file(path) {
            Ok(book) => book,
            Err(e) => {
                eprintln!("quarto-book: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        None => match args.measure {
            Some(n) => {
                measure(args.depth, n);
                return ExitCode::SUCCESS;
            }
            None => build(args.depth, threads(&args)),
        },
    };
    let bytes = if args.text {
        book.to_text().into_bytes()
    } else {
        book.to_bytes()
    };
    let mut out = io::stdout().lock();
    match out.write_all(&bytes).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quarto-book: cannot write the book: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The book of every canonical position with 1 to `depth` pieces placed: the deepest level by
/// search on `threads` threads, the others from it.
fn build(depth: u32, threads: usize) -> Book {
    let mut book = Book::default();
    let positions: Vec<Canonical> = canonical_positions(depth).into_iter().collect();
    eprintln!("depth {depth}: {} canonical positions", positions.len());
    let start = Instant::now();
    for (c, v) in solve_all(&positions, depth, threads) {
        book.insert(c, v);
    }
    eprintln!(
        "depth {depth}: solved in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    for placed in (1..depth).rev() {
        let level: Vec<(Canonical, Value)> = canonical_positions(placed)
            .into_iter()
            .map(|c| {
                let v = value_from_children(&book, &c.board(), piece0())
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

/// Counts the positions of `depth` and times the first `n` of them.
fn measure(depth: u32, n: usize) {
    let positions = canonical_positions(depth);
    eprintln!("depth {depth}: {} canonical positions", positions.len());
    let mut searcher = searcher_for(depth);
    for c in positions.iter().take(n) {
        let start = Instant::now();
        let v = solve(&mut searcher, c);
        eprintln!(
            "  {:04x} {:016x} {v} {:.3} s",
            c.occupied,
            c.pieces,
            start.elapsed().as_secs_f64()
        );
    }
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

/// The value of every position in `positions` (all with `placed` pieces placed), solved on
/// `threads` threads that each take every `threads`-th position with a solver of their own.
fn solve_all(positions: &[Canonical], placed: u32, threads: usize) -> Vec<(Canonical, Value)> {
    let start = Instant::now();
    let done = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let done = &done;
                scope.spawn(move || {
                    let mut searcher = searcher_for(placed);
                    let mut values = Vec::new();
                    for c in positions.iter().skip(t).step_by(threads) {
                        values.push((*c, solve(&mut searcher, c)));
                        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        if n.is_multiple_of(10) {
                            eprintln!(
                                "  {n}/{} in {:.1} s",
                                positions.len(),
                                start.elapsed().as_secs_f64()
                            );
                        }
                    }
                    values
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a book worker panicked"))
            .collect()
    })
}
