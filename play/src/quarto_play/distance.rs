//! How far a decided game is from its end: "win in N" and "loss in N".
//!
//! N counts the placements of the player who wins, from the position on, the winning one
//! included: "win in 1" is a placement that wins now, "loss in 1" a position where whatever the
//! mover does, the opponent wins with their next placement. The winner plays to win soonest, the
//! loser to lose latest. The solver gives only win, draw or loss; the distance is found by a
//! bounded search ("can the mover force a win within n placements?", n = 1, 2, …) and is left
//! out when that search exceeds [`BUDGET`] nodes (positions with few pieces placed).

use std::fmt;

use cp_puzzles::quarto::{Board, Move, Piece, Value};

/// The most nodes one distance search may visit (about a tenth of a second).
pub const BUDGET: u64 = 300_000;

/// A value for the player to move, with its distance when known.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outlook {
    pub value: Value,
    /// N of "win in N" or "loss in N"; `None` for a draw, or when the search was too long.
    pub distance: Option<u32>,
}

impl fmt::Display for Outlook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.distance {
            Some(n) if self.value != Value::Draw => write!(f, "{} in {n}", self.value),
            _ => write!(f, "{}", self.value),
        }
    }
}

impl Outlook {
    /// An order from worst to best for the mover: losses (later is better), draws, wins
    /// (sooner is better); an uncounted distance ranks as the farthest.
    #[must_use]
    pub fn rank(self) -> i32 {
        let n = self.distance.map_or(100, |n| n as i32);
        match self.value {
            Value::Win => 1000 - n,
            Value::Draw => 0,
            Value::Loss => -1000 + n,
        }
    }

    /// A short form for a grid: `W3`, `D`, `L2`, or `W` and `L` when not counted.
    #[must_use]
    pub fn short(self) -> String {
        let letter = match self.value {
            Value::Win => "W",
            Value::Draw => return "D".into(),
            Value::Loss => "L",
        };
        self.distance
            .map_or(letter.to_string(), |n| format!("{letter}{n}"))
    }
}

/// The outlook of `board` with `hand` to place, whose value is `value`.
#[must_use]
pub fn outlook(board: &Board, hand: Piece, value: Value) -> Outlook {
    let mut search = Search { nodes: 0 };
    let most = board.empty().len().div_ceil(2);
    let distance = match value {
        Value::Draw => None,
        Value::Win => (1..=most).find_map(|n| match search.wins_within(*board, hand, n) {
            Some(true) => Some(Some(n)),
            Some(false) => None,
            None => Some(None),
        }),
        Value::Loss => (1..=most).find_map(|n| match search.loses_within(*board, hand, n) {
            Some(true) => Some(Some(n)),
            Some(false) => None,
            None => Some(None),
        }),
    }
    .flatten();
    Outlook { value, distance }
}

/// The outlook for the mover of playing `mv` (a placement) from `board` with `hand`, given
/// `after`, the value of the position it leaves for the opponent (unused if the game ends).
#[must_use]
pub fn move_outlook(board: &Board, hand: Piece, mv: Move, after: Value) -> Outlook {
    let (Some(cell), Some(gift)) = (mv.place, mv.give) else {
        let win = mv.place.is_some_and(|c| board.wins_at(c, hand));
        return if win {
            Outlook {
                value: Value::Win,
                distance: Some(1),
            }
        } else {
            Outlook {
                value: Value::Draw,
                distance: None,
            }
        };
    };
    let theirs = outlook(&board.place(cell, hand), gift, after);
    match theirs.value {
        Value::Win => Outlook {
            value: Value::Loss,
            distance: theirs.distance,
        },
        Value::Draw => theirs,
        Value::Loss => Outlook {
            value: Value::Win,
            distance: theirs.distance.map(|n| n + 1),
        },
    }
}

/// A bounded search: `None` once it has visited more than [`BUDGET`] nodes.
struct Search {
    nodes: u64,
}

impl Search {
    fn visit(&mut self) -> Option<()> {
        self.nodes += 1;
        (self.nodes <= BUDGET).then_some(())
    }

