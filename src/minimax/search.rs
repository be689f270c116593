//! Alpha-beta over a tree whose leaves stream from the input, in O(depth) memory.
//!
//! The semantics are CodinGame's "Minimax exercise": the root (depth 0) is a max node and levels
//! alternate; children are explored left to right; the window starts at (-inf, +inf); a max node
//! stops as soon as its value >= beta, a min node as soon as its value <= alpha (ties prune); every
//! node entered counts as visited, and a pruned subtree counts nothing.

use std::fmt;
use std::io::Read;

use super::error::Error;
use super::scanner::Scanner;
use super::tree::{parse_leaf, Score, Shape};

/// The answer: the root's value and how many nodes alpha-beta entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub value: Score,
    /// A `u128`, because a chain (B = 1) of depth `u64::MAX` has one node more than a `u64` holds.
    pub nodes: u128,
}

/// The solver's output: `<value> <nodes>` and a newline.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} {}", self.value, self.nodes)
    }
}

/// A bound of the window: leaves are `i64`, so `i128` leaves room for the infinities.
type Bound = i128;
const INFINITY: Bound = 1 << 100;

/// One inner node on the path from the root to the node being explored.
#[derive(Debug, Clone, Copy)]
struct Frame {
    maximizing: bool,
    alpha: Bound,
    beta: Bound,
    /// The best value found so far among the children explored (±INFINITY before the first).
    value: Bound,
    /// How many children were entered so far.
    entered: u64,
}

impl Frame {
    fn new(maximizing: bool, alpha: Bound, beta: Bound) -> Frame {
        let value = if maximizing { -INFINITY } else { INFINITY };
        Frame {
            maximizing,
            alpha,
            beta,
            value,
            entered: 0,
        }
    }

    /// Takes a child's value in; returns true if the remaining children are pruned.
    fn absorb(&mut self, child: Bound) -> bool {
        if self.maximizing {
            self.value = self.value.max(child);
            if self.value >= self.beta {
                return true;
            }
            self.alpha = self.alpha.max(self.value);
        } else {
            self.value = self.value.min(child);
            if self.value <= self.alpha {
                return true;
            }
            self.beta = self.beta.min(self.value);
        }
        false
    }
}

/// Runs alpha-beta over the leaves that follow the header in `scanner`, consuming exactly
/// `B^D` leaf tokens (those of pruned subtrees are skipped unparsed).
///
/// # Errors
/// The input ends before the last leaf, or a leaf that is entered is not an `i64`.
pub fn alpha_beta<R: Read>(shape: Shape, scanner: &mut Scanner<R>) -> Result<Outcome, Error> {
    if shape.branching == 1 {
        let value = read_leaf(scanner, shape, 0)?;
        return Ok(Outcome {
            value,
            nodes: u128::from(shape.depth) + 1,
        });
    }
    // B >= 2 and B^D fits in a u64, so the depth is at most 63: the stack is small.
    let mut stack: Vec<Frame> = Vec::with_capacity(shape.depth as usize);
    stack.push(Frame::new(true, -INFINITY, INFINITY));
    let mut nodes: u128 = 1;
    let mut leaves_read: u64 = 0;
    loop {
        let level = stack.len() as u64; // the level of the children of the top frame
        let top = stack.last_mut().expect("the root stays until the end");
        let finished = top.entered == shape.branching;
        if finished {
            let value = top.value;
            stack.pop();
            let level = stack.len() as u64; // the level of the finished node
            match stack.last_mut() {
                None => {
                    let value = Score::try_from(value).expect("the root's value is a leaf");
                    return Ok(Outcome { value, nodes });
                }
                Some(parent) => {
                    if parent.absorb(value) {
                        prune(parent, level, shape, scanner, &mut leaves_read)?;
                    }
                }
            }
            continue;
        }
        top.entered += 1;
        nodes += 1;
        if level == shape.depth {
            let leaf = read_leaf(scanner, shape, leaves_read)?;
            leaves_read += 1;
            if top.absorb(Bound::from(leaf)) {
                prune(top, level, shape, scanner, &mut leaves_read)?;
            }
        } else {
            let child = Frame::new(!top.maximizing, top.alpha, top.beta);
            stack.push(child);
        }
    }
}

/// Skips the leaves of the children of `frame` not yet entered; `level` is their level.
fn prune<R: Read>(
    frame: &mut Frame,
    level: u64,
    shape: Shape,
    scanner: &mut Scanner<R>,
    leaves_read: &mut u64,
) -> Result<(), Error> {
    let per_child = shape.leaves_below(level).expect("checked by Shape::new");
    let skipped = (shape.branching - frame.entered) * per_child;
    let found = scanner.skip_tokens(skipped)?;
    *leaves_read += found;
    if found < skipped {
        return Err(too_few(scanner, shape, *leaves_read));
    }
    frame.entered = shape.branching;
    Ok(())
}

fn read_leaf<R: Read>(scanner: &mut Scanner<R>, shape: Shape, read: u64) -> Result<Score, Error> {
    match scanner.next_token()? {
        Some((bytes, at)) => parse_leaf(bytes, at),
        None => Err(too_few(scanner, shape, read)),
    }
}

fn too_few<R: Read>(scanner: &Scanner<R>, shape: Shape, found: u64) -> Error {
    Error::TooFewLeaves {
        line: scanner.last_line(),
        expected: shape.leaves_below(0).expect("checked by Shape::new"),
        found,
    }
}
