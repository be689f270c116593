//! Dead 50/50s: guesses that no later click can make safer, so they are best taken at once.
//!
//! Two orthogonally adjacent hidden cells `a` and `b` form a dead 50/50 when one of them is a
//! mine in every arrangement and every cell that touches one of them but not the other (their
//! *side* cells: the three beyond `a` and the three beyond `b`, those on the board) is a mine:
//! no number can ever tell them apart, so one of them must be guessed at even odds, and its
//! number may help the rest. A 2x2 box whose mines are always one diagonal or the other is dead
//! when the four cells diagonally beyond its corners are mines. A cell is a *pseudo-50/50* when
//! in every arrangement where it is a mine, it forms a dead 50/50 with a neighbour (the side
//! cells still hidden, at most one, being mines too): its risk is one the game must take anyway.

use super::guess::probability_grid;
use crate::minesweeper::{analyze, Analysis, Board, Cell, Pos};

/// A cell to guess at once, with its mine probability: a cell of a dead 50/50 (a pair whose side
/// cells are all mines or off the board, with exactly one mine in every arrangement), or with
/// `pseudo`, a cell that is a mine only in arrangements where it forms a dead 50/50 (its risk
/// is one the game must take anyway). Guessing these early costs nothing and may tell the
/// neighbours something. Dead pairs come first, then dead 2x2 boxes, then pseudo-50/50s, each
/// the first in row-major order (of the pair's or box's top-left cell).
#[must_use]
pub fn forced(
    view: &Board,
    analysis: &Analysis,
    pseudo: bool,
    analyses: &mut u32,
) -> Option<(Pos, f64)> {
    let probability = probability_grid(view, analysis);
    let mut scratch = view.clone();
    let mut pseudo_pick: Option<(Pos, f64)> = None;
    for (a, b) in pairs(view) {
        let Some(missing) = missing_sides(view, a, b) else {
            continue;
        };
        let (qa, qb) = (probability[view.index(a)], probability[view.index(b)]);
        if qa <= 0.0 || qb <= 0.0 || qa >= 1.0 || qb >= 1.0 {
            continue;
        }
        if missing.is_none() && (qa + qb - 1.0).abs() > 1e-9 && !pseudo {
            continue;
        }
        let ln_total = analysis.ln_arrangements;
        let (for_a, for_b) = pair_shares(&mut scratch, a, b, missing, ln_total, analyses);
        if missing.is_none() && (for_a + for_b - 1.0).abs() < 1e-9 {
            return Some((a, qa));
        }
        if pseudo && pseudo_pick.is_none() {
            if for_a >= qa * (1.0 - 1e-9) {
                pseudo_pick = Some((a, qa));
            } else if for_b >= qb * (1.0 - 1e-9) {
                pseudo_pick = Some((b, qb));
            }
        }
    }
    dead_box(view, &probability, &mut scratch, analyses).or(pseudo_pick)
}

/// Every pair of orthogonally adjacent cells `(a, b)`, `b` right of or below `a`, in row-major
/// order of `a` (the right neighbour first).
fn pairs(view: &Board) -> impl Iterator<Item = (Pos, Pos)> + '_ {
    view.positions().flat_map(move |a| {
        let right = (a.x + 1 < view.width()).then_some(Pos { x: a.x + 1, y: a.y });
        let below = (a.y + 1 < view.height()).then_some(Pos { x: a.x, y: a.y + 1 });
        right.into_iter().chain(below).map(move |b| (a, b))
    })
}

/// A cell of a dead 2x2 box: four hidden cells whose mines are always one diagonal pair or the
/// other, with the four cells diagonally beyond its corners mines or off the board (only they
/// could tell the diagonals apart). The top-left cell, with its mine probability.
fn dead_box(
    view: &Board,
    probability: &[f64],
    scratch: &mut Board,
    analyses: &mut u32,
) -> Option<(Pos, f64)> {
    let (w, h) = (view.width(), view.height());
    for y in 0..h.saturating_sub(1) {
        for x in 0..w.saturating_sub(1) {
            let cells = [
                Pos { x, y },
                Pos { x: x + 1, y },
                Pos { x, y: y + 1 },
                Pos { x: x + 1, y: y + 1 },
            ];
            if cells.iter().any(|&c| view.get(c) != Cell::Hidden) {
                continue;
            }
            let q = cells.map(|c| probability[view.index(c)]);
            let one = |i: usize, j: usize| (q[i] + q[j] - 1.0).abs() < 1e-9;
            if q[0] <= 0.0 || q[0] >= 1.0 || !(one(0, 1) && one(0, 2) && one(1, 3)) {
                continue;
            }
            let corners_closed =
                [(-1i64, -1i64), (2, -1), (-1, 2), (2, 2)]
                    .iter()
                    .all(|&(dx, dy)| {
                        let (cx, cy) = (x as i64 + dx, y as i64 + dy);
                        cx < 0
                            || cy < 0
                            || cx as usize >= w
                            || cy as usize >= h
                            || view.get(Pos {
                                x: cx as usize,
                                y: cy as usize,
                            }) == Cell::Flagged
                    });
            if !corners_closed {
                continue;
            }
            // Each side of the box holds exactly one mine: then the mines are a diagonal.
            let never_both = [(0, 1), (0, 2), (1, 3), (2, 3)]
                .iter()
                .all(|&(i, j)| with_mines(scratch, &[cells[i], cells[j]], analyses).is_none());
            if never_both {
                return Some((cells[0], q[0]));
            }
        }
    }
    None
}