    /// Whether the mover can force a win with one of their next `n` placements.
    fn wins_within(&mut self, board: Board, hand: Piece, n: u32) -> Option<bool> {
        self.visit()?;
        let empty = board.empty();
        if empty.into_iter().any(|c| board.wins_at(c, hand)) {
            return Some(true);
        }
        // Another placement of the mover needs two more empty cells.
        if n <= 1 || empty.len() < 3 {
            return Some(false);
        }
        for cell in empty {
            let after = board.place(cell, hand);
            let safe = after.threats().safe_pieces().and(after.unused());
            for gift in safe {
                if self.all_replies_lose(after, gift, n - 1)? {
                    return Some(true);
                }
            }
        }
        Some(false)
    }

    /// Whether every reply of the opponent, placing the safe `gift` on `board`, lets the mover
    /// win within `n` placements.
    fn all_replies_lose(&mut self, board: Board, gift: Piece, n: u32) -> Option<bool> {
        for cell in board.empty() {
            let after = board.place(cell, gift);
            for next in after.unused() {
                if !self.wins_within(after, next, n)? {
                    return Some(false);
                }
            }
        }
        Some(true)
    }

    /// Whether the opponent can force a win within `n` of their placements whatever the mover
    /// does (the mover having no winning placement).
    fn loses_within(&mut self, board: Board, hand: Piece, n: u32) -> Option<bool> {
        self.visit()?;
        for cell in board.empty() {
            let after = board.place(cell, hand);
            if after.has_winning_line() || after.empty().is_empty() {
                return Some(false);
            }
            for gift in after.unused() {
                let unsafe_gift = after.threats().meets(gift.traits());
                if !unsafe_gift && !self.wins_within(after, gift, n)? {
                    return Some(false);
                }
            }
        }
        Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cp_puzzles::quarto::{best_move, Cell, Position};

    fn piece(p: u8) -> Piece {
        Piece::new(p).expect("a piece")
    }

    /// The exact signed distance by plain negamax: +N win in N, -N loss in N, 0 draw.
    fn exact(board: Board, hand: Piece) -> i32 {
        // Sooner wins rank higher, later losses too.
        let rank = |v: i32| match v.signum() {
            1 => 1000 - v,
            -1 => -1000 - v,
            _ => 0,
        };
        let mut best: Option<i32> = None;
        let mut consider = |v: i32| {
            if best.is_none_or(|b| rank(v) > rank(b)) {
                best = Some(v);
            }
        };
        for cell in board.empty() {
            let after = board.place(cell, hand);
            if after.has_winning_line() {
                consider(1);
            } else if after.empty().is_empty() {
                consider(0);
            } else {
                for gift in after.unused() {
                    let g = exact(after, gift);
                    consider(match g.signum() {
                        1 => -g,
                        -1 => 1 - g,
                        _ => 0,
                    });
                }
            }
        }
        best.expect("an empty cell")
    }

    /// Positions from a fixed pseudo-random fill, `empty` cells left, not won.
    fn positions(empty: usize) -> Vec<(Board, Piece)> {
        let mut found = Vec::new();
        let mut state = 12_345u64;
        let mut next = |n: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize % n
        };
        while found.len() < 40 {
            let mut pieces: Vec<u8> = (0..16).collect();
            let mut cells: Vec<u8> = (0..16).collect();
            let mut board = Board::EMPTY;
            for _ in 0..16 - empty {
                let p = pieces.swap_remove(next(pieces.len()));
                let c = cells.swap_remove(next(cells.len()));
                board = board.place(Cell::from_index(c), piece(p));
            }
            if !board.has_winning_line() {
                found.push((board, piece(pieces[next(pieces.len())])));
            }
        }
        found
    }

    #[test]
    fn distances_agree_with_plain_negamax() {
        let mut kinds = [0; 3];
        for empty in 3..=6 {
            for (board, hand) in positions(empty) {
                let value = best_move(&Position {
                    board,
                    hand: Some(hand),
                })
                .value;
                let o = outlook(&board, hand, value);
                let signed = match o.value {
                    Value::Win => o.distance.expect("small") as i32,
                    Value::Loss => -(o.distance.expect("small") as i32),
                    Value::Draw => 0,
                };
                kinds[(signed.signum() + 1) as usize] += 1;
                assert_eq!(signed, exact(board, hand), "{board:?} {hand:?}");
            }
        }
        assert!(
            kinds.iter().all(|&k| k > 0),
            "losses, draws, wins: {kinds:?}"
        );
    }
}
