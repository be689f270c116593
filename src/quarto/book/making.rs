//! What makes and writes a book, beside what reads it: the binary and text writers and each
//! shallower level's entries from the next one (for `quarto-book` and the tests). Left out of the
//! bundle for online judges, which only reads books.

use std::fmt::{self, Write as _};

use super::{move_entry, moves, Book, Entry, MAGIC};
use crate::quarto::board::{Board, Piece};
use crate::quarto::outcome::Outcome;
use crate::quarto::root::Value;
use crate::quarto::symmetry::Canonical;

impl Entry {
    /// The entry of an outcome: its value and distance.
    ///
    /// # Panics
    /// If the distance is over [`MAX_DISTANCE`](super::MAX_DISTANCE) (no position has one).
    #[must_use]
    pub fn of_outcome(outcome: Outcome) -> Entry {
        let distance = match outcome {
            Outcome::Win(n) | Outcome::Loss(n) => Some(n),
            Outcome::Draw => None,
        };
        let distance = distance.map(|n| u8::try_from(n).expect("a distance of at most 8"));
        Entry::new(outcome.value(), distance).expect("a distance of 1 to 8")
    }
}

/// `w`, `d` or `l`, then the distance if known: `w 3`.
impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", value_letter(self.value))?;
        match self.distance {
            Some(d) => write!(f, " {d}"),
            None => Ok(()),
        }
    }
}

impl Book {
    /// The entries, in canonical order.
    pub fn entries(&self) -> impl Iterator<Item = (Canonical, Entry)> + '_ {
        self.values.iter().map(|(k, v)| (*k, *v))
    }

    /// The book in the binary form, the same bytes for the same entries.
    ///
    /// # Panics
    /// With more than `u32::MAX` entries.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let count = u32::try_from(self.values.len()).expect("a book of at most 2^32 entries");
        out.extend_from_slice(&count.to_le_bytes());
        for (c, v) in self.entries() {
            out.extend_from_slice(&c.occupied.to_le_bytes());
            let placed: Vec<u8> = (0..16)
                .filter(|i| c.occupied >> i & 1 == 1)
                .map(|i| (c.pieces >> (4 * i) & 15) as u8)
                .collect();
            out.extend(
                placed
                    .chunks(2)
                    .map(|p| p[0] | p.get(1).map_or(0, |q| q << 4)),
            );
            out.push(v.value.score().wrapping_add(1) as u8 | v.distance.unwrap_or(0) << 2);
        }
        out
    }

    /// The book in the file format, sorted.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for (c, v) in self.entries() {
            writeln!(text, "{}", entry_line(&c, v)).expect("a string");
        }
        text
    }
}

/// One entry in the text form, without its line end: `OOOO PPPPPPPPPPPPPPPP v [N]` (the
/// canonical form's occupancy and pieces in lowercase hex, then `w`, `d` or `l`, and the
/// distance if known).
#[must_use]
pub fn entry_line(c: &Canonical, entry: Entry) -> String {
    format!("{:04x} {:016x} {entry}", c.occupied, c.pieces)
}

/// `w`, `d` or `l`.
#[must_use]
pub fn value_letter(v: Value) -> char {
    match v {
        Value::Win => 'w',
        Value::Draw => 'd',
        Value::Loss => 'l',
    }
}

/// The entry of `board` with `hand` to place from the book's entries of the positions its moves
/// lead to, if it has them all (so a book's shallower levels follow from its deepest one): the
/// best value, with its distance if the book has the distances it depends on (for a win the
/// least over the winning moves, for a loss the greatest over every move).
#[must_use]
pub fn entry_from_children(book: &Book, board: &Board, hand: Piece) -> Option<Entry> {
    let entries = (moves(board, hand).into_iter())
        .map(|mv| move_entry(book, board, hand, mv))
        .collect::<Option<Vec<Entry>>>()?;
    let value = entries.iter().map(|e| e.value).max()?;
    let distances = (entries.iter())
        .filter(|e| e.value == value)
        .map(|e| e.distance)
        .collect::<Option<Vec<u8>>>();
    let distance = match value {
        Value::Draw => None,
        Value::Win => distances.and_then(|d| d.into_iter().min()),
        Value::Loss => distances.and_then(|d| d.into_iter().max()),
    };
    Entry::new(value, distance)
}
