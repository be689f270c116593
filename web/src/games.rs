//! The games kept in the store: a Minesweeper game (with its playback, for a replay's) and a
//! Quarto match against the computer. Their routes are in `mines` and `quarto`.

use cp_puzzles::minesweeper::game::Rng;
use cp_puzzles_play::minesweeper_play::replay::Replay;
use cp_puzzles_play::minesweeper_play::Play;
use cp_puzzles_play::quarto_play::game::Game;
use cp_puzzles_play::quarto_play::players::Level;

/// A Minesweeper game: the play, and for a replay's game the actions still to play back.
pub struct MinesGame {
    pub play: Play,
    pub playback: Option<Playback>,
}

/// A replay being played back: its actions, and how many were played.
pub struct Playback {
    pub replay: Replay,
    /// The number of actions played (the index of the next).
    pub next: usize,
}

/// A Quarto game against the computer.
pub struct QuartoMatch {
    pub game: Game,
    /// The player (1 or 2) the person plays; player 1 gives the first piece.
    pub you: u8,
    /// The computer's level (never `Human`).
    pub level: Level,
    /// The computer's random choices.
    pub rng: Rng,
}
