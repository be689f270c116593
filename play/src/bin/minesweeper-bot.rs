//! `minesweeper-bot`: plays many seeded Minesweeper games with the analyzer and prints the win rate
//! (see `cp_puzzles::minesweeper::bot`).

use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use cp_puzzles::minesweeper::bot::{self, Event, Forced, Pool, Run, Strategy, Summary};
use cp_puzzles::minesweeper::game::{game_seed, Config, FirstClick, Game, Level, Status};
use cp_puzzles::minesweeper::{Cell, Pos};
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Clone, Copy, Debug, ValueEnum)]
enum LevelArg {
    Beginner,
    Intermediate,
    Expert,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum RuleArg {
    /// The first click is never a mine; the bot clicks the corner (0, 0).
    Safe,
    /// The first click opens an area; the bot clicks (3, 3).
    Opening,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ForcedArg {
    /// None: the lookahead decides every guess.
    None,
    /// Dead 50/50s (a pair or a 2x2 box that no number can ever resolve) are guessed at once.
    Dead,
    /// Dead 50/50s, then pseudo-50/50s (a cell that is a mine only where it forms a dead 50/50).
    Pseudo,
}

impl From<ForcedArg> for Forced {
    fn from(arg: ForcedArg) -> Forced {
        match arg {
            ForcedArg::None => Forced::None,
            ForcedArg::Dead => Forced::Dead,
            ForcedArg::Pseudo => Forced::Pseudo,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum StrategyArg {
    /// Lowest mine probability, first in row-major order.
    Lowest,
    /// The analyzer's recommended cell.
    Analyzer,
    /// Lowest probability traded against the chance of making progress (one move of lookahead).
    Progress,
    /// Progress, plus an exact search for the best click when few arrangements remain.
    Endgame,
    /// Endgame search, and a lookahead that maximizes the chance of surviving two clicks.
    Survival,
    /// As survival, with exact chances of each number and a blend of the two best next safeties.
    Secondary,
    /// As secondary, and first an exact search in a region independent of the rest of the board.
    Regions,
}

/// Plays seeded Minesweeper games with the exact analyzer and reports the win rate.
#[derive(Debug, Parser)]
#[command(name = "minesweeper-bot", version)]
struct Args {
    /// A standard level (the default is expert unless --width/--height/--mines are given).
    #[arg(long, value_enum, conflicts_with_all = ["width", "height", "mines"])]
    level: Option<LevelArg>,
    /// Board width (with --height and --mines).
    #[arg(long, requires_all = ["height", "mines"])]
    width: Option<usize>,
    /// Board height.
    #[arg(long, requires_all = ["width", "mines"])]
    height: Option<usize>,
    /// Number of mines.
    #[arg(long, requires_all = ["width", "height"])]
    mines: Option<usize>,
    /// The first-click rule.
    #[arg(long, value_enum, default_value = "safe")]
    first_click: RuleArg,
    /// The bot's first click as X,Y (0-based), instead of the rule's convention ((0,0) for
    /// safe, (3,3) for opening).
    #[arg(long, value_parser = parse_cell)]
    first_cell: Option<(usize, usize)>,
    /// The number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// The run's seed: game i is drawn from a seed derived from (S, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (results do not depend on it); the default is the number of cores.
    #[arg(long)]
    threads: Option<usize>,
    /// The guessing strategy.
    #[arg(long, value_enum, default_value = "regions")]
    strategy: StrategyArg,
    /// For progress and endgame: the assumed risk of the next guess; for survival, secondary and
    /// regions: the window of candidates above the lowest probability.
    #[arg(long, default_value_t = 0.1)]
    next_risk: f64,
    /// For secondary and regions: the weight of the second-best safety after a guess.
    #[arg(long, default_value_t = 0.2)]
    blend: f64,
    /// For secondary and regions: the most arrangements for the exact endgame search.
    #[arg(long, default_value_t = 4000)]
    endgame: usize,
    /// For secondary and regions: the most cells the lookahead examines.
    #[arg(long, default_value_t = 12)]
    candidates: usize,
    /// For secondary and regions: the most of them off the frontier.
    #[arg(long, default_value_t = 4)]
    interior: usize,
    /// For secondary and regions: how many of those are kept for cells next to the frontier.
    #[arg(long, default_value_t = 0)]
    near: usize,
    /// For secondary and regions: how many of the best candidates get a second move of
    /// lookahead (0: none; experimental).
    #[arg(long, default_value_t = 0)]
    deep: usize,
    /// For secondary and regions: which guesses the game must take anyway are taken at once.
    #[arg(long, value_enum, default_value = "pseudo")]
    forced: ForcedArg,
    /// Also play every game with this strategy and report the paired comparison.
    #[arg(long, value_enum)]
    compare: Option<StrategyArg>,
    /// --next-risk for the --compare strategy (default: the same).
    #[arg(long)]
    compare_risk: Option<f64>,
    /// --blend for the --compare strategy (default: the same).
    #[arg(long)]
    compare_blend: Option<f64>,
    /// --endgame for the --compare strategy (default: the same).
    #[arg(long)]
    compare_endgame: Option<usize>,
    /// --candidates for the --compare strategy (default: the same).
    #[arg(long)]
    compare_candidates: Option<usize>,
    /// --interior for the --compare strategy (default: the same).
    #[arg(long)]
    compare_interior: Option<usize>,
    /// --near for the --compare strategy (default: the same).
    #[arg(long)]
    compare_near: Option<usize>,
    /// --deep for the --compare strategy (default: the same).
    #[arg(long)]
    compare_deep: Option<usize>,
    /// --forced for the --compare strategy (default: the same).
    #[arg(long, value_enum)]
    compare_forced: Option<ForcedArg>,
    /// Print game number --game (default 0) move by move instead of running many games.
    #[arg(long)]
    show: bool,
    /// The game that --show prints.
    #[arg(long, default_value_t = 0, requires = "show")]
    game: u64,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("minesweeper-bot: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let config = match (args.width, args.height, args.mines, args.level) {
        (Some(w), Some(h), Some(m), _) => Config::new(w, h, m)?,
        (_, _, _, level) => Config::level(match level.unwrap_or(LevelArg::Expert) {
            LevelArg::Beginner => Level::Beginner,
            LevelArg::Intermediate => Level::Intermediate,
            LevelArg::Expert => Level::Expert,
        }),
    };
    let rule = match args.first_click {
        RuleArg::Safe => FirstClick::Safe,
        RuleArg::Opening => FirstClick::Opening,
    };
    let strategy = make_strategy(
        args.strategy,
        args.next_risk,
        args.blend,
        args.endgame,
        Pool {
            candidates: args.candidates,
            interior: args.interior,
            near: args.near,
            deep: args.deep,
        },
        args.forced.into(),
    );
    config.check_rule(rule)?;
    let job = Run {
        config,
        rule,
        first: first_cell(args, &config)?,
        strategy,
        games: args.games,
        seed: args.seed,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
    };
    if args.show {
        return show(&job, args.game);
    }
    let bar = ProgressBar::new(job.games);
    bar.set_style(ProgressStyle::with_template(
        "{bar:40} {pos}/{len} games, {per_sec}, eta {eta}",
    )?);
    if let Some(other) = args.compare {
        let other = make_strategy(
            other,
            args.compare_risk.unwrap_or(args.next_risk),
            args.compare_blend.unwrap_or(args.blend),
            args.compare_endgame.unwrap_or(args.endgame),
            Pool {
                candidates: args.compare_candidates.unwrap_or(args.candidates),
                interior: args.compare_interior.unwrap_or(args.interior),
                near: args.compare_near.unwrap_or(args.near),
                deep: args.compare_deep.unwrap_or(args.deep),
            },
            args.compare_forced.unwrap_or(args.forced).into(),
        );
        let c = bot::compare(&job, other, &|n| bar.inc(n))?;
        bar.finish_and_clear();
        print!("{}", comparison(&c));
        return Ok(());
    }
    let summary = bot::run(&job, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    print!("{}", report(&job, args, &summary));
    Ok(())
}

fn make_strategy(
    arg: StrategyArg,
    next_risk: f64,
    blend: f64,
    endgame: usize,
    pool: Pool,
    forced: Forced,
) -> Strategy {
    match arg {
        StrategyArg::Lowest => Strategy::Lowest,
        StrategyArg::Analyzer => Strategy::Analyzer,
        StrategyArg::Progress => Strategy::Progress { next_risk },
        StrategyArg::Endgame => Strategy::Endgame { next_risk },
        StrategyArg::Survival => Strategy::Survival { window: next_risk },
        StrategyArg::Secondary | StrategyArg::Regions => Strategy::Secondary {
            window: next_risk,
            blend,
            endgame,
            regions: matches!(arg, StrategyArg::Regions),
            pool,
            forced,
        },
    }
}

/// The lines the binary prints for a paired comparison, with the sign test's z score (normal
/// approximation: `(a - b) / sqrt(a + b)` over the games only one strategy won).
fn comparison(c: &bot::Comparison) -> String {
    let rate = |w: u64| 100.0 * w as f64 / c.games.max(1) as f64;
    let (a, b) = (c.only_first as f64, c.only_second as f64);
    let z = if a + b > 0.0 {
        (a - b) / (a + b).sqrt()
    } else {
        0.0
    };
    format!(
        "games {}\nfirst wins {} ({:.2}%)\nsecond wins {} ({:.2}%)\n\
         only first {}\nonly second {}\nsign test z {:.2}\n",
        c.games,
        c.first_wins,
        rate(c.first_wins),
        c.second_wins,
        rate(c.second_wins),
        c.only_first,
        c.only_second,
        z
    )
}

/// Parses `X,Y`.
fn parse_cell(s: &str) -> Result<(usize, usize), String> {
    let (x, y) = s.split_once(',').ok_or("expected X,Y")?;
    let parse = |t: &str| t.trim().parse::<usize>().map_err(|e| e.to_string());
    Ok((parse(x)?, parse(y)?))
}

/// The `--first-cell` option as a cell of `config`'s board.
///
/// # Errors
/// If the cell is off the board, or (under `opening`) its 3x3 block leaves no room for the mines.
fn first_cell(args: &Args, config: &Config) -> Result<Option<Pos>, Box<dyn std::error::Error>> {
    let Some((x, y)) = args.first_cell else {
        return Ok(None);
    };
    if x >= config.width() || y >= config.height() {
        return Err(format!("--first-cell {x},{y} is off the board").into());
    }
    let free = if matches!(args.first_click, RuleArg::Opening) {
        (x.saturating_sub(1)..=(x + 1).min(config.width() - 1)).count()
            * (y.saturating_sub(1)..=(y + 1).min(config.height() - 1)).count()
    } else {
        1
    };
    if config.mines() > config.cells() - free {
        return Err(format!("--first-cell {x},{y} leaves no room for the mines").into());
    }
    Ok(Some(Pos { x, y }))
}

/// The lines the binary prints for a run.
fn report(job: &Run, args: &Args, s: &Summary) -> String {
    let c = job.config;
    let rate = |x: f64| 100.0 * x;
    let (low, high) = bot::wilson_interval(s.wins, s.games);
    let per_game = |x: u64| x as f64 / s.games.max(1) as f64;
    format!(
        "board {}x{}/{}, first click {:?} at ({}, {}), strategy {:?}, seed {}, threads {}\n\
         games {}\nwins {}\nwin rate {:.2}% (95% interval {:.2}% to {:.2}%)\n\
         guesses/game {:.3}\nanalyses/game {:.1}\nms/game {:.3}\n",
        c.width(),
        c.height(),
        c.mines(),
        args.first_click,
        job.first_click().x,
        job.first_click().y,
        args.strategy,
        job.seed,
        job.threads,
        s.games,
        s.wins,
        rate(s.wins as f64 / s.games.max(1) as f64),
        rate(low),
        rate(high),
        per_game(s.guesses),
        per_game(s.analyses),
        1000.0 * s.seconds / s.games.max(1) as f64,
    )
}

/// Plays game `index` and prints every move with the board after it.
fn show(job: &Run, index: u64) -> Result<(), Box<dyn std::error::Error>> {
    let mut game = Game::new(job.config, job.rule, game_seed(job.seed, index))?;
    let first = job.first_click();
    let mut out = String::new();
    let mut moves = 0;
    bot::play(&mut game, first, job.strategy, &mut |event, game| {
        moves += 1;
        let line = match event {
            Event::First(p) => format!("first click ({}, {})", p.x, p.y),
            Event::Safe(p) => format!("safe ({}, {})", p.x, p.y),
            Event::Flag(p) => format!("flag ({}, {})", p.x, p.y),
            Event::Guess(p, q) => format!("guess ({}, {}) p = {q:.4}", p.x, p.y),
        };
        out += &format!("move {moves}: {line}\n{}\n", draw(game));
    })?;
    let result = match game.status() {
        Status::Won => "won",
        _ => "lost",
    };
    println!("{out}game {index}: {result}");
    Ok(())
}

/// The view as text: digits, `.` for 0, `#` hidden, `F` flag, `*` an exploded mine.
fn draw(game: &Game) -> String {
    let view = game.view();
    let mut text = String::new();
    for y in 0..view.height() {
        for x in 0..view.width() {
            let p = Pos { x, y };
            let exploded = game.status() == Status::Lost
                && game.layout().is_some_and(|l| l.is_mine(p))
                && view.get(p) == Cell::Hidden;
            text.push(match view.get(p) {
                _ if exploded => '*',
                Cell::Hidden => '#',
                Cell::Flagged => 'F',
                Cell::Revealed(0) => '.',
                Cell::Revealed(n) => char::from(b'0' + n),
            });
        }
        text.push('\n');
    }
    text
}
