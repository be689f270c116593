//! The opening book: the value of every canonical position with 1 to `depth` pieces placed and a
//! piece in hand, with the distance of each win and loss, computed by the library's solver and
//! prover.
//!
//! The file forms, the lookups and the book built into the binaries are the library's ([`Book`],
//! [`Book::embedded`]); this module holds what makes a book.

pub mod checkpoint;

use std::collections::BTreeSet;

use cp_puzzles::quarto::book::Entry;
use cp_puzzles::quarto::distance::Prover;
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

/// The solver of a book's positions with `placed` pieces placed: a searcher for the values and a
/// prover for the distances, reused from position to position (their tables hold exact results
/// only for the positions they key, so sharing them is sound).
pub struct Solver {
    searcher: Searcher,
    prover: Prover,
}

impl Solver {
    /// A solver for positions with `placed` pieces placed (tables sized as `quarto`'s).
    #[must_use]
    pub fn new(placed: u32) -> Solver {
        let log2 = default_log2_buckets(16 - placed);
        Solver {
            searcher: Searcher::new(Config::default(), log2),
            prover: Prover::new(log2.min(20) + 1),
        }
    }

    /// The entry of the canonical position `c` (piece 0000 in hand): its value by search, and
    /// the distance of a win or a loss by the prover.
    ///
    /// # Panics
    /// If the prover disagrees with the search (a bug in one of them).
    pub fn solve(&mut self, c: &Canonical) -> Entry {
        let (board, hand) = (c.board(), piece0());
        let value = Value::from_score(self.searcher.value(board, hand, -1, 1));
        let outcome = (self.prover.outcome(board, hand, value)).expect("search and prover agree");
        Entry::of_outcome(outcome)
    }
}

fn piece0() -> Piece {
    Piece::new(0).expect("0 is a piece")
}
