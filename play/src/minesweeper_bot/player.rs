//! One game played by the bot.

use super::error::BotError;
use cp_puzzles::minesweeper::bot::{Calls, Strategy};
use cp_puzzles::minesweeper::game::{Game, Reveal, Status};
use cp_puzzles::minesweeper::{Cell, Pos};

/// One thing the bot did, reported to an observer (for `--show`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    /// The first click, at the rule's cell.
    First(Pos),
    /// A click on a cell the analyzer proved safe.
    Safe(Pos),
    /// A flag on a cell the analyzer proved a mine.
    Flag(Pos),
    /// A guess, with the cell's mine probability.
    Guess(Pos, f64),
}

/// How one game went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Played {
    pub won: bool,
    /// Clicks on cells that were not proved safe (the first click excluded).
    pub guesses: u32,
    /// Calls to the analyzer (the strategy's own calls included).
    pub analyses: u32,
}

/// Plays `game` to its end from the first click at `first`: every proved-safe cell is clicked and
/// every proved mine flagged; `strategy` picks a cell only when nothing is proved safe. The
/// analyzer runs once per batch of safe clicks, not after every click. `observe` sees each event
/// after it happened.
///
/// # Errors
/// If the analyzer finds the view inconsistent (a bug in the engine or the analyzer).
pub fn play(
    game: &mut Game,
    first: Pos,
    strategy: Strategy,
    observe: &mut dyn FnMut(Event, &Game),
) -> Result<Played, BotError> {
    let mut played = Played::default();
    let mut calls = Calls::default();
    game.reveal(first);
    observe(Event::First(first), game);
    while game.status() == Status::Playing {
        if step(game, strategy, &mut calls, observe)? {
            played.guesses += 1;
        }
    }
    played.won = game.status() == Status::Won;
    played.analyses = calls.get();
    Ok(played)
}

/// One move of the bot, as [`play`] makes them: one analysis of the view, then a flag on every
/// proved mine still hidden and a click on every proved-safe cell, or, if none is safe, one
/// guess chosen by `strategy`. Returns whether it guessed. A game that is over is left as it is.
///
/// # Errors
/// If the analyzer finds the view inconsistent (a wrong flag of the player's, or a bug in the
/// engine or the analyzer) or too complex.
pub fn step(
    game: &mut Game,
    strategy: Strategy,
    calls: &mut Calls,
    observe: &mut dyn FnMut(Event, &Game),
) -> Result<bool, BotError> {
    if game.status() != Status::Playing {
        return Ok(false);
    }
    let analysis = calls.analyze(game.view())?;
    for &p in &analysis.mines {
        if game.view().get(p) == Cell::Hidden && game.toggle_flag(p) {
            observe(Event::Flag(p), game);
        }
    }
    if analysis.safe.is_empty() {
        let (p, probability) = strategy.choose(game.view(), &analysis, calls);
        game.reveal(p);
        observe(Event::Guess(p, probability), game);
        return Ok(true);
    }
    for &p in &analysis.safe {
        if let Reveal::Opened { .. } = game.reveal(p) {
            observe(Event::Safe(p), game);
        }
    }
    Ok(false)
}
