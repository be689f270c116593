//! Is strategy A's guess better than strategy B's? Measured where they differ, on layouts drawn
//! from the position: far more sensitive than playing whole games both ways (`--compare`), whose
//! outcomes differ mostly by luck.
//!
//! B plays games FIRST to FIRST+GAMES-1 of SEED (the rule's first click). At each of a game's
//! first GUESSES guesses (positions where nothing is proved safe), A's and B's picks are
//! computed; where they differ (in mine probability, or in cell with `--equal`), LAYOUTS layouts
//! are drawn uniformly among those that agree with the position, and each is played on twice, from
//! A's pick and from B's, B playing the rest. A position's gain for A is its play-outs' difference
//! in wins divided by LAYOUTS (an estimate of the difference of the two picks' win chances); the
//! gains are summed over the positions, in games, with the standard error from their spread
//! between positions. The real game goes on with B's pick. Each pick is measured alone, B playing
//! the rest of the game, so the gains of several picks in one game are added, not measured
//! together.
//!
//! Usage: `cargo run --release -p cp-puzzles-play --example minesweeper_sampled -- --strategy A
//! --baseline B [--games N] [--first-game K] [--seed S] [--level beginner|intermediate|expert]
//! [--first-click safe|opening] [--guesses G] [--layouts L] [--equal] [--threads T]`. The figures
//! depend only on the arguments, not on the threads.

use std::num::NonZeroUsize;
use std::process::ExitCode;

use clap::Parser;
use cp_puzzles::minesweeper::game::{
    game_seed, Config, FirstClick, Game, Layout, Level, Rng, Status,
};
use cp_puzzles::minesweeper::{sample_mines, Board, Cell, Pos};
use cp_puzzles_play::minesweeper_bot::{parse_strategy, step, Calls, Strategy};

#[derive(Debug, Parser)]
struct Args {
    /// The strategy measured.
    #[arg(long)]
    strategy: String,
    /// The strategy it is measured against, which plays the games and every play-out.
    #[arg(long)]
    baseline: String,
    #[arg(long, default_value_t = 1000)]
    games: u64,
    #[arg(long, default_value_t = 0)]
    first_game: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// beginner, intermediate or expert.
    #[arg(long, default_value_t = Level::Expert)]
    level: Level,
    /// safe or opening.
    #[arg(long, default_value_t = FirstClick::Safe)]
    first_click: FirstClick,
    /// How many of each game's first guesses are examined.
    #[arg(long, default_value_t = 4)]
    guesses: usize,
    /// Layouts drawn per differing position.
    #[arg(long, default_value_t = 20)]
    layouts: usize,
    /// Also measure the positions where the picks are equally safe but differ in cell.
    #[arg(long)]
    equal: bool,
    #[arg(long, default_value_t = NonZeroUsize::new(2).expect("2 > 0"))]
    threads: NonZeroUsize,
}

/// One position where the picks differ.
#[derive(Clone, Copy, Debug, Default)]
struct Measured {
    /// Play-outs won from A's pick and from B's.
    wins: [u32; 2],
    /// The picks' mine probabilities.
    mine: [f64; 2],
}

/// What one game contributed.
#[derive(Debug, Default)]
struct GameResult {
    positions: usize,
    /// Differing positions whose layouts could not be drawn (see `sample_mines`).
    skipped: usize,
    measured: Vec<Measured>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let (a, b) = match (
        parse_strategy(&args.strategy),
        parse_strategy(&args.baseline),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("minesweeper_sampled: {e}");
            return ExitCode::from(2);
        }
    };
    let (rule, config) = (args.first_click, Config::level(args.level));
    let threads = args.threads.get() as u64;
    let results: Vec<Vec<(u64, GameResult)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let args = &args;
                scope.spawn(move || {
                    let games = (args.first_game..args.first_game + args.games)
                        .filter(|i| i % threads == t);
                    games
                        .map(|i| (i, measure_game(args, config, rule, a, b, i)))
                        .collect()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a worker"))
            .collect()
    });
    let mut results: Vec<(u64, GameResult)> = results.into_iter().flatten().collect();
    results.sort_by_key(|r| r.0);
    report(&args, &results);
    ExitCode::SUCCESS
}

