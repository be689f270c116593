//! `minesweeper-bot`: plays seeded Minesweeper games with the analyzer and prints the win rate;
//! `minesweeper-bot merge` adds up the JSON reports of shards (the runs, the reports, the merge and
//! the strategies' syntax live in `cp_puzzles_play::minesweeper_bot`).

use std::fmt::Display;
use std::io::{self, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use cp_puzzles::minesweeper::game::{Config, FirstClick, Level};
use cp_puzzles::minesweeper::Pos;
use cp_puzzles_play::minesweeper_bot::{self as bot, Report, Run, Strategy, STRATEGY_HELP};
use cp_puzzles_play::minesweeper_play::replay::Replay as PlayReplay;
use indicatif::ProgressBar;

/// The analyzer allocates many small vectors and big integers: mimalloc plays the same games as
/// the system's allocator in about 0.87 of the time (see `docs/minesweeper-bot.md#speed`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `--version`: the package's version and the fingerprint of the sources that decide how games
/// are played (the `sources` of the reports).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (sources ",
    env!("MINESWEEPER_BOT_SOURCES"),
    ")"
);

/// Plays seeded Minesweeper games with the exact analyzer and reports the win rate.
#[derive(Debug, Parser)]
#[command(
    name = "minesweeper-bot",
    version = VERSION,
    after_help = STRATEGY_HELP,
    args_conflicts_with_subcommands = true,
    disable_help_subcommand = true
)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
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
    /// No-guess boards: each game's layout is made for the bot's first click so that the exact
    /// analyzer clears it without a guess (the board `minesweeper-play --no-guess --seed S` makes
    /// for game i at that first click); the report adds the time each board took to make.
    #[arg(long)]
    no_guess: bool,
    /// The number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// The first game's number: the run plays games K to K+N-1 of the seed (N = --games), each
    /// the same game as in any other range, so that shards add up with `merge`.
    #[arg(long, value_name = "K", default_value_t = 0, conflicts_with = "show")]
    first_game: u64,
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
    /// With --show, also write the game as a replay to FILE, which `minesweeper-play --replay
    /// FILE` plays back (the bot's moves a tenth of a second apart).
    #[arg(long, value_name = "FILE", requires = "show")]
    save_replay: Option<PathBuf>,
    /// The report's format: text, or json (everything `merge` needs to add shards up).
    #[arg(long, default_value = "text", conflicts_with_all = ["show", "compare"])]
    format: Format,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Adds up the JSON reports of shards (runs over adjacent ranges of one seed's games) into
    /// the report of one run over all their games.
    Merge {
        /// The shards' reports, written by --format json (or by merge --format json), in any
        /// order. They must share the board, the first click, --no-guess, the strategy, the seed
        /// and the sources that played them (see --version), and their games must follow one
        /// another without overlap or gap.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// The merged report's format: text, or json (which merge reads again).
        #[arg(long, default_value = "text")]
        format: Format,
    },
}

/// A report's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
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
    if let Some(Command::Merge { files, format }) = &args.command {
        return merge(files, *format);
    }
    let job = job(args)?;
    if args.show {
        let shown = bot::replay(&job, args.game).map_err(|e| failure(1, e))?;
        if let Some(file) = &args.save_replay {
            let text = PlayReplay::of_bot(&job, &shown).to_string();
            std::fs::write(file, text)
                .map_err(|e| failure(1, format!("cannot write {}: {e}", file.display())))?;
        }
        return write_out(&shown);
    }
    let bar = ProgressBar::new(job.games);
    bar.set_style(bot::progress::style());
    let progress = |n| bar.inc(n);
    let text: Result<Box<dyn Display>, _> = match args.compare {
        Some(other) => bot::compare(&job, other, &progress).map(|c| Box::new(c) as _),
        None => bot::run(&job, &progress).map(|summary| {
            let report = Report::new(job, summary);
            match args.format {
                Format::Text => Box::new(report) as _,
                Format::Json => Box::new(bot::to_json(&report)) as _,
            }
        }),
    };
    bar.finish_and_clear();
    write_out(&text.map_err(|e| failure(1, e))?)
}

/// Reads the reports in `files` and prints their merge.
fn merge(files: &[PathBuf], format: Format) -> Result<(), Failure> {
    let mut shards = Vec::with_capacity(files.len());
    for file in files {
        let report = bot::read_report(file).map_err(|e| failure(1, e))?;
        shards.push((file.display().to_string(), report));
    }
    let merged = bot::merge(&shards).map_err(|e| failure(1, e))?;
    match format {
        Format::Text => write_out(&merged),
        Format::Json => write_out(&bot::to_json(&merged)),
    }
}

/// The run the arguments ask for, checked (a usage error, code 2): a board out of range, a first
/// click off the board or with no room for the mines, or games numbered past 2^64 - 1.
fn job(args: &Args) -> Result<Run, Failure> {
    let config = match (args.width, args.height, args.mines) {
        (Some(w), Some(h), Some(m)) => Config::new(w, h, m).map_err(|e| failure(2, e))?,
        _ => Config::level(args.level.unwrap_or(Level::Expert)),
    };
    let job = Run {
        config,
        rule: args.first_click,
        first: args.first_cell,
        no_guess: args.no_guess,
        strategy: args.strategy,
        first_game: args.first_game,
        games: args.games,
        seed: args.seed,
        threads: args
            .threads
            .or_else(|| std::thread::available_parallelism().ok())
            .map_or(1, NonZeroUsize::get),
    };
    job.check().map_err(|e| failure(2, e))?;
    if job.end_game().is_none() {
        return Err(failure(
            2,
            format!(
                "expected --first-game + --games at most 2^64 - 1, found {} + {}",
                job.first_game, job.games
            ),
        ));
    }
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
