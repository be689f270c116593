//! An opening book: the game values of canonical positions, so that early positions are answered
//! without the long searches they need (see `docs/quarto.md`, "Opening book").
//!
//! File format: one line per position, `OOOO PPPPPPPPPPPPPPPP V`: the canonical form's occupancy
//! (4 hex digits) and pieces (16 hex digits, see [`Canonical`]), then the value for the player to
//! move, `w`, `d` or `l`. Blank lines and lines starting with `#` are skipped.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use super::board::{Board, Piece};
use super::parse::Position;
use super::root::{best_move, best_move_of_value, Answer, Move, Value};
use super::symmetry::{canonical, Canonical};

/// Game values of canonical positions (a piece in hand, no winning line on the board).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    values: BTreeMap<Canonical, Value>,
    /// The most pieces placed in any entry (0 for an empty book).
    depth: u32,
}

/// A line of a book file that is not an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    /// 1-based.
    pub line: usize,
}

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "book line {}: expected \"OOOO PPPPPPPPPPPPPPPP w|d|l\" (hex occupancy, hex pieces, value)",
            self.line
        )
    }
}

impl std::error::Error for BadLine {}

impl Book {
    /// The book in `text` (the file format above).
    ///
    /// # Errors
    /// The first line that is not an entry.
    pub fn parse(text: &str) -> Result<Book, BadLine> {
        let mut book = Book::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (c, v) = parse_line(line).ok_or(BadLine { line: i + 1 })?;
            book.insert(c, v);
        }
        Ok(book)
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

    /// The most pieces placed in any entry (0 for an empty book).
    #[must_use]
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The entries, in canonical order.
    pub fn entries(&self) -> impl Iterator<Item = (Canonical, Value)> + '_ {
        self.values.iter().map(|(k, v)| (*k, *v))
    }

    /// Adds a position's value.
    pub fn insert(&mut self, position: Canonical, value: Value) {
        self.depth = self.depth.max(position.occupied.count_ones());
        self.values.insert(position, value);
    }

    /// The book in the file format, sorted.
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
    let board = Board::from_raw(pieces, occupied)?;
    let hand = Piece::new(0)?;
    // Only canonical forms are ever looked up: anything else is a corrupt line.
    if occupied == 0
        || board.has_winning_line()
        || canonical(&board, hand) != (Canonical { occupied, pieces })
    {
        return None;
    }
    let value = match v {
        "w" => Value::Win,
        "d" => Value::Draw,
        "l" => Value::Loss,
        _ => return None,
    };
    Some((Canonical { occupied, pieces }, value))
}

/// The value, for the mover, of placing `hand` on `cell` of `board` and giving `gift` (`None`
/// when the placement ends the game): a win or a draw if the game ends, else the negated book
/// value of the position left, if the book has it.
#[must_use]
pub fn move_value(book: &Book, board: &Board, hand: Piece, mv: Move) -> Option<Value> {
    let cell = mv.place?;
    let after = board.place(cell, hand);
    if after.has_winning_line() {
        return Some(Value::Win);
    }
    match mv.give {
        None => Some(Value::Draw),
        Some(gift) => book.value(&after, gift).map(|v| -v),
    }
}

/// The moves from `board` with `hand` to place, in the solver's order: cell (row-major), then
/// given piece (ascending); a placement that wins or fills the board has no gift.
#[must_use]
pub fn moves(board: &Board, hand: Piece) -> Vec<Move> {
    let mut moves = Vec::new();
    for cell in board.empty() {
        let after = board.place(cell, hand);
        if after.has_winning_line() || after.empty().is_empty() {
            moves.push(Move {
                place: Some(cell),
                give: None,
            });
            continue;
        }
        for gift in after.unused() {
            moves.push(Move {
                place: Some(cell),
                give: Some(gift),
            });
        }
    }
    moves
}

/// As [`best_move`], answered from `book` where it can: by looking the position's moves up when
/// the book holds every position they lead to (no search at all), else by
/// [`best_move_of_value`] when it holds the position itself, else by [`best_move`]. The same
/// answer as [`best_move`] whenever the book's values are right.
///
/// # Complexity
/// Within the book's depth, one canonical form per move (at most 240); one level deeper, the
/// search for the first move of the known value.
#[must_use]
pub fn best_move_with_book(position: &Position, book: &Book) -> Answer {
    let Some(hand) = position.hand else {
        return best_move(position);
    };
    let board = &position.board;
    if 16 - board.empty().len() < book.depth() {
        if let Some(answer) = from_children(book, board, hand) {
            return answer;
        }
    }
    match book.value(board, hand) {
        Some(v) => best_move_of_value(position, v),
        None => best_move(position),
    }
}

/// The first best move by the book's values of the positions the moves lead to, if it has them
/// all.
fn from_children(book: &Book, board: &Board, hand: Piece) -> Option<Answer> {
    let mut best: Option<(Move, Value)> = None;
    for mv in moves(board, hand) {
        let v = move_value(book, board, hand, mv)?;
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((mv, v));
            if v == Value::Win {
                break;
            }
        }
    }
    best.map(|(best, value)| Answer {
        best,
        value,
        nodes: 0,
        table_bytes: 0,
    })
}
