//! Every legal move of a position with its exact outcome for the mover: `win in N`, `draw` or
//! `loss in N` (N as in [`distance`](super::distance)).
//!
//! The moves are listed best first by value (win, draw, loss), ties in the solver's order (cell
//! row-major, then given piece ascending), so the first line is the move `quarto` prints. Within
//! one value the distance does not reorder them.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use super::board::{Board, Cell, Piece};
use super::book::{moves, Book, Entry};
use super::distance::{default_log2_slots, Prover};
use super::outcome::Outcome;
use super::parse::Position;
use super::root::{Move, Value};
use super::search::{default_log2_buckets, Config, Searcher};
use super::symmetry::stabilizer;

/// One line of `quarto --values`: a move and its outcome for the mover.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveValue {
    pub mv: Move,
    pub outcome: Outcome,
}

/// `<move>: <outcome>`, e.g. `place 1 2 give 0110: win in 3`.
impl fmt::Display for MoveValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.mv, self.outcome)
    }
}

/// Every legal move of `position` with its outcome, best first (see the module's order), by
/// search alone.
#[must_use]
pub fn move_values(position: &Position) -> Vec<MoveValue> {
    move_values_with_book(position, &Book::default())
}

/// As [`move_values`], taking the values of the positions the moves lead to from `book` where it
/// has them, and their distances where it has those too (else they are searched). The same
/// answer whenever the book's entries are right.
///
/// For `quarto-play`'s values panel: `move_values_with_book(&position, &Book::embedded())`
/// (decode the book once and keep it), or [`move_values_until`] to stop early.
#[must_use]
pub fn move_values_with_book(position: &Position, book: &Book) -> Vec<MoveValue> {
    move_values_until(position, book, || false).expect("never stopped")
}

/// As [`move_values_with_book`], asking `stop` before each move is valued and giving up (`None`)
/// as soon as it says so: for a caller whose position may change while the values are computed.
/// One move's search is not interrupted, so `None` comes at most one move's search late.
pub fn move_values_until(
    position: &Position,
    book: &Book,
    mut stop: impl FnMut() -> bool,
) -> Option<Vec<MoveValue>> {
    move_values_with_progress(position, book, |_| !stop())
}

/// As [`move_values_until`], showing `progress` the lines valued so far before each move is
/// valued (in the solver's move order: cell row-major, then gift; not yet sorted by value) and
/// giving up (`None`) as soon as it returns false. A line, once shown, is final: the moves of a
/// cell are valued one after another, so a cell's moves are all in once a later cell's first
/// line is. For a screen that fills in the values as they come.
pub fn move_values_with_progress(
    position: &Position,
    book: &Book,
    mut progress: impl FnMut(&[MoveValue]) -> bool,
) -> Option<Vec<MoveValue>> {
    let Some(hand) = position.hand else {
        // The empty board: every gift is the image of 0000 under a complement that fixes the
        // board, and the game is a draw (see `root`).
        return Some(
            (0..16)
                .filter_map(Piece::new)
                .map(|p| MoveValue {
                    mv: Move {
                        place: None,
                        give: Some(p),
                    },
                    outcome: Outcome::Draw,
                })
                .collect(),
        );
    };
    if !progress(&[]) {
        return None;
    }
    let mut valuer = Valuer::new(position.board, hand, book);
    let mut lines = Vec::new();
    for mv in moves(&position.board, hand) {
        if !lines.is_empty() && !progress(&lines) {
            return None;
        }
        lines.push(MoveValue {
            mv,
            outcome: valuer.outcome(mv),
        });
    }
    lines.sort_by_key(|l| std::cmp::Reverse(l.outcome.value()));
    Some(lines)
}

/// As [`move_values_with_book`], on `threads` threads (at least 1): each takes the next cell not
/// yet taken and values its moves with a table and a prover of its own. The same lines in the
/// same order for any number of threads (the values and distances are exact, and the lines are
/// put back in move order before the sort); sooner on several cores, for somewhat more CPU in
/// all (the threads do not share their tables, and a move whose symmetric image another thread
/// valued is valued again).
#[must_use]
pub fn move_values_threaded(position: &Position, book: &Book, threads: usize) -> Vec<MoveValue> {
    move_values_threaded_with_progress(position, book, threads, |_| true).expect("never stopped")
}

