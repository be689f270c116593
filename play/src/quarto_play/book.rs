//! The opening book: the value of every canonical position with 1 to `depth` pieces placed and a
//! piece in hand, computed by the library's solver.
//!
//! The file forms, the lookups and the book built into the binaries are the library's ([`Book`],
//! [`Book::embedded`]); this module holds what makes a book.

pub mod checkpoint;

use std::collections::BTreeSet;

use cp_puzzles::quarto::search::{default_log2_buckets, Config, Searcher};
use cp_puzzles::quarto::symmetry::{canonical, Canonical};
pub use cp_puzzles::quarto::Book;
use cp_puzzles::quarto::{Board, Piece, Value};

/// The shipped book: the one built into the binaries ([`Book::embedded`]).
#[must_use]
pub fn shipped() -> Book {
    Book::embedded()
}

/// The canonical positions with exactly `placed` pieces on the board, a piece in hand, and no
/// winning line, reachable in play (for `placed` up to 16 in principle; the count grows fast).
#[must_use]
pub fn canonical_positions(placed: u32) -> BTreeSet<Canonical> {
    let mut level = BTreeSet::from([canonical(&Board::EMPTY, piece0())]);
    for _ in 0..placed {
        let mut next = BTreeSet::new();
        for c in &level {
            let board = c.board();
            for cell in board.empty() {
                let child = board.place(cell, piece0());
                if child.has_winning_line() || child.empty().is_empty() {
                    continue;
                }
                for gift in child.unused() {
                    next.insert(canonical(&child, gift));
                }
            }
        }
        level = next;
    }
    level
}

/// A searcher for positions with `placed` pieces placed, reused from position to position (its
/// table holds exact results only for the positions it keys, so sharing it is sound).
#[must_use]
pub fn searcher_for(placed: u32) -> Searcher {
    Searcher::new(Config::default(), default_log2_buckets(16 - placed))
}

/// The value of the canonical position `c` (piece 0000 in hand), by search.
pub fn solve(searcher: &mut Searcher, c: &Canonical) -> Value {
    match searcher.value(c.board(), piece0(), -1, 1) {
        1 => Value::Win,
        0 => Value::Draw,
        _ => Value::Loss,
    }
}

fn piece0() -> Piece {
    Piece::new(0).expect("0 is a piece")
}
