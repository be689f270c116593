//! `quarto-book`: computes the opening book of `quarto-play`, the value of every canonical
//! position with 1 to `--depth` pieces placed, and writes it to stdout (progress on stderr).

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use cp_puzzles_play::quarto_play::book::{canonical_positions, searcher_for, solve, Book};

/// Computes the opening book of quarto-play with the perfect solver.
#[derive(Debug, Parser)]
#[command(name = "quarto-book", version)]
struct Args {
    /// The deepest positions stored, in pieces placed.
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// Only count the positions of each depth and time the first N of the deepest, then stop.
    #[arg(long)]
    measure: Option<usize>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut book = Book::default();
    for placed in 1..=args.depth {
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
        let mut searcher = searcher_for(placed);
        for (i, c) in positions.iter().enumerate() {
            book.insert(*c, solve(&mut searcher, c));
            if (i + 1) % 50 == 0 {
                eprintln!(
                    "  {}/{} in {:.1} s",
                    i + 1,
                    positions.len(),
                    start.elapsed().as_secs_f64()
                );
            }
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
