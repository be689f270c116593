//! A move, the player's or the bot's: what the game in progress plays ([`Play`](super::Play)) and
//! what a replay records ([`replay`](super::replay)).

use cp_puzzles::minesweeper::Pos;

/// A move of the player's or of the bot's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Reveal(Pos),
    Flag(Pos),
    Chord(Pos),
}

impl Move {
    /// The cell the move is about.
    #[must_use]
    pub fn cell(self) -> Pos {
        match self {
            Move::Reveal(p) | Move::Flag(p) | Move::Chord(p) => p,
        }
    }
}
