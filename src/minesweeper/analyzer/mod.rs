//! The analyzer proper: from a [`Board`](super::Board) to every hidden cell's exact mine
//! probability, and from there to the printed [`Answer`].
//!
//! The layers, each using only those above it:
//! 1. [`frontier`]: the trivial and subset deductions, then the remaining frontier cells grouped by
//!    the numbers they touch and split into independent components;
//! 2. [`enumerate`]: each component's arrangements counted by mine count;
//! 3. [`combine`]: the components and the cells off the frontier combined by convolution over the
//!    mine count, exactly ([`big`] integers; the off-frontier binomials replaced by small integers
//!    proportional to them);
//! 4. [`analysis`]: the exact ratios ([`ExactAnalysis`]), their floats ([`Analysis`]) and the
//!    recommended click;
//! 5. [`answer`]: the probabilities rounded to 6 decimals and the text the solver prints.
//!
//! Beside them, [`sample`] draws a layout uniformly among those that agree with a board.

mod analysis;
#[cfg(not(bundle_bin = "minesweeper-agent"))]
mod answer;
mod big;
mod combine;
mod enumerate;
mod frontier;
#[cfg(not(bundle))]
mod sample;

pub use analysis::{
    analyze, analyze_exact, best_guess, ln_arrangements, Analysis, ExactAnalysis,
    LN_RELATIVE_ERROR, NEAR_TIE, PROBABILITY_ERROR,
};
#[cfg(not(bundle_bin = "minesweeper-agent"))]
pub use answer::{round6, Answer};
pub use big::Big;
#[cfg(not(bundle))]
pub(crate) use sample::choose;
#[cfg(not(bundle))]
pub use sample::{sample_mines, Below};
