//! The `minimax` solver: CodinGame's "Minimax exercise".
//!
//! Input: `D B` (depth and branching factor, both >= 1, with `B^D` fitting in a `u64`), then the
//! `B^D` integer leaf scores of the maximizing player, left to right, separated by any whitespace.
//! Output: `<value> <nodes>` and a newline: the root's value under alpha-beta and the number of
//! nodes it visited (see [`search`] for the exact semantics).
//!
//! The leaves stream: memory is O(D) whatever their number, and the leaves of pruned subtrees are
//! skipped without being parsed.

mod error;
mod scanner;
mod search;
mod tree;

use std::io::{Read, Write};

pub use error::{Error, Location};
pub use search::Outcome;
pub use tree::{Score, Shape};

use scanner::Scanner;

/// Reads a whole puzzle and returns its answer.
///
/// # Errors
/// A malformed header, too few leaves, a visited leaf that is not an `i64`, a token after the
/// last leaf, or a read error. Each names the line (and token) where it happened.
pub fn run<R: Read>(input: R) -> Result<Outcome, Error> {
    let mut scanner = Scanner::new(input);
    let shape = Shape::read(&mut scanner)?;
    let outcome = search::alpha_beta(shape, &mut scanner)?;
    scanner.expect_end("the end of the input after the last leaf")?;
    Ok(outcome)
}

/// Reads a puzzle from `input` and writes `<value> <nodes>\n` to `output`.
///
/// # Errors
/// As [`run`], plus a write error.
pub fn solve<R: Read, W: Write>(input: R, mut output: W) -> Result<(), Error> {
    let outcome = run(input)?;
    writeln!(output, "{} {}", outcome.value, outcome.nodes)?;
    output.flush()?;
    Ok(())
}
