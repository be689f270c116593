//! An opening book: the game values of canonical positions, so that early positions are answered
//! without the long searches they need (see `docs/quarto.md`, "Opening book").
//!
//! Two file forms hold the same entries:
//! - text: one line per position, `OOOO PPPPPPPPPPPPPPPP V [N]`: the canonical form's occupancy
//!   (4 hex digits) and pieces (16 hex digits, see [`Canonical`]), then the value for the player
//!   to move, `w`, `d` or `l`, and for a win or a loss its distance N (1 to 8, the N of `win in
//!   N` / `loss in N`, see [`distance`](super::distance)) if the book has it. Blank lines and
//!   lines starting with `#` are skipped. The same position twice with different entries is an
//!   error.
//! - binary ([`Book::to_bytes`]): the 8 bytes [`MAGIC`], the number of entries (4 bytes, little
//!   endian), then the entries in canonical order, strictly ascending, each the occupancy (2
//!   bytes, little endian), the pieces of the occupied cells in cell order, two to a byte (low
//!   nibble first, a last odd one with a zero high nibble), and one byte: the value in the low
//!   2 bits (0 loss, 1 draw, 2 win), the distance above them (0 when the book does not have
//!   it): 5 bytes an entry up to 4 pieces placed. Books of the first binary version
//!   ([`MAGIC_V1`], values without distances) are read too.
//!
//! A book file is at most [`MAX_BOOK_BYTES`]; [`Book::read_file`] refuses a longer one after
//! reading that much.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;

use super::board::{Board, Piece};
#[cfg(not(bundle))]
use super::outcome::Outcome;
use super::parse::Position;
use super::root::{best_move, best_move_of_value, Answer, Move, Value};
use super::symmetry::{canonical, Canonical};

#[cfg(not(bundle))]
mod making;
#[cfg(not(bundle))]
pub use making::{entry_from_children, entry_line, value_letter};

/// The first bytes of a binary book.
pub const MAGIC: &[u8; 8] = b"QRTOBK02";

/// The first bytes of a binary book of the first version, whose entries have no distances.
pub const MAGIC_V1: &[u8; 8] = b"QRTOBK01";

/// The largest distance: a player places at most 8 pieces in a game.
pub const MAX_DISTANCE: u8 = 8;

/// The largest book file read: 8 MiB (the book of every position with up to 4 pieces placed,
/// the built-in one, takes 475,336 bytes in binary, about 2.3 MB in text).
pub const MAX_BOOK_BYTES: u64 = 8 << 20;

/// Game values of canonical positions (a piece in hand, no winning line on the board).
///
/// A book may also know a whole level by its exceptions ([`Book::with_draws_at`]): every
/// position with that many pieces placed that has no entry, and whose piece in hand does not
/// win at once, is a draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    values: BTreeMap<Canonical, Entry>,
    /// The most pieces placed in any entry (0 for an empty book), or the level of `draws_at`
    /// if deeper.
    depth: u32,
    /// The level known by its exceptions, if any.
    draws_at: Option<u32>,
}

/// What a book knows of a position: its value for the player to move and, for a win or a loss,
/// the distance if the book has it.
///
/// Invariant (kept by [`Entry::new`]): a draw has no distance; a distance is 1 to
/// [`MAX_DISTANCE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    value: Value,
    distance: Option<u8>,
}

impl Entry {
    /// The entry of `value` with `distance`, or `None` if they do not fit together (a draw with
    /// a distance, a distance of 0 or over [`MAX_DISTANCE`]).
    #[must_use]
    pub fn new(value: Value, distance: Option<u8>) -> Option<Entry> {
        let fits = match distance {
            None => true,
            Some(d) => value != Value::Draw && (1..=MAX_DISTANCE).contains(&d),
        };
        fits.then_some(Entry { value, distance })
    }

    /// The entry of a value alone (no distance).
    #[must_use]
    pub fn of_value(value: Value) -> Entry {
        Entry {
            value,
            distance: None,
        }
    }

    /// The value for the player to move.
    #[must_use]
    pub fn value(self) -> Value {
        self.value
    }

    /// The distance of a win or a loss, if known.
    #[must_use]
    pub fn distance(self) -> Option<u8> {
        self.distance
    }

    /// The outcome with its distance, if the entry has it all (a draw, or a decided value with
    /// its distance).
    #[cfg(not(bundle))]
    #[must_use]
    pub fn outcome(self) -> Option<Outcome> {
        match (self.value, self.distance) {
            (Value::Draw, _) => Some(Outcome::Draw),
            (Value::Win, Some(d)) => Some(Outcome::Win(u32::from(d))),
            (Value::Loss, Some(d)) => Some(Outcome::Loss(u32::from(d))),
            (_, None) => None,
        }
    }

