//! The `minesweeper` analyzer: exact safe cells, certain mines and mine probabilities of a partly
//! revealed board, every arrangement of the mines that agrees with it being equally likely.
//!
//! Input: JSMinesweeper's `.mine` text (see [`Board::parse`]). Output (see [`solve`]):
//! ```text
//! safe <k>
//! <x> <y>          per safe hidden cell
//! mines <m>
//! <x> <y>          per certain mine among the hidden unflagged cells
//! best <x> <y> <p> the recommended click
//! cells <n>
//! <x> <y> <p>      per hidden unflagged cell, p its exact mine probability rounded to 6 decimals
//! ```
//!
//! Method: deduce the trivial and subset cases, group the remaining frontier cells by the numbers they
//! touch, split the groups into independent components, enumerate each component's arrangements by
//! mine count, and combine the components and the cells off the frontier by convolution over the
//! mine count. Counts are big integers ([`Big`]); the off-frontier binomials are replaced by small
//! integers proportional to them.

mod analyzer;
mod board;
#[cfg(not(bundle))]
pub mod bot;
mod error;
#[cfg(not(bundle))]
pub mod game;
mod grid;
mod parse;

use std::io::{Read, Write};

pub use analyzer::{analyze, analyze_exact, best_guess, round6, Analysis, Big, ExactAnalysis, NEAR_TIE};
pub use board::{Board, Cell, Pos};
pub use error::{Error, Inconsistency, MAX_SIDE};
pub use grid::Grid;

/// Reads a `.mine` board from `input` and writes its analysis to `output`.
///
/// # Errors
/// A malformed board ([`Error::Syntax`]), an inconsistent one ([`Error::Inconsistent`]), or an I/O
/// error.
pub fn solve<R: Read, W: Write>(mut input: R, mut output: W) -> Result<(), Error> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes)?;
    let board = Board::parse(&String::from_utf8_lossy(&bytes))?;
    let exact = analyze_exact(&board)?;
    let safe: Vec<Pos> = exact
        .cells()
        .filter(|(_, n, _)| n.is_zero())
        .map(|(p, _, _)| p)
        .collect();
    let mines: Vec<Pos> = exact
        .cells()
        .filter(|(_, n, d)| n == d)
        .map(|(p, _, _)| p)
        .collect();
    analyzer::write_list(&mut output, "safe", &safe)?;
    analyzer::write_list(&mut output, "mines", &mines)?;
    // Rounded once per distinct ratio: on a big board most cells share the off-frontier one.
    let mut rounded: Vec<Option<std::rc::Rc<str>>> = vec![None; exact.ratio_count()];
    let printed: Vec<(Pos, std::rc::Rc<str>)> = exact
        .cells_with_ids()
        .map(|(p, id, n, d)| {
            (
                p,
                rounded[id]
                    .get_or_insert_with(|| round6(n, d).into())
                    .clone(),
            )
        })
        .collect();
    let best = match safe.first() {
        Some(&p) => Some(p),
        None => {
            let mut cache: Vec<Option<f64>> = vec![None; exact.ratio_count()];
            let probabilities: Vec<(Pos, f64)> = exact
                .cells_with_ids()
                .map(|(p, id, n, d)| (p, *cache[id].get_or_insert_with(|| Big::ratio_f64(n, d))))
                .collect();
            best_guess(&board, &probabilities).map(|(p, _)| p)
        }
    };
    match best {
        Some(p) => {
            let i = printed
                .iter()
                .position(|(q, _)| *q == p)
                .expect("a hidden cell");
            writeln!(output, "best {} {} {}", p.x, p.y, printed[i].1)?;
        }
        None => writeln!(output, "best none")?,
    }
    writeln!(output, "cells {}", printed.len())?;
    for (p, text) in &printed {
        writeln!(output, "{} {} {}", p.x, p.y, text)?;
    }
    output.flush()?;
    Ok(())
}