/// As [`move_values_threaded`], showing `progress` the lines valued so far (as
/// [`move_values_with_progress`], which it is on one thread: in move order, each final) and
/// giving up (`None`) as soon as it returns false. On several threads the lines come a whole
/// cell at a time, once every cell before it is valued too; the threads stop between two moves'
/// searches once it has returned false.
pub fn move_values_threaded_with_progress(
    position: &Position,
    book: &Book,
    threads: usize,
    mut progress: impl FnMut(&[MoveValue]) -> bool,
) -> Option<Vec<MoveValue>> {
    let Some(hand) = position.hand else {
        return move_values_with_progress(position, book, progress);
    };
    let board = position.board;
    let by_cell = moves_by_cell(&board, hand);
    let threads = threads.clamp(1, by_cell.len().max(1));
    if threads == 1 {
        return move_values_with_progress(position, book, progress);
    }
    if !progress(&[]) {
        return None;
    }
    // The position's value narrows every move's search: found once, before the threads start.
    let mut valuers: Vec<Valuer> = (0..threads)
        .map(|_| Valuer::new(board, hand, book))
        .collect();
    let value = valuers[0].position_value();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (done, cells) = mpsc::channel::<(usize, Vec<MoveValue>)>();
    let mut lines = std::thread::scope(|scope| {
        for mut valuer in valuers {
            valuer.value = Some(value);
            let done = done.clone();
            let (next, stop, by_cell) = (&next, &stop, &by_cell);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(group) = by_cell.get(i) else {
                    return;
                };
                let mut lines = Vec::with_capacity(group.len());
                for &mv in group {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let outcome = valuer.outcome(mv);
                    lines.push(MoveValue { mv, outcome });
                }
                if done.send((i, lines)).is_err() {
                    return;
                }
            });
        }
        drop(done);
        in_move_order(by_cell.len(), cells, |so_far, complete| {
            let go_on = complete || progress(so_far);
            if !go_on {
                stop.store(true, Ordering::Relaxed);
            }
            go_on
        })
    })?;
    lines.sort_by_key(|l| std::cmp::Reverse(l.outcome.value()));
    Some(lines)
}

/// The moves of `board` with `hand` to place, in the solver's order, one list per cell.
fn moves_by_cell(board: &Board, hand: Piece) -> Vec<Vec<Move>> {
    let mut by_cell: Vec<Vec<Move>> = Vec::new();
    for mv in moves(board, hand) {
        match by_cell.last_mut() {
            Some(group) if group[0].place == mv.place => group.push(mv),
            _ => by_cell.push(vec![mv]),
        }
    }
    by_cell
}

/// Puts the cells' lines (received as `(i, lines)` for the i-th of `count` cells, in any order)
/// back in order, showing `progress` each longer run of whole cells from the first (and whether
/// it is all of them); `None` as soon as it returns false, or if a cell never comes.
fn in_move_order(
    count: usize,
    cells: mpsc::Receiver<(usize, Vec<MoveValue>)>,
    mut progress: impl FnMut(&[MoveValue], bool) -> bool,
) -> Option<Vec<MoveValue>> {
    let mut waiting: Vec<Option<Vec<MoveValue>>> = vec![None; count];
    let (mut lines, mut shown) = (Vec::new(), 0);
    for (i, cell_lines) in cells {
        waiting[i] = Some(cell_lines);
        let before = shown;
        while let Some(next) = waiting.get_mut(shown).and_then(Option::take) {
            lines.extend(next);
            shown += 1;
        }
        if shown > before && !progress(&lines, shown == count) {
            return None;
        }
    }
    (shown == count).then_some(lines)
}

