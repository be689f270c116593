//! Where the bot loses: plays games with the default strategy and prints, for the guesses that
//! lost and for all guesses, how many arrangements fitted the view (by powers of ten).
//!
//! Usage: `cargo run --release --example minesweeper_losses -- GAMES beginner|intermediate|expert safe|opening`
//! (games are seeded 99, apart from the seed-1 runs of docs/minesweeper-bot.md).

use cp_puzzles::minesweeper::bot::{Calls, Strategy};
use cp_puzzles::minesweeper::game::{game_seed, Config, FirstClick, Game, Level, Status};
use cp_puzzles::minesweeper::{analyze, Cell};

/// Bins 0..=11: the number of arrangements is in `10^k..10^(k+1)`; the last bin holds the rest.
const BINS: usize = 12;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: minesweeper_losses GAMES beginner|intermediate|expert safe|opening";
    let [_, games, level, rule] = &args[..] else {
        return Err(usage.into());
    };
    let games: u64 = games.parse()?;
    let level = match level.as_str() {
        "beginner" => Level::Beginner,
        "intermediate" => Level::Intermediate,
        "expert" => Level::Expert,
        _ => return Err(usage.into()),
    };
    let rule = match rule.as_str() {
        "safe" => FirstClick::Safe,
        "opening" => FirstClick::Opening,
        _ => return Err(usage.into()),
    };
    let config = Config::level(level);
    let (mut fatal, mut all, mut lost) = ([0u64; BINS], [0u64; BINS], 0);
    for i in 0..games {
        let first = rule.cell(&config);
        let mut game = Game::new(config, rule, first, game_seed(99, i))?;
        if let Some(bin) = play(&mut game, first, &mut all)? {
            lost += 1;
            fatal[bin] += 1;
        }
    }
    println!("lost {lost} of {games}");
    println!("fatal guesses by log10(arrangements): {fatal:?}");
    println!("all guesses by log10(arrangements):   {all:?}");
    Ok(())
}

/// Plays one game as the bot does, counting every guess in `all`; returns the bin of the guess
/// that lost, if one did.
fn play(
    game: &mut Game,
    first: cp_puzzles::minesweeper::Pos,
    all: &mut [u64; BINS],
) -> Result<Option<usize>, Box<dyn std::error::Error>> {
    game.reveal(first);
    let (mut last, mut calls) = (0, Calls::default());
    while game.status() == Status::Playing {
        let analysis = analyze(game.view())?;
        for &p in &analysis.mines {
            if game.view().get(p) == Cell::Hidden {
                game.toggle_flag(p);
            }
        }
        if analysis.safe.is_empty() {
            let decades = analysis.ln_arrangements / std::f64::consts::LN_10;
            last = (decades.max(0.0) as usize).min(BINS - 1);
            all[last] += 1;
            let (p, _) = Strategy::REGIONS.choose(game.view(), &analysis, &mut calls);
            game.reveal(p);
            continue;
        }
        for &p in &analysis.safe {
            game.reveal(p);
        }
    }
    Ok((game.status() == Status::Lost).then_some(last))
}
