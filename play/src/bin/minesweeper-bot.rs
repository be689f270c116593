//! `minesweeper-bot`: plays seeded Minesweeper games with the analyzer and prints the win rate
//! (the runs, the reports and the strategies' syntax live in `cp_puzzles_play::minesweeper_bot`).

use std::fmt::Display;
use std::io::{self, Write};
use std::num::NonZeroUsize;
use std::process::ExitCode;

use clap::Parser;
use cp_puzzles::minesweeper::game::{Config, FirstClick, Level};
use cp_puzzles::minesweeper::Pos;
use cp_puzzles_play::minesweeper_bot::{self as bot, Report, Run, Strategy, STRATEGY_HELP};
use indicatif::{ProgressBar, ProgressStyle};

/// Plays seeded Minesweeper games with the exact analyzer and reports the win rate.
#[derive(Debug, Parser)]
#[command(name = "minesweeper-bot", version, after_help = STRATEGY_HELP)]
struct Args {
    /// A standard level: beginner, intermediate or expert (the default without --width).
    #[arg(long, conflicts_with_all = ["width", "height", "mines"])]
    level: Option<Level>,
    /// Board width (with --height and --mines).
    #[arg(long, requires_all = ["height", "mines"])]
    width: Option<usize>,
    /// Board height.
    #[arg(long, requires_all = ["width", "mines"])]
    height: Option<usize>,
    /// Number of mines.
    #[arg(long, requires_all = ["width", "height"])]
    mines: Option<usize>,
    /// The first-click rule: safe (never a mine; at (0, 0)) or opening (opens an area; at (3, 3)).
    #[arg(long, default_value = "safe")]
    first_click: FirstClick,
    /// The bot's first click as X,Y (0-based), instead of the rule's.
    #[arg(long, value_parser = bot::parse_cell)]
    first_cell: Option<Pos>,
    /// The number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// The run's seed: game i is drawn from a seed derived from (S, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads, at least 1 (results do not depend on it); the default is the number of
    /// cores.
    #[arg(long)]
    threads: Option<NonZeroUsize>,
    /// The guessing strategy, NAME[:key=value,...] (see below).
    #[arg(long, default_value = "regions", value_parser = bot::parse_strategy)]
    strategy: Strategy,
    /// Also play every game with this strategy and report the paired comparison.
    #[arg(long, value_parser = bot::parse_strategy)]
    compare: Option<Strategy>,
    /// Print game --game move by move instead: each view in the .mine format that `minesweeper`
    /// reads (H hidden, F flag, digits), then "game N: won" or "game N: lost on the mine at
    /// (x, y)" (the last view is the position of the losing click).
    #[arg(long, conflicts_with = "compare")]
    show: bool,
    /// The game that --show prints.
    #[arg(long, default_value_t = 0, requires = "show")]
    game: u64,
}

/// Why the program stopped early: `code` is 2 for bad arguments, 1 for a failure while playing.
struct Failure {
    code: u8,
    message: String,
}

fn main() -> ExitCode {
    let failure = match Args::try_parse() {
        Err(e) if !e.use_stderr() => {
            // --help or --version: a failed write has nowhere to be reported.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => failure(2, cp_puzzles_play::one_line(&e.to_string())),
        Ok(args) => match run(&args) {
            Ok(()) => return ExitCode::SUCCESS,
            Err(failure) => failure,
        },
    };
    eprintln!("minesweeper-bot: {}", failure.message);
    ExitCode::from(failure.code)
}

fn failure(code: u8, message: impl Display) -> Failure {
    let message = message.to_string();
    Failure { code, message }
}

fn run(args: &Args) -> Result<(), Failure> {
    let job = job(args).map_err(|e| failure(2, e))?;
    if args.show {
        return write_out(&bot::replay(&job, args.game).map_err(|e| failure(1, e))?);
    }
    let bar = ProgressBar::new(job.games);
    if let Ok(style) = ProgressStyle::with_template(BAR) {
        bar.set_style(style);
    }
    let progress = |n| bar.inc(n);
    let text: Result<Box<dyn Display>, _> = match args.compare {
        Some(other) => bot::compare(&job, other, &progress).map(|c| Box::new(c) as _),
        None => {
            bot::run(&job, &progress).map(|summary| Box::new(Report { run: job, summary }) as _)
        }
    };
    bar.finish_and_clear();
    write_out(&text.map_err(|e| failure(1, e))?)
}

/// The progress bar's look (drawn on stderr, only when it is a terminal).
const BAR: &str = "{bar:40} {pos}/{len} games, {per_sec}, eta {eta}";

/// The run the arguments ask for, checked: a board out of range, or a first click off the board
/// or with no room for the mines, is an error.
fn job(args: &Args) -> Result<Run, cp_puzzles::minesweeper::game::Error> {
    let config = match (args.width, args.height, args.mines) {
        (Some(w), Some(h), Some(m)) => Config::new(w, h, m)?,
        _ => Config::level(args.level.unwrap_or(Level::Expert)),
    };
    let job = Run {
        config,
        rule: args.first_click,
        first: args.first_cell,
        strategy: args.strategy,
        games: args.games,
        seed: args.seed,
        threads: args
            .threads
            .or_else(|| std::thread::available_parallelism().ok())
            .map_or(1, NonZeroUsize::get),
    };
    job.check()?;
    Ok(job)
}

/// Writes `text` on stdout; a reader that closed the pipe early is not an error.
fn write_out(text: &dyn Display) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    match write!(out, "{text}").and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(failure(1, format!("cannot write the output: {e}")))
        }
        _ => Ok(()),
    }
}
