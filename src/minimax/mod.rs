//! The `minimax` solver: CodinGame's "Minimax exercise".
//!
//! Input: `D B` (depth and branching factor, both >= 1, with `B^D` fitting in a `u64`), then the
//! `B^D` integer leaf scores of the maximizing player, left to right, separated by any whitespace.
//! Output: `<value> <nodes>` and a newline: the root's value under alpha-beta and the number of
//! nodes it visited (see [`solve`] for the exact semantics).
//!
//! The leaves stream: memory is O(D) whatever their number, and the leaves of pruned subtrees are
//! skipped without being parsed. So [`parse`] reads the header only, and [`solve`] takes the
//! [`Tree`] by value to read its leaves (the one departure from the crate's `solve(&input)`).

mod error;
mod scanner;
mod search;
mod tree;

use std::io::{Read, Write};

pub use error::{Error, Location};
pub use search::Outcome;
pub use tree::{Score, Shape};

use scanner::Scanner;

/// A game tree whose header has been read: its shape, and its leaves still to stream.
pub struct Tree<R> {
    shape: Shape,
    /// Stands just after the header.
    leaves: Scanner<R>,
}

impl<R> Tree<R> {
    /// The depth and branching factor from the header.
    pub fn shape(&self) -> Shape {
        self.shape
    }
}

/// Reads the header `D B`.
///
/// # Errors
/// A missing or malformed header, a tree with more leaves than a `u64` counts, or a read error.
pub fn parse<R: Read>(input: R) -> Result<Tree<R>, Error> {
    let mut leaves = Scanner::new(input);
    let shape = Shape::read(&mut leaves)?;
    Ok(Tree { shape, leaves })
}

/// Runs alpha-beta over the tree's leaves as they stream in, and checks that nothing follows them.
///
/// The root (depth 0) is a max node and levels alternate; children are explored left to right
/// from the window (-inf, +inf); a max node stops as soon as its value >= beta, a min node as soon
/// as its value <= alpha (ties prune). Every node entered counts as visited; a pruned subtree
/// counts nothing.
///
/// # Errors
/// Too few leaves, a visited leaf that is not an `i64`, a token after the last leaf, or a read
/// error. Each names the line (and token) where it happened.
pub fn solve<R: Read>(tree: Tree<R>) -> Result<Outcome, Error> {
    let Tree { shape, mut leaves } = tree;
    let outcome = search::alpha_beta(shape, &mut leaves)?;
    leaves.expect_end()?;
    Ok(outcome)
}

/// Reads a puzzle from `input` and writes `<value> <nodes>\n` to `output`, then flushes it.
///
/// # Errors
/// As [`parse`] and [`solve`], or [`Error::Write`].
pub fn run<R: Read, W: Write>(input: R, mut output: W) -> Result<(), Error> {
    let outcome = solve(parse(input)?)?;
    write!(output, "{outcome}")
        .and_then(|()| output.flush())
        .map_err(Error::Write)
}