/// The table size of a [`Valuer`] for a position with `empty` empty cells. Its many searches
/// share the table, so from 11 empty cells it is larger than one search's
/// ([`default_log2_buckets`]): 2^14 buckets up to 14 empty cells. Measured against 2^12 at 4
/// placed: 2^14 took 3% less CPU, 2^10 2% more, 2^16 9-11% more, 2^18 21-23% more; with 10 or
/// fewer empty cells 2^14 was 3-5% slower than the default.
fn values_log2_buckets(empty: u32) -> u32 {
    match empty {
        11..=14 => 14,
        _ => default_log2_buckets(empty),
    }
}

/// Values the moves of one position, sharing a search table and a prover between them, and
/// valuing one move per orbit of the position's stabilizer.
struct Valuer<'a> {
    board: Board,
    hand: Piece,
    book: &'a Book,
    searcher: Searcher,
    /// The position's own value (from the book, or searched when a move first needs a search):
    /// every move is worth at most this, which narrows the searches of the moves.
    value: Option<Value>,
    prover: Prover,
    symmetries: Vec<super::symmetry::Symmetry>,
    known: HashMap<(Cell, Piece), Outcome>,
}

impl<'a> Valuer<'a> {
    /// The value for the opponent of `after` with `gift` to place (no immediate win), searched
    /// with the narrowest window the position's value allows: the mover's move is worth at most
    /// the position, so the opponent gets at least its negation. In a lost position every move
    /// loses; in a drawn one a null window tells a draw from a loss.
    fn search(&mut self, after: Board, gift: Piece) -> Value {
        match self.position_value() {
            Value::Loss => Value::Win,
            Value::Draw => {
                if self.searcher.value(after, gift, 0, 1) >= 1 {
                    Value::Win
                } else {
                    Value::Draw
                }
            }
            Value::Win => Value::from_score(self.searcher.value(after, gift, -1, 1)),
        }
    }

    /// The position's own value: the book's, else searched the first time it is needed.
    fn position_value(&mut self) -> Value {
        match self.value {
            Some(v) => v,
            None => {
                let v = Value::from_score(self.searcher.value(self.board, self.hand, -1, 1));
                self.value = Some(v);
                v
            }
        }
    }

    fn new(board: Board, hand: Piece, book: &'a Book) -> Valuer<'a> {
        let empty = board.empty().len();
        Valuer {
            board,
            hand,
            book,
            searcher: Searcher::new(Config::default(), values_log2_buckets(empty)),
            value: book.value(&board, hand),
            prover: Prover::new(default_log2_slots(empty)),
            symmetries: stabilizer(&board, hand),
            known: HashMap::new(),
        }
    }

    fn outcome(&mut self, mv: Move) -> Outcome {
        let Some(cell) = mv.place else {
            return Outcome::Draw;
        };
        let Some(gift) = mv.give else {
            return if self.board.wins_at(cell, self.hand) {
                Outcome::Win(1)
            } else {
                Outcome::Draw
            };
        };
        // The least move of the orbit stands for the others (same value, same distance).
        let rep = self
            .symmetries
            .iter()
            .map(|s| (s.cell(cell), s.piece(gift)))
            .fold((cell, gift), std::cmp::min);
        if let Some(&o) = self.known.get(&rep) {
            return o;
        }
        let o = self.child_outcome(rep.0, rep.1).before();
        self.known.insert(rep, o);
        o
    }

    /// The outcome for the opponent of receiving `gift` after `hand` is placed on `cell`.
    fn child_outcome(&mut self, cell: Cell, gift: Piece) -> Outcome {
        let after = self.board.place(cell, self.hand);
        if after.threats().meets(gift.traits()) {
            return Outcome::Win(1);
        }
        let entry = self.book.entry(&after, gift);
        if let Some(outcome) = entry.and_then(Entry::outcome) {
            return outcome;
        }
        let value = entry.map_or_else(|| self.search(after, gift), Entry::value);
        self.prover.outcome(after, gift, value).unwrap_or_else(|| {
            // Only a wrong book value has no distance: the search's own value instead.
            let searched = Value::from_score(self.searcher.value(after, gift, -1, 1));
            self.prover
                .outcome(after, gift, searched)
                .expect("a searched value has its distance")
        })
    }
}
