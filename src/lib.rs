//! cp-puzzles: fast, exact puzzle solvers.
//!
//! Each module is one puzzle, and every one follows the same contract, so that the solver
//! binaries (`bin/<puzzle>.rs`) are a few lines each.
//!
//! # The contract
//!
//! A puzzle module `P` has:
//! - `pub fn parse<R: Read>(input: R) -> Result<I, P::Error>`: reads the whole input into a typed
//!   input `I` (the tree, the board, the position, the grid size), checking everything a solve
//!   relies on;
//! - `pub fn solve(input: &I) -> Result<A, P::Error>`: the answer, a type whose `Display` is
//!   exactly the solver's stdout, final newline included. A solver with options takes them as a
//!   last argument `&Options` (maxblack). [`minimax`] streams its leaves in O(depth) memory, so
//!   its `parse` reads the header only and its `solve` takes the tree by value;
//! - `pub fn run<R: Read, W: Write>(input: R, output: W) -> Result<(), P::Error>`: parses, solves,
//!   writes the answer and flushes `output` (the binary's whole job, with `&Options` last where
//!   `solve` has them).
//!
//! # Errors
//!
//! Each module's faults are its `error.rs`'s `pub enum Error`. Every message is one lowercase
//! line with no final period that says what was expected and where. The same fault has the same
//! variant name in every module:
//! - `Read(io::Error)`: "cannot read the input: {e}";
//! - `Write(io::Error)`: "cannot write the output: {e}";
//! - `Missing { .. }`: the input ended early, "line L, token T: expected X, found end of input"
//!   (with `cell` or `column` instead of `token` where the module counts those);
//! - `BadToken { .. }`: "line L, token T: expected X, found \"y\"";
//! - `Trailing { .. }`: something follows the end of a valid input.
//!
//! Other faults have names of their own. There is no `From<io::Error>`, so that a read and a
//! write are always told apart; `std::error::Error::source` returns the `io::Error` of `Read` and
//! `Write` (the binaries look for a broken pipe through it).
//!
//! # Standard library only
//!
//! The package has no dependencies, and a module imports nothing from another puzzle: `judge
//! bundle P` turns `src/P`, `bin/P.rs` and the binaries' shared command line `bin/cli.rs` into one
//! source file that a bare `rustc` (editions 2018 and 2021) compiles, for an online judge. Items
//! under `#[cfg(not(bundle))]` stay out of the bundle.

pub mod maxblack;
pub mod minesweeper;
pub mod minimax;
pub mod quarto;
