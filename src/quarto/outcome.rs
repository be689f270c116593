//! A value with its distance: `win in N`, `draw` or `loss in N` for the player to move (N as in
//! [`distance`](super::distance)). Beside [`Value`], which it refines; not in the bundle for online
//! judges, whose answer is the value alone.

use std::fmt;

use super::root::Value;

/// A value with its distance, for the player to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    /// The mover wins with their N-th placement from here at the latest (N >= 1).
    Win(u32),
    Draw,
    /// The opponent wins with their N-th placement from here at the latest (N >= 1).
    Loss(u32),
}

impl Outcome {
    /// The value without the distance.
    #[must_use]
    pub fn value(self) -> Value {
        match self {
            Outcome::Win(_) => Value::Win,
            Outcome::Draw => Value::Draw,
            Outcome::Loss(_) => Value::Loss,
        }
    }

    /// The outcome, for the mover, of the position their move leaves to the opponent (`self`).
    #[must_use]
    pub fn before(self) -> Outcome {
        match self {
            Outcome::Win(n) => Outcome::Loss(n),
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss(n) => Outcome::Win(n + 1),
        }
    }
}

/// `win in N`, `draw` or `loss in N`.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(n) => write!(f, "win in {n}"),
            Outcome::Draw => f.write_str("draw"),
            Outcome::Loss(n) => write!(f, "loss in {n}"),
        }
    }
}
