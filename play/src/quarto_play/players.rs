//! The computer players: random, easy, medium and perfect.

use std::fmt;
use std::str::FromStr;

use cp_puzzles::minesweeper::game::Rng;
use cp_puzzles::quarto::book::{move_value, moves};
use cp_puzzles::quarto::distance::{default_log2_slots, Prover};
use cp_puzzles::quarto::{
    best_move_with_book, move_values_threaded_with_progress, Board, Cell, Move, MoveValue, Outcome,
    Piece, Position, Value,
};

use super::book::Book;
use super::game::legal_moves;

/// Who plays a side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    /// A person, through stdin or the keyboard.
    Human,
    /// A uniformly random legal move.
    Random,
    /// Takes a win at once; never gives a piece that wins at once if another piece is safe.
    Easy,
    /// A search 3 moves deep (own move, reply, own move), ties broken at random.
    Medium,
    /// Perfect play: the solver, with the opening book.
    Perfect,
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        Ok(match s {
            "human" => Level::Human,
            "random" => Level::Random,
            "easy" => Level::Easy,
            "medium" => Level::Medium,
            "perfect" => Level::Perfect,
            _ => {
                return Err(format!(
                    "expected human, random, easy, medium or perfect, found \"{s}\""
                ))
            }
        })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Human => "human",
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Perfect => "perfect",
        })
    }
}

/// The move of a computer `level` (not [`Level::Human`]) in `position`, which has a move.
#[must_use]
pub fn choose(level: Level, position: &Position, book: &Book, rng: &mut Rng) -> Move {
    let moves = legal_moves(&position.board, position.hand);
    match level {
        Level::Random | Level::Human => pick(&moves, rng),
        Level::Easy => easy(position, &moves, rng),
        Level::Medium => medium(position, &moves, rng),
        Level::Perfect => perfect(position, book).0,
    }
}

fn pick(moves: &[Move], rng: &mut Rng) -> Move {
    moves[rng.below(moves.len() as u64) as usize]
}

/// Whether `mv` completes a line.
fn wins(board: &Board, hand: Option<Piece>, mv: Move) -> bool {
    match (mv.place, hand) {
        (Some(c), Some(h)) => board.wins_at(c, h),
        _ => false,
    }
}

/// Whether the opponent can win at once after `mv`.
fn hands_a_win(board: &Board, hand: Option<Piece>, mv: Move) -> bool {
    let after = match (mv.place, hand) {
        (Some(c), Some(h)) => board.place(c, h),
        _ => *board,
    };
    mv.give
        .is_some_and(|g| after.empty().into_iter().any(|c| after.wins_at(c, g)))
}

fn easy(position: &Position, moves: &[Move], rng: &mut Rng) -> Move {
    let (board, hand) = (&position.board, position.hand);
    if let Some(&win) = moves.iter().find(|&&m| wins(board, hand, m)) {
        return win;
    }
    let safe: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| !hands_a_win(board, hand, m))
        .collect();
    pick(if safe.is_empty() { moves } else { &safe }, rng)
}

/// The value of `board` with `hand` to place, looking `depth` moves ahead (0 past the horizon).
fn lookahead(board: &Board, hand: Piece, depth: u32) -> i8 {
    if board.empty().into_iter().any(|c| board.wins_at(c, hand)) {
        return 1;
    }
    if depth == 0 || board.empty().len() == 1 {
        return 0;
    }
    let mut best = -1;
    for m in legal_moves(board, Some(hand)) {
        let (Some(c), Some(g)) = (m.place, m.give) else {
            continue;
        };
        best = best.max(-lookahead(&board.place(c, hand), g, depth - 1));
        if best == 1 {
            break;
        }
    }
    best
}

fn medium(position: &Position, moves: &[Move], rng: &mut Rng) -> Move {
    let (board, hand) = (&position.board, position.hand);
    if let Some(&win) = moves.iter().find(|&&m| wins(board, hand, m)) {
        return win;
    }
    let Some(h) = hand else {
        return pick(moves, rng);
    };
    let scored: Vec<(i8, Move)> = moves
        .iter()
        .map(|&m| match (m.place, m.give) {
            (Some(c), Some(g)) => (-lookahead(&board.place(c, h), g, 2), m),
            _ => (0, m),
        })
        .collect();
    let top = scored.iter().map(|s| s.0).max().unwrap_or(0);
    let best: Vec<Move> = scored
        .into_iter()
        .filter(|s| s.0 == top)
        .map(|s| s.1)
        .collect();
    pick(&best, rng)
}