    /// The entry, for the mover, of the move that leaves the opponent the position of `self`
    /// (as [`Outcome::before`]). A loss in N becomes a win in N + 1, still within
    /// [`MAX_DISTANCE`]: a position with E empty cells loses in at most E / 2, and the one before
    /// it has E + 1.
    #[must_use]
    pub fn before(self) -> Entry {
        match (self.value, self.distance) {
            (Value::Loss, Some(d)) => Entry {
                value: Value::Win,
                distance: Some(d + 1),
            },
            (v, d) => Entry {
                value: -v,
                distance: d,
            },
        }
    }
}

/// Why a book was refused.
#[derive(Debug)]
pub enum BookError {
    /// A line of a text book that is not an entry (1-based).
    BadLine { line: usize },
    /// A line of a text book giving a position another value than an earlier line did.
    Conflict { line: usize, first: usize },
    /// A binary book that is cut short, out of order or not canonical at this byte offset.
    BadBytes { offset: usize, what: &'static str },
    /// A file over [`MAX_BOOK_BYTES`].
    TooLarge,
    /// A file that is neither a binary book nor text.
    NotText,
    /// A file that cannot be read.
    Read(std::io::Error),
    /// A path that is not a regular file: `found` says what it is (see [`regular_file`]).
    NotAFile { found: &'static str },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::BadLine { line } => write!(
                f,
                "book line {line}: expected \"OOOO PPPPPPPPPPPPPPPP w|d|l [N]\" (hex occupancy, hex pieces, value, distance 1-8)"
            ),
            BookError::Conflict { line, first } => write!(
                f,
                "book line {line}: the position of line {first} again, with another value or distance"
            ),
            BookError::BadBytes { offset, what } => {
                write!(f, "binary book, byte {offset}: {what}")
            }
            BookError::TooLarge => write!(f, "larger than a book can be ({MAX_BOOK_BYTES} bytes)"),
            BookError::NotText => f.write_str("neither a binary book nor UTF-8 text"),
            BookError::Read(e) => write!(f, "cannot read it: {e}"),
            BookError::NotAFile { found } => write!(f, "expected a regular file, found {found}"),
        }
    }
}

impl std::error::Error for BookError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BookError::Read(e) => Some(e),
            _ => None,
        }
    }
}

/// The opening book built into the binaries: every canonical position with 1 to 4 pieces
/// placed, in the binary form (made by `quarto-book --depth 4`; see `docs/quarto.md`). Left
/// out of the bundle for online judges.
#[cfg(not(bundle))]
pub const EMBEDDED: &[u8] = include_bytes!("book.bin");

/// The most pieces placed in a position of the built-in book (a test checks it against
/// [`EMBEDDED`]).
pub const EMBEDDED_DEPTH: u32 = 4;

/// The built-in level with 5 pieces placed, known by its exceptions: its wins and losses but the
/// wins in 1, in the binary form (made by `quarto-book --depth 5 --non-draws`; see
/// `docs/quarto.md`). Every other position of the level is a draw, or a win in 1 when its piece
/// in hand completes a line ([`Book::with_draws_at`]). Left out of the bundle for online judges.
#[cfg(not(bundle))]
pub const EMBEDDED_LEVEL5: &[u8] = include_bytes!("level5.bin");

/// The level of [`EMBEDDED_LEVEL5`].
pub const EMBEDDED_LEVEL: u32 = 5;

impl Book {
    /// The book built into the binaries: every position of [`EMBEDDED`] (1 to 4 pieces placed),
    /// and the level with 5 placed known by its exceptions ([`EMBEDDED_LEVEL5`]); a few
    /// milliseconds to decode.
    ///
    /// # Panics
    /// If the embedded bytes are not books (a test checks that they are).
    #[cfg(not(bundle))]
    #[must_use]
    pub fn embedded() -> Book {
        // Trusted bytes: a test checks that they pass every check of `from_bytes`, so the
        // canonical forms (most of the decoding time) are not computed again at each start.
        let mut entries =
            Book::entries_of(EMBEDDED, false).expect("the embedded book is well formed");
        let level =
            Book::entries_of(EMBEDDED_LEVEL5, false).expect("the embedded level is well formed");
        // Two ascending runs, with no position in both (they hold different numbers of pieces
        // placed).
        entries.extend(level);
        Book::from_runs(entries).with_draws_at(EMBEDDED_LEVEL)
    }

