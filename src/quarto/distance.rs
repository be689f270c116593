//! How far a decided position is from its end: the N of "win in N" and "loss in N".
//!
//! N counts the placements of the player who wins, from the position on, the winning one
//! included: "win in 1" is a position where the piece in hand wins at once, "loss in 1" one where
//! whatever the mover does, the opponent wins with their next placement. The winner plays to win
//! soonest, the loser to lose latest.
//!
//! The distance is found by proof searches "can the mover force a win within n of their
//! placements?" for n = 1, 2, … (an AND-OR search: every reply must fail for the defender), with
//! a table of proven bounds per position shared by every search of one [`Prover`].

use super::board::{Board, Cell, Piece, Pieces};
use super::outcome::Outcome;
use super::root::Value;

/// Proof searches for distances, with their table.
pub struct Prover {
    /// Direct-mapped: each slot holds a whole key (84 bits), the largest n proven false (4
    /// bits) and the smallest n proven true (4 bits, 15 when none); zero is an empty slot.
    slots: Vec<u128>,
    mask: usize,
    /// Nodes entered so far.
    pub nodes: u64,
}

const FALSE_SHIFT: u32 = 84;
const TRUE_SHIFT: u32 = 88;
const USED: u128 = 1 << 92;
const KEY_BITS: u128 = (1 << 84) - 1;
/// No n proven true yet.
const NONE_TRUE: u32 = 15;
/// Nodes with fewer empty cells than this are not stored (they are cheap to redo).
const TABLE_FROM: u32 = 5;

/// The table size of a prover for a position with `empty` empty cells: 2^13 slots (128 KiB) up
/// to 14 empty cells, 2^17 (2 MiB) from 15.
#[must_use]
pub fn default_log2_slots(empty: u32) -> u32 {
    match empty {
        0..=14 => 13,
        _ => 17,
    }
}

impl Prover {
    /// A prover with a table of `2^log2_slots` entries of 16 bytes (zeroed lazily by the
    /// allocator).
    #[must_use]
    pub fn new(log2_slots: u32) -> Prover {
        Prover {
            slots: vec![0; 1 << log2_slots],
            mask: (1 << log2_slots) - 1,
            nodes: 0,
        }
    }

    /// The N of "win in N" for `board` with `hand` to place (a board with an empty cell and no
    /// winning line), or `None` if the mover does not win.
    pub fn win_distance(&mut self, board: Board, hand: Piece) -> Option<u32> {
        (1..=board.empty().len().div_ceil(2)).find(|&n| self.wins_within(board, hand, n))
    }

    /// The N of "loss in N" for `board` with `hand` to place (a board with an empty cell and no
    /// winning line), or `None` if the mover does not lose.
    pub fn loss_distance(&mut self, board: Board, hand: Piece) -> Option<u32> {
        if board.threats().meets(hand.traits()) {
            return None;
        }
        (1..=board.empty().len().div_ceil(2)).find(|&n| self.all_replies_lose(board, hand, n))
    }

    /// `value` (the mover's, placing `hand` on `board`) with its distance, or `None` if the
    /// position is not decided that way (a draw needs no proof).
    pub fn outcome(&mut self, board: Board, hand: Piece, value: Value) -> Option<Outcome> {
        match value {
            Value::Win => self.win_distance(board, hand).map(Outcome::Win),
            Value::Draw => Some(Outcome::Draw),
            Value::Loss => self.loss_distance(board, hand).map(Outcome::Loss),
        }
    }

    /// Whether the mover, placing `hand` on `board`, can force a win within `n` (>= 1) of their
    /// placements.
    fn wins_within(&mut self, board: Board, hand: Piece, n: u32) -> bool {
        self.nodes += 1;
        if board.threats().meets(hand.traits()) {
            return true;
        }
        // Another placement of the mover needs two more empty cells, and two safe moves.
        let empty = board.empty();
        if n <= 1 || empty.len() < 3 {
            return false;
        }
        let slot = (empty.len() >= TABLE_FROM).then(|| self.slot(&board, hand));
        if let Some((i, key)) = slot {
            let word = self.slots[i];
            if word & KEY_BITS == key && word & USED != 0 {
                if n >= (word >> TRUE_SHIFT) as u32 & 15 {
                    return true;
                }
                if n <= (word >> FALSE_SHIFT) as u32 & 15 {
                    return false;
                }
            }
        }
        let remaining = board.unused().without(hand);
        let won = ordered_moves(board, hand, remaining)
            .into_iter()
            .any(|(cell, gift)| self.all_replies_lose(board.place(cell, hand), gift, n - 1));
        if let Some((i, key)) = slot {
            self.record(i, key, n, won);
        }
        won
    }

    /// Whether every move of the player placing `gift` on `board` (who cannot win at once) lets
    /// their opponent win within `n` of the opponent's placements: a placement that fills the
    /// board is a draw; a gift that meets the threats loses at once.
    fn all_replies_lose(&mut self, board: Board, gift: Piece, n: u32) -> bool {
        self.nodes += 1;
        let remaining = board.unused().without(gift);
        for cell in board.empty() {
            let after = board.place(cell, gift);
            if after.empty().is_empty() {
                return false;
            }
            let safe = after.threats().safe_pieces().and(remaining);
            for next in safe {
                if !self.wins_within(after, next, n) {
                    return false;
                }
            }
        }
        true
    }

    fn slot(&self, board: &Board, hand: Piece) -> (usize, u128) {
        let (pieces, occupied) = board.raw();
        let key = u128::from(pieces) | u128::from(occupied) << 64 | u128::from(hand.index()) << 80;
        let h = (pieces ^ u64::from(occupied) << 48 ^ u64::from(hand.index()))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let h = (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        ((h >> 20) as usize & self.mask, key)
    }

    /// Records that `wins_within(n)` is `won` for the key in slot `i`, keeping what the slot
    /// already knows of the same key.
    fn record(&mut self, i: usize, key: u128, n: u32, won: bool) {
        let word = self.slots[i];
        let (mut lo, mut hi) = if word & KEY_BITS == key && word & USED != 0 {
            (
                (word >> FALSE_SHIFT) as u32 & 15,
                (word >> TRUE_SHIFT) as u32 & 15,
            )
        } else {
            (0, NONE_TRUE)
        };
        if won {
            hi = hi.min(n);
        } else {
            lo = lo.max(n);
        }
        self.slots[i] = key | u128::from(lo) << FALSE_SHIFT | u128::from(hi) << TRUE_SHIFT | USED;
    }
}

/// The mover's moves with a safe gift, the ones leaving the opponent fewest safe replies first
/// (ties in the order cell, then gift).
fn ordered_moves(board: Board, hand: Piece, remaining: Pieces) -> Vec<(Cell, Piece)> {
    let mut moves: Vec<(u32, Cell, Piece)> = Vec::new();
    for cell in board.empty() {
        let after = board.place(cell, hand);
        for gift in after.threats().safe_pieces().and(remaining) {
            let left = remaining.without(gift);
            let replies: u32 = after
                .empty()
                .map(|c| after.place(c, gift).threats().safe_pieces().and(left).len())
                .sum();
            moves.push((replies, cell, gift));
        }
    }
    moves.sort_by_key(|m| m.0);
    moves.into_iter().map(|(_, c, g)| (c, g)).collect()
}
