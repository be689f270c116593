//! The move a perfect player makes: the first optimal move in the order cell (row-major), then
//! given piece (ascending).
//!
//! Moves are compared by value only (win > draw > loss): an immediate win and a forced later win
//! are both `win`, and the earlier one in that order is chosen. A placement that wins, or fills the
//! last empty cell, ends the game and is a move without a gift, ordered by its cell.

use std::fmt;

use super::board::{Cell, Piece};
use super::parse::Position;
use super::search::{default_log2_buckets, is_first_of_orbit, Config, Searcher};
use super::symmetry::stabilizer;

/// The value of a position for the player to move, both sides playing perfectly.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Value {
    Loss,
    Draw,
    Win,
}

impl Value {
    /// 1 for a win, 0 for a draw, -1 for a loss.
    #[must_use]
    pub const fn score(self) -> i8 {
        match self {
            Value::Win => 1,
            Value::Draw => 0,
            Value::Loss => -1,
        }
    }

    /// The value of a score: 1 a win, 0 a draw, anything else a loss (a search's -1).
    #[must_use]
    pub fn from_score(score: i8) -> Value {
        match score {
            1 => Value::Win,
            0 => Value::Draw,
            _ => Value::Loss,
        }
    }
}

/// The value for the other player.
impl std::ops::Neg for Value {
    type Output = Value;
    fn neg(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Draw => Value::Draw,
            Value::Loss => Value::Win,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Value::Loss => "loss",
            Value::Draw => "draw",
            Value::Win => "win",
        })
    }
}

/// A move: place the piece in hand (except at the start), then give a piece (except when the
/// placement ends the game).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Move {
    pub place: Option<Cell>,
    pub give: Option<Piece>,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        if let Some(c) = self.place {
            write!(f, "place {} {}", c.row(), c.col())?;
            sep = " ";
        }
        if let Some(p) = self.give {
            write!(f, "{sep}give {p}")?;
        }
        Ok(())
    }
}

/// The answer for a position, and what the search cost.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Answer {
    pub best: Move,
    pub value: Value,
    /// Search nodes entered.
    pub nodes: u64,
    /// The transposition table's size in bytes (0 when no search was needed).
    pub table_bytes: usize,
}

/// The solver's output: the move and the value, each on its own line.
impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}\n{}", self.best, self.value)
    }
}

/// The first optimal move of `position` and its value, with the default settings.
#[must_use]
pub fn best_move(position: &Position) -> Answer {
    best_move_with(position, Config::default())
}

/// As [`best_move`], with explicit search settings (the answer does not depend on them).
#[must_use]
pub fn best_move_with(position: &Position, config: Config) -> Answer {
    search_root(position, config, None)
}

/// As [`best_move`], when the position's value is already known (from an opening book): the
/// moves are tested in order, each with a null window that only asks whether it reaches `value`,
/// and the first that does is the answer, without proving that the later ones do no better. The
/// same answer as [`best_move`] when `value` is the position's value; if no move reaches it (a
/// wrong `value`), the full search's answer.
///
/// The table is at most [`KNOWN_VALUE_LOG2_BUCKETS`] buckets: such a search stops early and
/// touches few positions, so a larger table costs more to fault in than it saves.
#[must_use]
pub fn best_move_of_value(position: &Position, value: Value) -> Answer {
    let empty = position.board.empty().len();
    let config = Config {
        log2_buckets: Some(default_log2_buckets(empty).min(KNOWN_VALUE_LOG2_BUCKETS)),
        ..Config::default()
    };
    best_move_of_value_with(position, value, config)
}

/// The largest table of [`best_move_of_value`]: 2^18 buckets, 8 MiB. Measured on a position with
/// 3 pieces placed: 0.51 s with it, 0.90 s with 256 MiB, the same nodes. The default sizes
/// ([`default_log2_buckets`], at most 2^16 buckets) are below it.
pub const KNOWN_VALUE_LOG2_BUCKETS: u32 = 18;

/// As [`best_move_of_value`], with explicit search settings.
#[must_use]
pub fn best_move_of_value_with(position: &Position, value: Value, config: Config) -> Answer {
    search_root(position, config, Some(value))
}

/// The root search: every move's value (`known` is `None`), or the first move reaching `known`.
fn search_root(position: &Position, config: Config, known: Option<Value>) -> Answer {
    let board = position.board;
    let Some(hand) = position.hand else {
        // The empty board: every piece is the image of 0000 under an attribute complement, which
        // fixes the empty board, so all gifts have the same value, and the first is 0000. That
        // value is the game's, a draw (Goossens, 1998); see docs/quarto.md.
        return Answer {
            best: Move {
                place: None,
                give: Piece::new(0),
            },
            value: Value::Draw,
            nodes: 0,
            table_bytes: 0,
        };
    };
    let empty = board.empty();
    let ends = |cell| Answer {
        best: Move {
            place: Some(cell),
            give: None,
        },
        value: if board.wins_at(cell, hand) {
            Value::Win
        } else {
            Value::Draw
        },
        nodes: 1,
        table_bytes: 0,
    };
    // The first winning cell, or the last empty cell.
    let first_win = empty.into_iter().find(|&c| board.wins_at(c, hand));
    if empty.len() == 1 {
        return ends(empty.into_iter().next().expect("one empty cell"));
    }
    if first_win.is_some_and(|w| empty.into_iter().next() == Some(w)) {
        return ends(first_win.expect("checked"));
    }
    let log2 = config
        .log2_buckets
        .unwrap_or_else(|| default_log2_buckets(empty.len()));
    let mut searcher = Searcher::new(config, log2);
    let symmetries = stabilizer(&board, hand);
    let remaining = board.unused().without(hand);
    // With a winning cell somewhere, only wins matter: search earlier moves with a null window.
    let mut best: i8 = if first_win.is_some() { 0 } else { -2 };
    let mut best_move = None;
    let mut found = false;
    for cell in empty {
        if Some(cell) == first_win {
            break;
        }
        let child = board.place(cell, hand);
        for gift in remaining {
            if !is_first_of_orbit(&symmetries, cell, gift) {
                continue;
            }
            if let Some(k) = known {
                // The window (-s, -s + 1) only asks whether the child is worth at most -s; in a
                // lost position the first move is the answer.
                let s = k.score();
                if s == -1 || -searcher.value(child, gift, -s, 1 - s) >= s {
                    best = s;
                    best_move = Some((cell, gift));
                    found = true;
                    break;
                }
                continue;
            }
            let v = -searcher.value(child, gift, -1, -best);
            if v > best {
                best = v;
                best_move = Some((cell, gift));
                if best == 1 {
                    break;
                }
            }
        }
        if best == 1 || found {
            break;
        }
    }
    if known.is_some() && !found && first_win.is_none() {
        return best_move_with(position, config);
    }
    let (best_move, value) = match best_move {
        Some((cell, gift)) if best == 1 || first_win.is_none() => (
            Move {
                place: Some(cell),
                give: Some(gift),
            },
            Value::from_score(best),
        ),
        _ => {
            let w = first_win.expect("no move found only when a win was the bar");
            let mut a = ends(w);
            a.nodes = searcher.nodes + 1;
            a.table_bytes = searcher.table_bytes();
            return a;
        }
    };
    Answer {
        best: best_move,
        value,
        nodes: searcher.nodes + 1,
        table_bytes: searcher.table_bytes(),
    }
}