    /// The built-in book ([`Book::embedded`]) if `position` can be in it or lead to a position
    /// in it (at most [`EMBEDDED_DEPTH`] pieces placed), else an empty book: a position with
    /// more pieces placed, and every position after it, has none, and the larger books take
    /// milliseconds to decode. The same answers as [`Book::embedded`] for that position.
    #[cfg(not(bundle))]
    #[must_use]
    pub fn embedded_for(position: &Position) -> Book {
        if position.board.occupied().len() <= EMBEDDED_DEPTH {
            Book::embedded()
        } else {
            Book::default()
        }
    }

    /// The book in `text` (the text form above).
    ///
    /// # Errors
    /// The first line that is not an entry, or that gives an earlier position another entry.
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut book = Book::default();
        // The line of each entry, to name it in a conflict.
        let mut lines: BTreeMap<Canonical, usize> = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (c, v) = parse_line(line).ok_or(BookError::BadLine { line: i + 1 })?;
            match book.values.get(&c) {
                Some(&old) if old != v => {
                    return Err(BookError::Conflict {
                        line: i + 1,
                        first: lines[&c],
                    })
                }
                Some(_) => {}
                None => {
                    lines.insert(c, i + 1);
                    book.insert(c, v);
                }
            }
        }
        Ok(book)
    }

    /// The book in `bytes`: the binary form if they start with [`MAGIC`] or [`MAGIC_V1`], else
    /// the text form.
    ///
    /// # Errors
    /// As [`Book::parse`] or [`Book::from_bytes`]; [`BookError::NotText`] if the bytes are
    /// neither.
    pub fn read(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.starts_with(MAGIC) || bytes.starts_with(MAGIC_V1) {
            return Book::from_bytes(bytes);
        }
        Book::parse(std::str::from_utf8(bytes).map_err(|_| BookError::NotText)?)
    }

    /// The book in the file at `path` (either form), a regular file at most [`MAX_BOOK_BYTES`]
    /// long.
    ///
    /// # Errors
    /// [`BookError::NotAFile`] for a path that is no regular file (a folder, a device such as
    /// `/dev/null` or `/dev/zero`, a named pipe, which would block), before it is opened;
    /// [`BookError::Read`]; [`BookError::TooLarge`] (after reading [`MAX_BOOK_BYTES`] bytes, so a
    /// file that grows while it is read is refused too); or as [`Book::read`].
    pub fn read_file(path: &std::path::Path) -> Result<Book, BookError> {
        let mut bytes = Vec::new();
        let file = regular_file(path)?;
        file.take(MAX_BOOK_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(BookError::Read)?;
        if bytes.len() as u64 > MAX_BOOK_BYTES {
            return Err(BookError::TooLarge);
        }
        Book::read(&bytes)
    }

    /// The book in the binary form (see the module).
    ///
    /// # Errors
    /// [`BookError::BadBytes`] at the first byte that does not fit: a wrong magic or count, an
    /// entry cut short, a value byte that is not an entry (or has a distance in a first-version
    /// book), an entry that is not a canonical form or not after the one before, bytes after the
    /// last entry.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        Book::decode(bytes, true)
    }

    /// As [`Book::from_bytes`]; with `check_canonical` false, an entry's position is not checked
    /// to be a canonical form (for bytes known to pass that check).
    fn decode(bytes: &[u8], check_canonical: bool) -> Result<Book, BookError> {
        Book::entries_of(bytes, check_canonical).map(Book::from_runs)
    }

    /// The entries of the binary book `bytes`, strictly ascending (as [`Book::decode`]).
    fn entries_of(
        bytes: &[u8],
        check_canonical: bool,
    ) -> Result<Vec<(Canonical, Entry)>, BookError> {
        let bad = |offset, what| BookError::BadBytes { offset, what };
        let with_distances = bytes.starts_with(MAGIC);
        if !with_distances && !bytes.starts_with(MAGIC_V1) {
            return Err(bad(0, "expected the magic bytes QRTOBK02 (or QRTOBK01)"));
        }
        let count = bytes
            .get(8..12)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or(bad(8, "expected the number of entries"))?;
        // Grown as entries are read, never from the count the bytes claim.
        let mut entries: Vec<(Canonical, Entry)> = Vec::new();
        let mut at = 12;
        for _ in 0..count {
            let (c, v, next) = entry_at(bytes, at, check_canonical, with_distances)
                .ok_or(bad(at, "expected an entry"))?;
            if entries.last().is_some_and(|&(l, _)| l >= c) {
                return Err(bad(at, "an entry out of order or repeated"));
            }
            entries.push((c, v));
            at = next;
        }
        if at != bytes.len() {
            return Err(bad(at, "bytes after the last entry"));
        }
        Ok(entries)
    }

    /// The book of `entries`, no position twice, in a few ascending runs: the map is built from
    /// them at once (its stable sort merges the runs in linear time), where inserting them one by
    /// one would walk the tree for each.
    fn from_runs(entries: Vec<(Canonical, Entry)>) -> Book {
        let depth = entries
            .iter()
            .map(|(c, _)| c.occupied.count_ones())
            .max()
            .unwrap_or(0);
        Book {
            values: entries.into_iter().collect(),
            depth,
            draws_at: None,
        }
    }

    /// The value of `board` with `hand` to place, if the book has it.
    #[must_use]
    pub fn value(&self, board: &Board, hand: Piece) -> Option<Value> {
        self.entry(board, hand).map(Entry::value)
    }

    /// The entry of `board` with `hand` to place, if the book has it. On the level known by its
    /// exceptions ([`Book::with_draws_at`]), a position without an entry is a win in 1 if `hand`
    /// completes a line, else a draw.
    #[must_use]
    pub fn entry(&self, board: &Board, hand: Piece) -> Option<Entry> {
        let found = self.values.get(&canonical(board, hand)).copied();
        match (found, self.draws_at) {
            (None, Some(level)) if board.occupied().len() == level => {
                Some(if board.threats().meets(hand.traits()) {
                    Entry {
                        value: Value::Win,
                        distance: Some(1),
                    }
                } else {
                    Entry::of_value(Value::Draw)
                })
            }
            _ => found,
        }
    }

    /// This book, knowing the whole level with `placed` pieces placed by its exceptions: every
    /// position of that level without an entry is a draw, or a win in 1 when its piece in hand
    /// completes a line. For a book whose entries at that level are every other position of the
    /// level (its wins and losses but those in 1), as `quarto-book --non-draws` writes them.
    #[cfg(not(bundle))]
    #[must_use]
    pub fn with_draws_at(mut self, placed: u32) -> Book {
        self.draws_at = Some(placed);
        self.depth = self.depth.max(placed);
        self
    }

    /// The level known by its exceptions, if any ([`Book::with_draws_at`]).
    #[cfg(not(bundle))]
    #[must_use]
    pub fn draws_at(&self) -> Option<u32> {
        self.draws_at
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

    /// Adds a position's entry.
    pub fn insert(&mut self, position: Canonical, entry: Entry) {
        self.depth = self.depth.max(position.occupied.count_ones());
        self.values.insert(position, entry);
    }
}

