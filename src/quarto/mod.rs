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
mod error;
mod parse;
pub mod root;
pub mod search;
pub mod symmetry;
mod table;

use std::io::{Read, Write};

pub use board::{Board, Cell, Piece, Pieces};
pub use error::Error;
pub use parse::{parse, Position, MAX_INPUT};
pub use root::{best_move, best_move_with, Answer, Move, Value};

/// Reads a position from `input` and writes `<move>\n<value>\n` to `output`.
///
/// # Errors
/// As [`parse`], plus a write error.
pub fn solve<R: Read, W: Write>(input: R, mut output: W) -> Result<(), Error> {
    let position = parse(input)?;
    let answer = best_move(&position);
    writeln!(output, "{}\n{}", answer.best, answer.value)?;
    output.flush()?;
    Ok(())
}