/// The log of the number of arrangements of `board` with mines on all of `cells` (flagged for
/// the count), or `None` if there is none; `board` is left as it was.
fn with_mines(board: &mut Board, cells: &[Pos], analyses: &mut u32) -> Option<f64> {
    for &c in cells {
        board.set(c, Cell::Flagged);
    }
    *analyses += 1;
    let ln = analyze(board).ok().map(|a| a.ln_arrangements);
    for &c in cells {
        board.set(c, Cell::Hidden);
    }
    ln
}

/// The side cell of the pair `a`, `b` (both must be hidden and unflagged) that is hidden and
/// unflagged, if there is one: `Some(None)` if every side cell is a flag or off the board, `None`
/// if the pair cannot form a dead 50/50 (a side cell is revealed, or more than one is not known
/// to be a mine).
fn missing_sides(view: &Board, a: Pos, b: Pos) -> Option<Option<Pos>> {
    if view.get(a) != Cell::Hidden || view.get(b) != Cell::Hidden {
        return None;
    }
    let mut missing = None;
    for s in sides(view, a, b) {
        match view.get(s) {
            Cell::Revealed(_) => return None,
            Cell::Flagged => {}
            Cell::Hidden if missing.is_some() => return None,
            Cell::Hidden => missing = Some(s),
        }
    }
    Some(missing)
}

/// The on-board cells that touch exactly one of `a` and `b` (`b` right of or below `a`).
fn sides(view: &Board, a: Pos, b: Pos) -> impl Iterator<Item = Pos> + '_ {
    let horizontal = b.x == a.x + 1;
    // Beyond `a` (index -1 along the pair's axis) and beyond `b` (index +2), across -1..=1.
    [-1i64, 2].into_iter().flat_map(move |along| {
        (-1i64..=1).filter_map(move |across| {
            let (x, y) = if horizontal {
                (a.x as i64 + along, a.y as i64 + across)
            } else {
                (a.x as i64 + across, a.y as i64 + along)
            };
            let inside =
                x >= 0 && y >= 0 && (x as usize) < view.width() && (y as usize) < view.height();
            inside.then_some(Pos {
                x: x as usize,
                y: y as usize,
            })
        })
    })
}

/// The shares of the arrangements in which the missing side cell (if any) is a mine and exactly
/// one of `a`, `b` is: first with `a` the mine, then with `b`. `board` is the view, left as it
/// was.
fn pair_shares(
    board: &mut Board,
    a: Pos,
    b: Pos,
    missing: Option<Pos>,
    ln_total: f64,
    analyses: &mut u32,
) -> (f64, f64) {
    let mut share = |mines: &[Pos], board: &mut Board| -> f64 {
        let cells: Vec<Pos> = mines.iter().copied().chain(missing).collect();
        with_mines(board, &cells, analyses).map_or(0.0, |ln| (ln - ln_total).exp())
    };
    let both = share(&[a, b], board);
    let with_a = share(&[a], board);
    let with_b = share(&[b], board);
    ((with_a - both).max(0.0), (with_b - both).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        Board::parse(text).expect("a valid board")
    }

    #[test]
    fn a_dead_pair_is_guessed_at_once() {
        let view = board("4x3x3\nHHF2\n13F2\n0111\n");
        let analysis = analyze(&view).unwrap();
        let mut analyses = 0;
        let (p, q) = forced(&view, &analysis, false, &mut analyses).expect("a dead 50/50");
        assert_eq!(p, Pos { x: 0, y: 0 });
        assert!((q - 0.5).abs() < 1e-9);
    }

    #[test]
    fn a_dead_box_is_guessed_at_once() {
        // The top-left 2x2 box holds one diagonal or the other; beyond its corners, a flag.
        let view = board("4x4x3\nHH10\nHH21\n12F1\n0111\n");
        let analysis = analyze(&view).unwrap();
        let mut analyses = 0;
        let (p, q) = forced(&view, &analysis, false, &mut analyses).expect("a dead box");
        assert_eq!(p, Pos { x: 0, y: 0 });
        assert!((q - 0.5).abs() < 1e-9);
        // Without the flag beyond the box, a number there could still tell the diagonals apart.
        let open = board("4x4x3\nHH10\nHH21\n12H1\n0111\n");
        let analysis = analyze(&open).unwrap();
        assert_eq!(forced(&open, &analysis, false, &mut analyses), None);
    }
}