/// The entry of a text line `OOOO PPPPPPPPPPPPPPPP w|d|l [N]` (exactly 4 and 16 hex digits, an
/// optional distance of one digit 1 to 8 after `w` or `l`, fields separated by whitespace), not
/// checked to be a canonical position.
#[must_use]
pub fn parse_entry_line(line: &str) -> Option<(Canonical, Entry)> {
    let mut t = line.split_ascii_whitespace();
    let (o, p, v, n) = (t.next()?, t.next()?, t.next()?, t.next());
    let hex = |s: &str| s.bytes().all(|b| b.is_ascii_hexdigit());
    if t.next().is_some() || o.len() != 4 || p.len() != 16 || !hex(o) || !hex(p) {
        return None;
    }
    let distance = match n {
        None => None,
        Some(n) if n.len() == 1 && n.as_bytes()[0].is_ascii_digit() => Some(n.as_bytes()[0] - b'0'),
        Some(_) => return None,
    };
    let occupied = u16::from_str_radix(o, 16).ok()?;
    let pieces = u64::from_str_radix(p, 16).ok()?;
    let value = match v {
        "w" => Value::Win,
        "d" => Value::Draw,
        "l" => Value::Loss,
        _ => return None,
    };
    Some((Canonical { occupied, pieces }, Entry::new(value, distance)?))
}

/// The entry of a text line, if it is one and its position is a canonical form.
fn parse_line(line: &str) -> Option<(Canonical, Entry)> {
    let (c, v) = parse_entry_line(line)?;
    Some((checked_canonical(c.occupied, c.pieces)?, v))
}

