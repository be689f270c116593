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
        return Some(first_gifts());
    };
    if !progress(&[]) {
        return None;
    }
    let mut valuer = Valuer::new(position.board, hand, book);
    let order = moves(&position.board, hand);
    in_one_thread(&mut valuer, &order, None, progress)
}

/// The lines of the empty board: every gift is the image of 0000 under a complement that fixes
/// the board, and the game is a draw (see `root`).
fn first_gifts() -> Vec<MoveValue> {
    (0..16)
        .filter_map(Piece::new)
        .map(|p| MoveValue {
            mv: Move {
                place: None,
                give: Some(p),
            },
            outcome: Outcome::Draw,
        })
        .collect()
}

/// Values `order` (the position's moves) with `valuer`, one after another (from `planned`, the
/// moves' [`Valuer::at_once`] if known), showing `progress` the lines so far before each move
/// but the first; sorted by value.
fn in_one_thread(
    valuer: &mut Valuer,
    order: &[Move],
    planned: Option<&[Planned]>,
    mut progress: impl FnMut(&[MoveValue]) -> bool,
) -> Option<Vec<MoveValue>> {
    let mut lines = Vec::with_capacity(order.len());
    for (i, &mv) in order.iter().enumerate() {
        if !lines.is_empty() && !progress(&lines) {
            return None;
        }
        let outcome = match planned.map(|p| p[i]) {
            Some(Ok(o)) => o,
            Some(Err(rep)) => match valuer.known.get(&rep) {
                Some(&o) => o,
                None => valuer.searched(rep),
            },
            None => valuer.outcome(mv),
        };
        lines.push(MoveValue { mv, outcome });
    }
    lines.sort_by_key(|l| std::cmp::Reverse(l.outcome.value()));
    Some(lines)
}

/// As [`move_values_with_book`], on up to `threads` threads: the same lines in the same order
/// for any number of threads (the values and distances are exact, and the lines are put back in
/// move order before the sort).
///
/// Before any thread starts, every move is valued that needs no search: a placement that wins,
/// a gift that lets the opponent win at once, a move whose position the book holds with its
/// distance, a move symmetric to one of these. So a position whose moves all lead into the book
/// (up to 4 pieces placed with the built-in one) is answered at once, as on one thread. The
/// moves left are valued once per orbit of the position's symmetries, never twice: their
/// orbits' least moves, grouped by cell, go to the threads, each taking the next cell not yet
/// taken and valuing it with a table and a prover of its own, after the position's value, which
/// narrows every search, is found once (from the book, or by a search when a move needs a search
/// and the book does not hold the position). With a single cell to search no thread starts.
#[must_use]
pub fn move_values_threaded(position: &Position, book: &Book, threads: usize) -> Vec<MoveValue> {
    move_values_threaded_with_progress(position, book, threads, |_| true).expect("never stopped")
}

