//! `quarto`: the move a perfect player makes in any Quarto position, and its value.
//!
//! Input: 4 lines of 4 cells (`.` or a piece as 4 binary digits, most significant first), then the
//! piece in hand (4 binary digits, or `-` on the empty board). Output: the move (`place R C give
//! PPPP`, `place R C` when the placement ends the game, `give PPPP` at the start) and the value for
//! the player to move (`win`, `draw` or `loss`), each on its own line. Ties go to the first optimal
//! move in the order cell (row-major), then given piece (ascending); see [`root`].
//!
//! Standard library only, and nothing from the other puzzles.

pub mod board;
pub mod book;
#[cfg(not(bundle))]
pub mod distance;
mod error;
#[cfg(not(bundle))]
mod outcome;
mod parse;
pub mod root;
pub mod search;
pub mod symmetry;
mod table;
#[cfg(not(bundle))]
pub mod values;

use std::io::{Read, Write};

pub use board::{Board, Cell, Piece, Pieces};
pub use book::{best_move_with_book, Book};
pub use error::Error;
#[cfg(not(bundle))]
pub use outcome::Outcome;
pub use parse::{parse, Position, MAX_INPUT};
pub use root::{best_move, best_move_of_value, best_move_with, Answer, Move, Value};
#[cfg(not(bundle))]
pub use values::{
    move_values, move_values_threaded, move_values_threaded_with_progress, move_values_until,
    move_values_with_book, move_values_with_progress, MoveValue,
};

/// The best move in a parsed position and its value (see [`best_move`]); its `Display` is the
/// solver's output, `<move>\n<value>\n`.
///
/// # Errors
/// None: [`parse`] rejects every position without a move. The `Result` is the crate's contract.
pub fn solve(position: &Position) -> Result<Answer, Error> {
    Ok(best_move(position))
}

/// Reads a position from `input` and writes `<move>\n<value>\n` to `output`, then flushes it.
///
/// # Errors
/// As [`parse`], or [`Error::Write`].
pub fn run<R: Read, W: Write>(input: R, output: W) -> Result<(), Error> {
    write_answer(&solve(&parse(input)?)?, output)
}

/// Reads a position from `input` and writes every legal move with its outcome, one
/// `<move>: <outcome>` line each, best first ([`move_values_with_book`]), then flushes. Not in
/// the bundle for online judges, which ask for the best move alone.
///
/// # Errors
/// As [`run`].
#[cfg(not(bundle))]
pub fn run_values<R: Read, W: Write>(input: R, output: W, book: &Book) -> Result<(), Error> {
    write_values(&parse(input)?, output, book)
}

/// As [`run`], answered from the book that `book` gives for the position once it is read
/// ([`best_move_with_book`]: the same answer, sooner): a large book need only be decoded for a
/// position it can help (see [`Book::embedded_for`]).
///
/// # Errors
/// As [`run`].
pub fn run_with_book_for<R: Read, W: Write>(
    input: R,
    output: W,
    book: impl FnOnce(&Position) -> Book,
) -> Result<(), Error> {
    let position = parse(input)?;
    write_answer(&best_move_with_book(&position, &book(&position)), output)
}

/// As [`run_values`], with the book that `book` gives for the position once it is read (as
/// [`run_with_book_for`]), on `threads` threads ([`move_values_threaded`]: the same lines).
///
/// # Errors
/// As [`run`].
#[cfg(not(bundle))]
pub fn run_values_with_book_for<R: Read, W: Write>(
    input: R,
    output: W,
    threads: usize,
    book: impl FnOnce(&Position) -> Book,
) -> Result<(), Error> {
    let position = parse(input)?;
    let lines = move_values_threaded(&position, &book(&position), threads);
    write_lines(&lines, output)
}

#[cfg(not(bundle))]
fn write_values<W: Write>(position: &Position, output: W, book: &Book) -> Result<(), Error> {
    write_lines(&move_values_with_book(position, book), output)
}

#[cfg(not(bundle))]
fn write_lines<W: Write>(lines: &[MoveValue], mut output: W) -> Result<(), Error> {
    let mut text = String::new();
    for line in lines {
        text += &format!("{line}\n");
    }
    output
        .write_all(text.as_bytes())
        .and_then(|()| output.flush())
        .map_err(Error::Write)
}

fn write_answer<W: Write>(answer: &Answer, mut output: W) -> Result<(), Error> {
    write!(output, "{answer}")
        .and_then(|()| output.flush())
        .map_err(Error::Write)
}
