//! The solvers' page: a puzzle's text in the format its solver binary reads, answered with what
//! the binary prints and the same answer in JSON to draw.

use std::sync::Arc;

use axum::extract::State as Extract;
use axum::Json;
use cp_puzzles::minesweeper::{self, Cell};
use cp_puzzles::{maxblack, quarto};
use serde::Serialize;

use crate::error::ApiError;
use crate::quarto::{position_view, values_of, PositionView, ValueView};
use crate::state::State;

/// The largest maxblack grid side solved here: larger grids take seconds to hours, and are for
/// the command line (`maxblack`, with its checkpoints).
pub const MAX_MAXBLACK_SIDE: usize = 10;

/// A Minesweeper board and its analysis.
#[derive(Debug, Serialize)]
pub struct MinesweeperAnswer {
    pub width: usize,
    pub height: usize,
    pub mines: usize,
    /// One letter per cell, row-major: `.` hidden, `F` flagged, `0` to `8` revealed.
    pub cells: String,
    /// Every hidden unflagged cell's probability, `[x, y, p]`, as `minesweeper` prints it (6
    /// decimals).
    pub probabilities: Vec<(usize, usize, f64)>,
    pub safe: Vec<[usize; 2]>,
    pub mines_certain: Vec<[usize; 2]>,
    pub best: Option<(usize, usize, f64)>,
    /// What `minesweeper` prints.
    pub text: String,
}

/// A maxblack answer: the maximum, the counts, and the grids (`#` black, `.` white).
#[derive(Debug, Serialize)]
pub struct MaxblackAnswer {
    pub rows: usize,
    pub cols: usize,
    pub k: usize,
    pub max: usize,
    pub orbits: u64,
    pub total: u64,
    pub grids: Vec<Vec<String>>,
    /// What `maxblack` prints.
    pub text: String,
}

/// A Quarto position with every move's value.
#[derive(Debug, Serialize)]
pub struct QuartoAnswer {
    pub position: PositionView,
    pub lines: Vec<ValueView>,
    /// What `quarto --values` prints.
    pub text: String,
}

/// `x y p` lines of the minesweeper answer between two headers, parsed back.
fn section(text: &str, header: &str, next: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip_while(|l| !l.starts_with(header))
        .skip(1)
        .take_while(|l| !l.starts_with(next))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

fn xy(words: &[String]) -> Option<[usize; 2]> {
    Some([words.first()?.parse().ok()?, words.get(1)?.parse().ok()?])
}

fn xyp(words: &[String]) -> Option<(usize, usize, f64)> {
    let [x, y] = xy(words)?;
    Some((x, y, words.get(2)?.parse().ok()?))
}

/// Solves a `.mine` board as `minesweeper` does.
///
/// # Errors
/// The solver's own message: a bad board, an inconsistent one, or one over its limits.
pub fn solve_minesweeper(text: &str) -> Result<MinesweeperAnswer, String> {
    let board = minesweeper::parse(text.as_bytes()).map_err(|e| e.to_string())?;
    let answer = minesweeper::solve(&board).map_err(|e| e.to_string())?;
    let printed = answer.to_string();
    let cells = board
        .cells()
        .iter()
        .map(|c| match c {
            Cell::Hidden => '.',
            Cell::Flagged => 'F',
            Cell::Revealed(n) => char::from(b'0' + n),
        })
        .collect();
    let best = printed
        .lines()
        .find_map(|l| l.strip_prefix("best "))
        .and_then(|rest| {
            let words: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
            xyp(&words)
        });
    Ok(MinesweeperAnswer {
        width: board.width(),
        height: board.height(),
        mines: board.mines(),
        cells,
        probabilities: section(&printed, "cells ", "\u{0}")
            .iter()
            .filter_map(|w| xyp(w))
            .collect(),
        safe: section(&printed, "safe ", "mines ")
            .iter()
            .filter_map(|w| xy(w))
            .collect(),
        mines_certain: section(&printed, "mines ", "best ")
            .iter()
            .filter_map(|w| xy(w))
            .collect(),
        best,
        text: printed,
    })
}

/// Solves `N K` or `N M K` as `maxblack` does, for grids up to [`MAX_MAXBLACK_SIDE`].
///
/// # Errors
/// The solver's own message, or a grid over this page's limit.
pub fn solve_maxblack(text: &str) -> Result<MaxblackAnswer, String> {
    let puzzle = maxblack::parse(text.as_bytes()).map_err(|e| e.to_string())?;
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    if rows > MAX_MAXBLACK_SIDE || cols > MAX_MAXBLACK_SIDE {
        return Err(format!(
            "expected sides of at most {MAX_MAXBLACK_SIDE} here, found {rows} x {cols}: larger \
             grids take the command line, `maxblack`"
        ));
    }
    let options = maxblack::Options {
        threads: 1,
        ..maxblack::Options::default()
    };
    let solution = maxblack::solve(&puzzle, &options).map_err(|e| e.to_string())?;
    let a = &solution.answer;
    let grids = a
        .grids
        .iter()
        .map(|g| {
            g.iter()
                .map(|&row| {
                    (0..cols)
                        .map(|j| if row >> j & 1 == 1 { '#' } else { '.' })
                        .collect()
                })
                .collect()
        })
        .collect();
    Ok(MaxblackAnswer {
        rows,
        cols,
        k: puzzle.k(),
        max: a.max as usize,
        orbits: u64::try_from(a.orbits).unwrap_or(u64::MAX),
        total: u64::try_from(a.total).unwrap_or(u64::MAX),
        grids,
        text: solution.to_string(),
    })
}

/// Every move's value in a Quarto position, as `quarto --values` prints them.
///
/// # Errors
/// The solver's own message for a bad position.
pub fn solve_quarto(
    text: &str,
    book: &quarto::Book,
    threads: usize,
) -> Result<QuartoAnswer, String> {
    let position = quarto::parse(text.as_bytes()).map_err(|e| e.to_string())?;
    let values = values_of(&position, book, threads);
    Ok(QuartoAnswer {
        position: position_view(&position),
        lines: values.lines,
        text: values.text,
    })
}

/// `POST /api/solve/minesweeper`: a `.mine` board.
pub async fn minesweeper(
    Extract(state): Extract<Arc<State>>,
    text: String,
) -> Result<Json<MinesweeperAnswer>, ApiError> {
    state
        .work
        .run(move || solve_minesweeper(&text).map(Json).map_err(ApiError::bad))
        .await?
}

/// `POST /api/solve/maxblack`: `N K` or `N M K`.
pub async fn maxblack(
    Extract(state): Extract<Arc<State>>,
    text: String,
) -> Result<Json<MaxblackAnswer>, ApiError> {
    state
        .work
        .run(move || solve_maxblack(&text).map(Json).map_err(ApiError::bad))
        .await?
}

/// `POST /api/solve/quarto`: a position, 4 lines of 4 cells and the piece in hand.
pub async fn quarto(
    Extract(state): Extract<Arc<State>>,
    text: String,
) -> Result<Json<QuartoAnswer>, ApiError> {
    let book = Arc::clone(&state.book);
    let threads = state.limits.workers;
    state
        .work
        .run(move || {
            solve_quarto(&text, &book, threads)
                .map(Json)
                .map_err(ApiError::bad)
        })
        .await?
}
