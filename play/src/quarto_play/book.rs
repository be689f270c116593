//! The opening book: the value of every canonical position with 1 to `depth` pieces placed and a
//! piece in hand, computed by the library's solver.
//!
//! File format: one line per position, `OOOO PPPPPPPPPPPPPPPP V`: the canonical form's occupancy
//! (4 hex digits) and pieces (16 hex digits, see [`Canonical`]), then the value for the player to
//! move, `w`, `d` or `l`. Lines are sorted; `#` starts a comment line.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use cp_puzzles::quarto::search::{default_log2_buckets, Config, Searcher};
use cp_puzzles::quarto::symmetry::{canonical, Canonical};
use cp_puzzles::quarto::{Board, Piece, Value};

/// The book shipped with the program (see `docs/quarto-play.md` for how it was made).
pub const SHIPPED: &str = include_str!("book.txt");

/// Game values of canonical positions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    values: BTreeMap<Canonical, Value>,
}

impl Book {
    /// The book in `text` (the file format above).
    ///
    /// # Errors
    /// A one-line message naming the first bad line.
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut values = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let entry = parse_line(line).ok_or_else(|| {
                format!(
                    "book line {}: expected \"OOOO PPPPPPPPPPPPPPPP w|d|l\"",
                    i + 1
                )
            })?;
            values.insert(entry.0, entry.1);
        }
        Ok(Book { values })
    }

    /// The book shipped with the program.
    ///
    /// # Panics
    /// If the shipped book is malformed (a test checks that it is not).
    #[must_use]
    pub fn shipped() -> Book {
        Book::parse(SHIPPED).expect("the shipped book is well formed")
    }

    /// The value of `board` with `hand` to place, if the book has it.
    #[must_use]
    pub fn value(&self, board: &Board, hand: Piece) -> Option<Value> {
        self.values.get(&canonical(board, hand)).copied()
    }

    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the book is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The entries, in canonical order.
    pub fn entries(&self) -> impl Iterator<Item = (Canonical, Value)> + '_ {
        self.values.iter().map(|(k, v)| (*k, *v))
    }

    /// Adds a position's value.
    pub fn insert(&mut self, position: Canonical, value: Value) {
        self.values.insert(position, value);
    }

    /// The book in the file format.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for (c, v) in self.entries() {
            let v = match v {
                Value::Win => 'w',
                Value::Draw => 'd',
                Value::Loss => 'l',
            };
            writeln!(text, "{:04x} {:016x} {v}", c.occupied, c.pieces).expect("a string");
        }
        text
    }
}

fn parse_line(line: &str) -> Option<(Canonical, Value)> {
    let mut t = line.split_ascii_whitespace();
    let (o, p, v) = (t.next()?, t.next()?, t.next()?);
    if t.next().is_some() || o.len() != 4 || p.len() != 16 {
        return None;
    }
    let occupied = u16::from_str_radix(o, 16).ok()?;
    let pieces = u64::from_str_radix(p, 16).ok()?;
    Board::from_raw(pieces, occupied)?;
    let value = match v {
        "w" => Value::Win,
        "d" => Value::Draw,
        "l" => Value::Loss,
        _ => return None,
    };
    Some((Canonical { occupied, pieces }, value))
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