/// The entry of a binary book at byte `at` (with distances or not): the position, its entry and
/// the next entry's offset.
fn entry_at(
    bytes: &[u8],
    at: usize,
    check_canonical: bool,
    with_distances: bool,
) -> Option<(Canonical, Entry, usize)> {
    let occupied = u16::from_le_bytes([*bytes.get(at)?, *bytes.get(at + 1)?]);
    let placed = occupied.count_ones() as usize;
    let packed = bytes.get(at + 2..at + 2 + placed.div_ceil(2))?;
    if placed % 2 == 1 && packed[placed / 2] >> 4 != 0 {
        return None;
    }
    let mut pieces = 0u64;
    let (mut rest, mut k) = (occupied, 0);
    while rest != 0 {
        // The k-th occupied cell, in cell order.
        let cell = rest.trailing_zeros();
        let nibble = packed[k / 2] >> (4 * (k % 2)) & 15;
        pieces |= u64::from(nibble) << (4 * cell);
        rest &= rest - 1;
        k += 1;
    }
    let next = at + 2 + placed.div_ceil(2);
    let byte = *bytes.get(next)?;
    let value = match byte & 3 {
        0 => Value::Loss,
        1 => Value::Draw,
        2 => Value::Win,
        _ => return None,
    };
    let distance = match byte >> 2 {
        0 => None,
        _ if !with_distances => return None,
        d => Some(d),
    };
    let entry = Entry::new(value, distance)?;
    let position = if check_canonical {
        checked_canonical(occupied, pieces)?
    } else {
        Canonical { occupied, pieces }
    };
    Some((position, entry, next + 1))
}

/// The position `(occupied, pieces)` if it is a canonical form (0000 in hand, so not on the
/// board) with a piece placed, an empty cell and no winning line: only such forms are ever looked
/// up, anything else is a corrupt entry.
fn checked_canonical(occupied: u16, pieces: u64) -> Option<Canonical> {
    let board = Board::from_raw(pieces, occupied)?;
    let hand = Piece::new(0)?;
    let c = Canonical { occupied, pieces };
    let playable = occupied != 0 && !board.empty().is_empty() && !board.used().contains(hand);
    (playable && !board.has_winning_line() && canonical(&board, hand) == c).then_some(c)
}

/// The value, for the mover, of placing `hand` on `cell` of `board` and giving `gift` (`None`
/// when the placement ends the game): a win or a draw if the game ends, else the negated book
/// value of the position left, if the book has it.
#[must_use]
pub fn move_value(book: &Book, board: &Board, hand: Piece, mv: Move) -> Option<Value> {
    move_entry(book, board, hand, mv).map(Entry::value)
}

/// As [`move_value`], with the distance: `win in 1` if the placement wins, a draw if it fills
/// the board, else the book's entry of the position left, seen from the mover
/// ([`Entry::before`]).
fn move_entry(book: &Book, board: &Board, hand: Piece, mv: Move) -> Option<Entry> {
    let cell = mv.place?;
    let after = board.place(cell, hand);
    if after.has_winning_line() {
        return Entry::new(Value::Win, Some(1));
    }
    match mv.give {
        None => Some(Entry::of_value(Value::Draw)),
        Some(gift) => book.entry(&after, gift).map(Entry::before),
    }
}

/// The regular file at `path`, opened for reading: its kind is checked before it is opened (a
/// named pipe would block the opening) and again on the open file (the path may have changed in
/// between).
///
/// # Errors
/// [`BookError::Read`] if it cannot be opened or examined; [`BookError::NotAFile`] if it is a
/// folder or anything else that is not a regular file.
pub fn regular_file(path: &std::path::Path) -> Result<std::fs::File, BookError> {
    let check = |meta: std::fs::Metadata| match not_a_regular_file(&meta) {
        None => Ok(()),
        Some(found) => Err(BookError::NotAFile { found }),
    };
    check(std::fs::metadata(path).map_err(BookError::Read)?)?;
    let file = std::fs::File::open(path).map_err(BookError::Read)?;
    check(file.metadata().map_err(BookError::Read)?)?;
    Ok(file)
}

/// What the file of `meta` is, if it is not a regular file: `a folder`, `a character device`
/// (`/dev/null`, `/dev/zero`), `a named pipe`, ...; `None` for a regular file.
#[must_use]
pub fn not_a_regular_file(meta: &std::fs::Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        for (is, found) in [
            (t.is_char_device(), "a character device"),
            (t.is_block_device(), "a block device"),
            (t.is_fifo(), "a named pipe"),
            (t.is_socket(), "a socket"),
        ] {
            if is {
                return Some(found);
            }
        }
    }
    Some("something other than a regular file")
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