/// Plays game `i` with `b`, measuring `a`'s picks against `b`'s at its first guesses.
fn measure_game(
    args: &Args,
    config: Config,
    rule: FirstClick,
    a: Strategy,
    b: Strategy,
    i: u64,
) -> GameResult {
    let seed = game_seed(args.seed, i);
    let mut game = Game::new(config, rule, rule.cell(&config), seed).expect("a standard level");
    game.reveal(rule.cell(&config));
    let mut calls = Calls::default();
    let mut result = GameResult::default();
    let mut guess = 0;
    while game.status() == Status::Playing && guess < args.guesses {
        let analysis = calls.analyze(game.view()).expect("a consistent view");
        if !analysis.safe.is_empty() {
            step(&mut game, b, &mut calls, &mut |_, _| {}).expect("a consistent view");
            continue;
        }
        for &p in &analysis.mines {
            if game.view().get(p) == Cell::Hidden {
                game.toggle_flag(p);
            }
        }
        let view = game.view().clone();
        let pick_a = a.choose(&view, &analysis, &mut calls);
        let pick_b = b.choose(&view, &analysis, &mut calls);
        result.positions += 1;
        let differ = if args.equal {
            pick_a.0 != pick_b.0
        } else {
            (pick_a.1 - pick_b.1).abs() > 1e-9
        };
        if differ {
            let mut m = Measured {
                mine: [pick_a.1, pick_b.1],
                ..Measured::default()
            };
            let drawn = (0..args.layouts).map(|l| {
                let mut rng = Rng::new(game_seed(seed ^ (guess as u64) << 56, l as u64));
                sample_mines(&view, &mut rng).map(|mine| Layout::from_mines(config, mine))
            });
            match drawn.collect::<Result<Vec<Layout>, _>>() {
                Ok(layouts) => {
                    for layout in &layouts {
                        for (k, pick) in [pick_a.0, pick_b.0].into_iter().enumerate() {
                            m.wins[k] += u32::from(play_on(layout, &view, pick, b));
                        }
                    }
                    result.measured.push(m);
                }
                // Too many assignments to list: the position is left out, and counted.
                Err(_) => result.skipped += 1,
            }
        }
        game.reveal(pick_b.0);
        guess += 1;
    }
    result
}

/// Whether `b` wins the game on `layout` from `view` (which agrees with it) after clicking `pick`.
fn play_on(layout: &Layout, view: &Board, pick: Pos, b: Strategy) -> bool {
    let mut game = Game::with_layout(layout.clone());
    for p in view.positions() {
        match view.get(p) {
            Cell::Revealed(_) => {
                game.reveal(p);
            }
            Cell::Flagged => {
                game.toggle_flag(p);
            }
            Cell::Hidden => {}
        }
    }
    assert!(game.view() == view, "the drawn layout shows the position");
    game.reveal(pick);
    let mut calls = Calls::default();
    while game.status() == Status::Playing {
        step(&mut game, b, &mut calls, &mut |_, _| {}).expect("a consistent view");
    }
    game.status() == Status::Won
}

/// Prints the totals and the gain with its standard error.
fn report(args: &Args, results: &[(u64, GameResult)]) {
    let measured: Vec<&Measured> = results.iter().flat_map(|r| &r.1.measured).collect();
    let positions: usize = results.iter().map(|r| r.1.positions).sum();
    let n = measured.len();
    let layouts = args.layouts as f64;
    let gains: Vec<f64> = measured
        .iter()
        .map(|m| (f64::from(m.wins[0]) - f64::from(m.wins[1])) / layouts)
        .collect();
    // Sums start at +0.0 (an empty `f64` sum is -0.0, which would print as such).
    let gain: f64 = gains.iter().fold(0.0, |s, g| s + g);
    let mean = gain / n.max(1) as f64;
    let var = gains.iter().fold(0.0, |s, g| s + (g - mean).powi(2)) / (n.max(2) - 1) as f64;
    let se = (n as f64 * var).sqrt();
    let wins = |k: usize| measured.iter().map(|m| u64::from(m.wins[k])).sum::<u64>();
    let mine = |k: usize| measured.iter().fold(0.0, |s, m| s + m.mine[k]) / n.max(1) as f64;
    println!(
        "{} games {} (from {}, seed {}, first click {}), strategy {} against {}",
        args.level,
        args.games,
        args.first_game,
        args.seed,
        args.first_click,
        args.strategy,
        args.baseline
    );
    println!(
        "guess positions {positions}, picks differ at {n}, layouts each {}",
        args.layouts
    );
    println!(
        "play-outs won: {} from A's picks, {} from B's",
        wins(0),
        wins(1)
    );
    println!("mean mine probability: A {:.3}, B {:.3}", mine(0), mine(1));
    println!(
        "A's gain: {gain:+.1} ± {se:.1} games in {} (z = {:.2})",
        args.games,
        if se > 0.0 { gain / se } else { 0.0 }
    );
}
