//! The `minesweeper` analyzer: exact safe cells, certain mines and mine probabilities of a partly
//! revealed board, every arrangement of the mines that agrees with it being equally likely.
//!
//! The solver contract: [`parse`] reads JSMinesweeper's `.mine` text (see [`Board::parse`]) into a
//! [`Board`], [`solve`] analyses it into an [`Answer`] whose `Display` is the printed output, and
//! [`run`] does both and writes the answer:
//! ```text
//! safe <k>
//! <x> <y>          per safe hidden cell
//! mines <m>
//! <x> <y>          per certain mine among the hidden unflagged cells
//! best <x> <y> <p> the recommended click, or "best none" if no hidden unflagged cell can be safe
//! cells <n>
//! <x> <y> <p>      per hidden unflagged cell, p its exact mine probability rounded to 6 decimals
//! ```
//!
//! Layout. The top-level files are the puzzle's shared vocabulary, used alike by the analyzer, the
//! game engine ([`game`]) and the bot ([`bot`]): the [`Board`] and its [`Cell`]s and [`Pos`]itions,
//! the [`Grid`] geometry (indices, neighbours, blocks), the `.mine` reader, and the [`Error`]s.
//! The analyzer proper (deductions, enumeration, exact combination, rounding) lives in
//! `analyzer/`, which nothing but this module's re-exports sees, so that the method can change
//! without touching its users.
//!
//! Method: deduce the trivial and subset cases, group the remaining frontier cells by the numbers they
//! touch, split the groups into independent components, enumerate each component's arrangements by
//! mine count, and combine the components and the cells off the frontier by convolution over the
//! mine count. Counts are big integers ([`Big`]); the off-frontier binomials are replaced by small
//! integers proportional to them.

mod analyzer;
mod board;
#[cfg(any(not(bundle), bundle_bin = "minesweeper-agent"))]
pub mod bot;
mod error;
#[cfg(not(bundle))]
pub mod game;
mod grid;
#[cfg(not(bundle))]
pub mod no_guess;
// The agent's bundle plays games: it leaves out the solver's reader and printed answer.
#[cfg(not(bundle_bin = "minesweeper-agent"))]
mod parse;
#[cfg(not(bundle))]
mod three_bv;

#[cfg(not(bundle_bin = "minesweeper-agent"))]
use std::io::{Read, Write};

pub use analyzer::{
    analyze, analyze_exact, best_guess, ln_arrangements, Analysis, Big, ExactAnalysis,
    LN_RELATIVE_ERROR, NEAR_TIE, PROBABILITY_ERROR,
};
#[cfg(not(bundle_bin = "minesweeper-agent"))]
pub use analyzer::{round6, Answer};
#[cfg(not(bundle))]
pub use analyzer::{sample_mines, Below};
pub use board::{Board, Cell};
pub use error::{Budget, Error, Expected, Inconsistency, MAX_SIDE};
pub use grid::{Grid, Pos};
#[cfg(not(bundle_bin = "minesweeper-agent"))]
pub use parse::parse;
#[cfg(not(bundle))]
pub use three_bv::three_bv;

/// Analyses `board` into the answer the solver prints.
///
/// # Errors
/// As [`analyze_exact`]: [`Error::Inconsistent`] or [`Error::TooComplex`].
#[cfg(not(bundle_bin = "minesweeper-agent"))]
pub fn solve(board: &Board) -> Result<Answer, Error> {
    let exact = analyze_exact(board)?;
    Ok(Answer::new(board, &exact))
}

/// Reads a `.mine` board from `input` and writes its [`Answer`] to `output`, flushed.
///
/// # Errors
/// As [`parse`] and [`solve`], or [`Error::Write`] if writing fails.
#[cfg(not(bundle_bin = "minesweeper-agent"))]
pub fn run<R: Read, W: Write>(input: R, mut output: W) -> Result<(), Error> {
    let answer = solve(&parse(input)?)?;
    write!(output, "{answer}").map_err(Error::Write)?;
    output.flush().map_err(Error::Write)
}
