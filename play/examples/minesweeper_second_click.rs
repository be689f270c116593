//! Which second click is best on expert `safe` when the corner (0, 0) shows `n`? Each candidate
//! plays the same layouts (those whose corner shows `n`), the bot's default strategy taking over
//! after it, so the counts are paired.
//!
//! Usage: `cargo run --release -p cp-puzzles-play --example minesweeper_second_click -- FROM TO N X,Y...` plays the
//! layouts of games FROM..TO (seeded 1000, apart from the runs of docs/minesweeper-bot.md) whose
//! corner shows N, and prints each candidate's wins and how many games each subset of candidates
//! won.

use std::collections::BTreeMap;

use cp_puzzles::minesweeper::game::{game_seed, Config, FirstClick, Game, Level};
use cp_puzzles::minesweeper::{Cell, Pos};
use cp_puzzles_play::minesweeper_bot::{parse_cell, play, Strategy};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        return Err("usage: minesweeper_second_click FROM TO N X,Y...".into());
    }
    let (from, to, shows): (u64, u64, u8) = (args[1].parse()?, args[2].parse()?, args[3].parse()?);
    let candidates = args[4..]
        .iter()
        .map(|s| parse_cell(s))
        .collect::<Result<Vec<Pos>, _>>()?;
    let config = Config::level(Level::Expert);
    let corner = Pos { x: 0, y: 0 };
    let (mut games, mut wins) = (0, vec![0u64; candidates.len()]);
    let mut patterns: BTreeMap<Vec<bool>, u64> = BTreeMap::new();
    for i in from..to {
        let mut game = Game::new(config, FirstClick::Safe, corner, game_seed(1000, i))?;
        game.reveal(corner);
        if game.view().get(corner) != Cell::Revealed(shows) {
            continue;
        }
        games += 1;
        let mut won = Vec::with_capacity(candidates.len());
        for (k, &c) in candidates.iter().enumerate() {
            let mut copy = game.clone();
            let played = play(&mut copy, c, Strategy::REGIONS, &mut |_, _| {})?;
            wins[k] += u64::from(played.won);
            won.push(played.won);
        }
        *patterns.entry(won).or_default() += 1;
    }
    println!("games whose corner shows {shows}: {games}");
    for (c, w) in candidates.iter().zip(&wins) {
        println!("second click ({}, {}): {w} wins", c.x, c.y);
    }
    for (won, count) in patterns {
        println!("won by {won:?}: {count}");
    }
    Ok(())
}