/// The perfect move in `position` and its value: the first optimal move in the solver's order,
/// so the same move `quarto` gives, answered from the book where it can
/// ([`best_move_with_book`]).
#[must_use]
pub fn perfect(position: &Position, book: &Book) -> (Move, Value) {
    let a = best_move_with_book(position, book);
    (a.best, a.value)
}

/// The hint: perfect's move and its outcome for the mover ("win in 3", "draw", …): the first
/// line of `quarto --values` ([`annotate`]), which is perfect's move by the library's contract.
///
/// Found without valuing every move: perfect's move ([`perfect`], from the book where it can),
/// then, if it decides the game, its distance by the library's proof search ([`Prover`]), as
/// `quarto --values` finds it. With 3 pieces placed this takes a fraction of a second where the
/// whole list takes many seconds. Should a value have no distance (a wrong book), the first line
/// of the whole list instead.
#[must_use]
pub fn hint(position: &Position, book: &Book) -> (Move, Outcome) {
    let (mv, value) = perfect(position, book);
    match outcome_of(position, mv, value) {
        Some(outcome) => (mv, outcome),
        None => {
            let first = annotate(position, book)[0];
            (first.mv, first.outcome)
        }
    }
}

/// The hint once the mover has chosen `cell` for the piece in hand: the best move that places
/// it there and its outcome for the mover, the first line of `quarto --values` among those that
/// place on `cell` (the first gift, in ascending order, of the best value; no gift when the
/// placement ends the game). `None` when `cell` is no placement of `position`: no piece in hand,
/// or the cell taken.
///
/// Each gift is valued from the book where it holds the position the move leaves (always, with
/// up to 4 pieces placed before the move), else by one search of that position; then the chosen
/// move's distance as [`hint`] finds it.
#[must_use]
pub fn hint_at(position: &Position, cell: Cell, book: &Book) -> Option<(Move, Outcome)> {
    let hand = position.hand?;
    let board = position.board;
    if board.get(cell).is_some() {
        return None;
    }
    let mut best: Option<(Move, Value)> = None;
    for mv in moves(&board, hand) {
        if mv.place != Some(cell) {
            continue;
        }
        let value = move_value(book, &board, hand, mv).unwrap_or_else(|| {
            // The book holds every move that ends the game: this one leaves a gift to place.
            let left = Position {
                board: board.place(cell, hand),
                hand: mv.give,
            };
            -best_move_with_book(&left, book).value
        });
        if best.is_none_or(|(_, b)| value > b) {
            best = Some((mv, value));
        }
    }
    let (mv, value) = best?;
    match outcome_of(position, mv, value) {
        Some(outcome) => Some((mv, outcome)),
        None => annotate(position, book)
            .into_iter()
            .find(|line| line.mv.place == Some(cell))
            .map(|line| (line.mv, line.outcome)),
    }
}

/// The outcome for the mover of `mv`, a move of `position` worth `value` to them, or `None` if
/// the proof search does not find the game decided that way.
fn outcome_of(position: &Position, mv: Move, value: Value) -> Option<Outcome> {
    let (Some(hand), Some(cell)) = (position.hand, mv.place) else {
        // The first gift: the empty board is a draw.
        return Some(Outcome::Draw);
    };
    let board = position.board;
    let Some(gift) = mv.give else {
        // The placement ends the game: a win or a full board.
        return Some(if board.wins_at(cell, hand) {
            Outcome::Win(1)
        } else {
            Outcome::Draw
        });
    };
    let after = board.place(cell, hand);
    let mut prover = Prover::new(default_log2_slots(after.empty().len()));
    let theirs = match value {
        Value::Draw => return Some(Outcome::Draw),
        Value::Win => Outcome::Loss(prover.loss_distance(after, gift)?),
        Value::Loss => Outcome::Win(prover.win_distance(after, gift)?),
    };
    Some(theirs.before())
}

/// Every legal move with its exact outcome for the mover, best first by value: the lines of
/// `quarto --values` ([`move_values_threaded_with_progress`] on one thread: from the book where
/// it holds the positions the moves lead to, else one search per move sharing one table; exact
/// distances).
#[must_use]
pub fn annotate(position: &Position, book: &Book) -> Vec<MoveValue> {
    annotate_with_progress(position, book, 1, |_| true).expect("never stopped")
}

/// As [`annotate`], on `threads` threads, showing `progress` the lines valued so far (in the
/// solver's move order, each final) and giving up (`None`) as soon as it returns false (see
/// [`move_values_threaded_with_progress`]).
pub fn annotate_with_progress(
    position: &Position,
    book: &Book,
    threads: usize,
    progress: impl FnMut(&[MoveValue]) -> bool,
) -> Option<Vec<MoveValue>> {
    move_values_threaded_with_progress(position, book, threads, progress)
}
