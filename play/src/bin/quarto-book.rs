//! `quarto-book`: computes the opening book of `quarto-play`, the value of every canonical
//! position with 1 to `--depth` pieces placed, and writes it to stdout (progress on stderr).

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use cp_puzzles::quarto::symmetry::Canonical;
use cp_puzzles::quarto::Value;
use cp_puzzles_play::quarto_play::book::{canonical_positions, searcher_for, solve, Book};

/// Computes the opening book of quarto-play with the perfect solver.
#[derive(Debug, Parser)]
#[command(name = "quarto-book", version)]
struct Args {
    /// The deepest positions stored, in pieces placed.
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// The shallowest positions stored: with `--from D`, only depths D to `--depth` are solved
    /// and written (books of separate depths concatenate into the whole book).
    #[arg(long, default_value_t = 1)]
    from: u32,
    /// Only count the positions of each depth and time the first N of the deepest, then stop.
    #[arg(long)]
    measure: Option<usize>,
    /// Worker threads, each with its own solver (the book does not depend on it); the default is
    /// the number of cores.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut book = Book::default();
    for placed in args.from.max(1)..=args.depth {
        let positions = canonical_positions(placed);
        eprintln!("depth {placed}: {} canonical positions", positions.len());
        if let Some(n) = args.measure {
            if placed < args.depth {
                continue;
            }
            let mut searcher = searcher_for(placed);
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
            return ExitCode::SUCCESS;
        }
        let start = Instant::now();
        let positions: Vec<Canonical> = positions.into_iter().collect();
        for (c, v) in solve_all(&positions, placed, threads(&args)) {
            book.insert(c, v);
        }
        eprintln!(
            "depth {placed}: solved in {:.1} s",
            start.elapsed().as_secs_f64()
        );
    }
    let mut out = io::stdout().lock();
    match out
        .write_all(book.to_text().as_bytes())
        .and_then(|()| out.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quarto-book: cannot write the book: {e}");
            ExitCode::FAILURE
        }
    }
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