/// As [`move_values_threaded`], showing `progress` the lines valued so far (as
/// [`move_values_with_progress`], which it is on one thread: in move order, each final) and
/// giving up (`None`) as soon as it returns false. When threads search, the lines come whole
/// cells at a time, once every cell before them is valued too, and the threads stop between two
/// moves' searches once it has returned false; when none starts, one line at a time.
pub fn move_values_threaded_with_progress(
    position: &Position,
    book: &Book,
    threads: usize,
    mut progress: impl FnMut(&[MoveValue]) -> bool,
) -> Option<Vec<MoveValue>> {
    let Some(hand) = position.hand else {
        return move_values_with_progress(position, book, progress);
    };
    if threads <= 1 {
        return move_values_with_progress(position, book, progress);
    }
    if !progress(&[]) {
        return None;
    }
    let board = position.board;
    let order = moves(&board, hand);
    let mut valuer = Valuer::new(board, hand, book);
    let planned: Vec<Planned> = order.iter().map(|&mv| valuer.at_once(mv)).collect();
    let cells = searches_by_cell(&planned);
    let threads = threads.min(cells.len());
    if threads <= 1 {
        return in_one_thread(&mut valuer, &order, Some(&planned), progress);
    }
    if cells.iter().flatten().any(|&rep| valuer.needs_search(rep)) {
        valuer.position_value();
    }
    let value = valuer.value;
    let mut valuers = vec![valuer];
    valuers.extend((1..threads).map(|_| {
        let mut other = Valuer::new(board, hand, book);
        other.value = value;
        other
    }));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (done, searched) = mpsc::channel::<Vec<(Rep, Outcome)>>();
    let mut lines = std::thread::scope(|scope| {
        for mut valuer in valuers {
            let done = done.clone();
            let (next, stop, cells) = (&next, &stop, &cells);
            scope.spawn(move || loop {
                let Some(reps) = cells.get(next.fetch_add(1, Ordering::Relaxed)) else {
                    return;
                };
                let mut outcomes = Vec::with_capacity(reps.len());
                for &rep in reps {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    outcomes.push((rep, valuer.searched(rep)));
                }
                if done.send(outcomes).is_err() {
                    return;
                }
            });
        }
        drop(done);
        in_move_order(&order, &planned, searched, |so_far, complete| {
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

/// A move's orbit's least move, `(cell, gift)`: it stands for every move of the orbit.
type Rep = (Cell, Piece);

/// A move's outcome as known before any search, or the least move of its orbit, to search.
type Planned = Result<Outcome, Rep>;

/// The distinct moves to search among `planned`, grouped by cell, the cells in order.
fn searches_by_cell(planned: &[Planned]) -> Vec<Vec<Rep>> {
    let mut reps: Vec<Rep> = planned.iter().filter_map(|p| p.err()).collect();
    reps.sort_unstable();
    reps.dedup();
    let mut cells: Vec<Vec<Rep>> = Vec::new();
    for rep in reps {
        match cells.last_mut() {
            Some(cell) if cell[0].0 == rep.0 => cell.push(rep),
            _ => cells.push(vec![rep]),
        }
    }
    cells
}

/// Puts the lines of `order` together in move order as the searches' outcomes come in
/// (`planned` says which each move needs), showing `progress` each longer run of whole cells
/// from the first (and whether it is all of them); `None` as soon as it returns false, or if a
/// search never comes.
fn in_move_order(
    order: &[Move],
    planned: &[Planned],
    searched: mpsc::Receiver<Vec<(Rep, Outcome)>>,
    mut progress: impl FnMut(&[MoveValue], bool) -> bool,
) -> Option<Vec<MoveValue>> {
    let mut found: HashMap<Rep, Outcome> = HashMap::new();
    let mut lines: Vec<MoveValue> = Vec::with_capacity(order.len());
    let outcome = |i: usize, found: &HashMap<Rep, Outcome>| match planned[i] {
        Ok(o) => Some(o),
        Err(rep) => found.get(&rep).copied(),
    };
    // The first moves' lines may need no search at all.
    let mut pending = Some(Vec::new());
    while let Some(outcomes) = pending {
        found.extend(outcomes);
        let mut ready = lines.len();
        while ready < order.len() && outcome(ready, &found).is_some() {
            ready += 1;
        }
        // Whole cells only: back to the start of the cell the run stops in.
        while ready > lines.len()
            && ready < order.len()
            && order[ready - 1].place == order[ready].place
        {
            ready -= 1;
        }
        if ready > lines.len() {
            for (i, &mv) in order.iter().enumerate().take(ready).skip(lines.len()) {
                let outcome = outcome(i, &found).expect("every move before `ready` is valued");
                lines.push(MoveValue { mv, outcome });
            }
            if !progress(&lines, ready == order.len()) {
                return None;
            }
        }
        if lines.len() == order.len() {
            return Some(lines);
        }
        pending = searched.recv().ok();
    }
    None
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

    /// The outcome of `mv` for the mover.
    fn outcome(&mut self, mv: Move) -> Outcome {
        self.at_once(mv).unwrap_or_else(|rep| self.searched(rep))
    }

    /// The outcome of `mv` if it needs no search (by the rules, from the book, or as a move of
    /// its orbit already valued), else the least move of its orbit, which stands for the others
    /// (same value, same distance), to value with [`Valuer::searched`].
    fn at_once(&mut self, mv: Move) -> Planned {
        let Some(cell) = mv.place else {
            return Ok(Outcome::Draw);
        };
        let Some(gift) = mv.give else {
            return Ok(if self.board.wins_at(cell, self.hand) {
                Outcome::Win(1)
            } else {
                Outcome::Draw
            });
        };
        let rep = self
            .symmetries
            .iter()
            .map(|s| (s.cell(cell), s.piece(gift)))
            .fold((cell, gift), std::cmp::min);
        if let Some(&o) = self.known.get(&rep) {
            return Ok(o);
        }
        let after = self.board.place(rep.0, self.hand);
        let theirs = if after.threats().meets(rep.1.traits()) {
            Some(Outcome::Win(1))
        } else {
            self.book.entry(&after, rep.1).and_then(Entry::outcome)
        };
        let o = theirs.ok_or(rep)?.before();
        self.known.insert(rep, o);
        Ok(o)
    }

    /// The outcome for the mover of the move `rep` (an orbit's least move), searched, and kept
    /// for the other moves of its orbit.
    fn searched(&mut self, rep: Rep) -> Outcome {
        let o = self.child_outcome(rep.0, rep.1).before();
        self.known.insert(rep, o);
        o
    }

    /// Whether valuing the move `rep` takes a search of the position it leaves (the book does
    /// not hold that position), which needs the position's own value; else only a proof of a
    /// known value's distance.
    fn needs_search(&self, rep: Rep) -> bool {
        let after = self.board.place(rep.0, self.hand);
        self.book.entry(&after, rep.1).is_none()
    }

    /// The outcome for the opponent of receiving `gift` after `hand` is placed on `cell`, where
    /// [`Valuer::at_once`] does not have it: searched, or its distance proved.
    fn child_outcome(&mut self, cell: Cell, gift: Piece) -> Outcome {
        let after = self.board.place(cell, self.hand);
        let entry = self.book.entry(&after, gift);
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
