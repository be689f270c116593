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

use crate::minesweeper::bot::calls::Calls;
use crate::minesweeper::bot::probabilities::probability_grid;
use crate::minesweeper::bot::shapes::{
    all_boxes, analysis_with_mines, pairs, share_with_mines, touches, touching_one,
};
use crate::minesweeper::bot::tolerance::MASS_SLACK;
use crate::minesweeper::{Analysis, Board, Cell, Pos, NEAR_TIE};

/// Which guesses that the game must take anyway are taken at once (see
/// [`forced_guess`](super::super::forced_guess)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forced {
    /// None: the lookahead decides.
    None,
    /// Dead 50/50s: a pair or a 2x2 box that no number can ever resolve.
    Dead,
    /// Dead 50/50s, then pseudo-50/50s: a cell that is a mine only where it forms a dead 50/50.
    Pseudo,
    /// As `Pseudo`, with dead sets of any shape between the boxes and the pseudo-50/50s: two
    /// mine patterns that no cell can tell apart (see [`forced`]).
    Sets,
}

/// A cell to guess at once, with its mine probability, among the 50/50s that `which` names: a
/// cell of a dead 50/50 (a pair whose side cells are all mines or off the board, with exactly one
/// mine in every arrangement) or of a dead 2x2 box; with [`Forced::Pseudo`], also a cell that is
/// a mine only in arrangements where it forms a dead 50/50 (its risk is one the game must take
/// anyway); with [`Forced::Sets`], also a cell of a dead set of any shape. Guessing these early
/// costs nothing and may tell the neighbours something. Dead pairs come first, then dead 2x2
/// boxes, then dead sets, then pseudo-50/50s, each the first in row-major order (of the pair's
/// or box's top-left cell). `None` with [`Forced::None`]. `calls` counts the analyzer calls made.
#[must_use]
pub fn forced(
    view: &Board,
    analysis: &Analysis,
    which: Forced,
    calls: &mut Calls,
) -> Option<(Pos, f64)> {
    let (pseudo, sets) = match which {
        Forced::None => return None,
        Forced::Dead => (false, false),
        Forced::Pseudo => (true, false),
        Forced::Sets => (true, true),
    };
    let probability = probability_grid(view, analysis);
    let mut scratch = view.clone();
    let mut pseudo_pick: Option<(Pos, f64)> = None;
    for (a, b) in pairs(view.grid()) {
        let Some(missing) = missing_sides(view, a, b) else {
            continue;
        };
        let (qa, qb) = (probability[view.index(a)], probability[view.index(b)]);
        if qa <= 0.0 || qb <= 0.0 || qa >= 1.0 || qb >= 1.0 {
            continue;
        }
        if missing.is_none() && (qa + qb - 1.0).abs() > NEAR_TIE && !pseudo {
            continue;
        }
        let ln_total = analysis.ln_arrangements;
        let (for_a, for_b) = pair_shares(&mut scratch, [a, b], missing, ln_total, calls);
        if missing.is_none() && one_mine(for_a, for_b) {
            return Some((a, qa));
        }
        if pseudo && pseudo_pick.is_none() {
            if for_a >= qa * (1.0 - MASS_SLACK) {
                pseudo_pick = Some((a, qa));
            } else if for_b >= qb * (1.0 - MASS_SLACK) {
                pseudo_pick = Some((b, qb));
            }
        }
    }
    dead_box(view, &probability, &mut scratch, calls)
        .or_else(|| {
            sets.then(|| dead_set(view, &probability, &mut scratch, calls))
                .flatten()
        })
        .or(pseudo_pick)
}

/// At most this many cells start a search for a dead set (each costs up to two analyzer calls).
const SET_TRIES: usize = 16;

/// A cell of a dead set, of any shape: hidden cells whose mines follow one of exactly two
/// patterns, each in half of the arrangements, with as many mines in each, such that every other
/// cell not known to be a mine touches as many mines of one pattern as of the other. Then no
/// number, shown now or later, can tell the patterns apart, and the rest of the board is the
/// same under both: the set is a 50/50 the game must take, and taking it first costs nothing.
/// Dead pairs and boxes are dead sets; so are chains of cells that alternate, whatever numbers
/// already show beside them. The search starts from at most [`SET_TRIES`] cells at even odds, in
/// row-major order, skipping those that a mine on an earlier start decided (they would find the
/// same set); the answer is the set's first cell in row-major order.
fn dead_set(
    view: &Board,
    probability: &[f64],
    scratch: &mut Board,
    calls: &mut Calls,
) -> Option<(Pos, f64)> {
    let even = |q: f64| (q - 0.5).abs() < NEAR_TIE;
    let starts: Vec<Pos> = view
        .positions()
        .filter(|&p| view.get(p) == Cell::Hidden && even(probability[view.index(p)]))
        .collect();
    let mut seen = vec![false; probability.len()];
    let mut tries = 0;
    for &a in &starts {
        if seen[view.index(a)] {
            continue;
        }
        if tries == SET_TRIES {
            break;
        }
        tries += 1;
        let Some(with_a) = decided(scratch, a, &starts, calls) else {
            continue;
        };
        for &(c, _) in &with_a {
            seen[view.index(c)] = true;
        }
        let Some(set) = two_patterns(with_a, &starts, scratch, calls) else {
            continue;
        };
        if indistinguishable(view, probability, &set) {
            let first = set.iter().map(|&(c, _)| c).min_by_key(|c| (c.y, c.x))?;
            return Some((first, probability[view.index(first)]));
        }
    }
    None
}

/// `with_a`, the cells at even odds (of `even`) that a mine on a cell decides (that cell first,
/// a mine), if a mine on one of the cells it leaves safe decides each the other way: then every
/// arrangement follows one of the two patterns. `None` if not.
fn two_patterns(
    with_a: Vec<(Pos, bool)>,
    even: &[Pos],
    scratch: &mut Board,
    calls: &mut Calls,
) -> Option<Vec<(Pos, bool)>> {
    let &(b, _) = with_a.iter().find(|&&(_, mine)| !mine)?;
    let with_b = decided(scratch, b, even, calls)?;
    let flipped = with_a.len() == with_b.len()
        && with_a.iter().all(|&(c, mine)| with_b.contains(&(c, !mine)));
    flipped.then_some(with_a)
}

/// With a mine on `m`: the cells of `even` that are then certain, each with whether it is a mine
/// (`m` itself a mine). `None` if the mine leaves no arrangement or the analyzer gives up.
fn decided(
    scratch: &mut Board,
    m: Pos,
    even: &[Pos],
    calls: &mut Calls,
) -> Option<Vec<(Pos, bool)>> {
    let analysis = analysis_with_mines(scratch, &[m], calls)?;
    let probability = probability_grid(scratch, &analysis);
    let mut found = vec![(m, true)];
    for &c in even {
        let q = probability[scratch.index(c)];
        if c != m && (q == 0.0 || q == 1.0) {
            found.push((c, q == 1.0));
        }
    }
    Some(found)
}

/// Whether the two patterns of `set` (each cell with whether it is a mine in the first; the
/// second is the opposite) hold as many mines, and every cell outside it that is not a flag or a
/// certain mine touches as many mines of the one as of the other.
fn indistinguishable(view: &Board, probability: &[f64], set: &[(Pos, bool)]) -> bool {
    let first = set.iter().filter(|&&(_, mine)| mine).count();
    if 2 * first != set.len() {
        return false;
    }
    let in_set = |p: Pos| set.iter().any(|&(c, _)| c == p);
    let known_mine = |p: Pos| view.get(p) == Cell::Flagged || probability[view.index(p)] == 1.0;
    let mut around: Vec<Pos> = set
        .iter()
        .flat_map(|&(c, _)| view.neighbours(c))
        .filter(|&p| !in_set(p) && !known_mine(p))
        .collect();
    around.sort_by_key(|p| (p.y, p.x));
    around.dedup();
    around.iter().all(|&p| {
        let balance: i32 = set
            .iter()
            .filter(|&&(c, _)| touches(p, c))
            .map(|&(_, mine)| if mine { 1 } else { -1 })
            .sum();
        balance == 0
    })
}

/// Whether two chances add up to one (within [`NEAR_TIE`]).
fn one_mine(p: f64, q: f64) -> bool {
    (p + q - 1.0).abs() < NEAR_TIE
}

/// A cell of a dead 2x2 box: four hidden cells whose mines are always one diagonal pair or the
/// other, with the four cells diagonally beyond its corners mines or off the board (only they
/// could tell the diagonals apart). The top-left cell, with its mine probability.
fn dead_box(
    view: &Board,
    probability: &[f64],
    scratch: &mut Board,
    calls: &mut Calls,
) -> Option<(Pos, f64)> {
    let grid = view.grid();
    for cells in all_boxes(grid) {
        if cells.iter().any(|&c| view.get(c) != Cell::Hidden) {
            continue;
        }
        let q = cells.map(|c| probability[view.index(c)]);
        let one = |i: usize, j: usize| one_mine(q[i], q[j]);
        if q[0] <= 0.0 || q[0] >= 1.0 || !(one(0, 1) && one(0, 2) && one(1, 3)) {
            continue;
        }
        if !touching_one(grid, &cells).all(|c| view.get(c) == Cell::Flagged) {
            continue;
        }
        // Each side of the box holds exactly one mine: then the mines are a diagonal.
        let never_both = [(0, 1), (0, 2), (1, 3), (2, 3)]
            .iter()
            .all(|&(i, j)| analysis_with_mines(scratch, &[cells[i], cells[j]], calls).is_none());
        if never_both {
            return Some((cells[0], q[0]));
        }
    }
    None
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
    for s in touching_one(view.grid(), &[a, b]) {
        match view.get(s) {
            Cell::Revealed(_) => return None,
            Cell::Flagged => {}
            Cell::Hidden if missing.is_some() => return None,
            Cell::Hidden => missing = Some(s),
        }
    }
    Some(missing)
}

/// The shares of the arrangements in which the missing side cell (if any) is a mine and exactly
/// one of the pair `[a, b]` is: first with `a` the mine, then with `b`. `board` is the view, left
/// as it was.
fn pair_shares(
    board: &mut Board,
    [a, b]: [Pos; 2],
    missing: Option<Pos>,
    ln_total: f64,
    calls: &mut Calls,
) -> (f64, f64) {
    let mut share = |mines: &[Pos], board: &mut Board| -> f64 {
        let cells: Vec<Pos> = mines.iter().copied().chain(missing).collect();
        share_with_mines(board, &cells, ln_total, calls)
    };
    let both = share(&[a, b], board);
    let with_a = share(&[a], board);
    let with_b = share(&[b], board);
    ((with_a - both).max(0.0), (with_b - both).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minesweeper::analyze;

    /// The dead 50/50 `forced` finds on the board `text` (no pseudo-50/50s).
    fn dead_on(text: &str) -> Option<(Pos, f64)> {
        let view = Board::parse(text).expect("a valid board");
        let analysis = analyze(&view).unwrap();
        forced(&view, &analysis, Forced::Dead, &mut Calls::default())
    }

    #[test]
    fn a_dead_pair_is_guessed_at_once() {
        let (p, q) = dead_on("4x3x3\nHHF2\n13F2\n0111\n").expect("a dead 50/50");
        assert_eq!(p, Pos { x: 0, y: 0 });
        assert!((q - 0.5).abs() < NEAR_TIE);
    }

    #[test]
    fn a_dead_box_is_guessed_at_once() {
        // The top-left 2x2 box holds one diagonal or the other; beyond its corners, a flag.
        let (p, q) = dead_on("4x4x3\nHH10\nHH21\n12F1\n0111\n").expect("a dead box");
        assert_eq!(p, Pos { x: 0, y: 0 });
        assert!((q - 0.5).abs() < NEAR_TIE);
        // Without the flag beyond the box, a number there could still tell the diagonals apart.
        assert_eq!(dead_on("4x4x3\nHH10\nHH21\n12H1\n0111\n"), None);
    }

    /// The forced guess on the board `text` with dead sets on (and pseudo-50/50s).
    fn set_on(text: &str) -> Option<(Pos, f64)> {
        let view = Board::parse(text).expect("a valid board");
        let analysis = analyze(&view).unwrap();
        forced(&view, &analysis, Forced::Sets, &mut Calls::default())
    }

    /// A board's right side: a 2x3 block of hidden cells beside revealed numbers and flags. Four
    /// of them, (4, 2), (3, 2), (3, 3) and (3, 4), form a chain whose mines alternate, one pattern
    /// or the other, and the two cells beyond it touch as many mines of each: a dead set that no
    /// pair or box test sees.
    const CHAIN: &str = "5x5x5\n01110\n01F21\n023HH\n01FHH\n012HH\n";

    #[test]
    fn a_dead_chain_is_guessed_at_once() {
        assert_eq!(dead_on(CHAIN), None, "the pair and box tests miss it");
        let (p, q) = set_on(CHAIN).expect("a dead set");
        assert_eq!(p, Pos::new(3, 2));
        assert!((q - 0.5).abs() < NEAR_TIE);
    }

    #[test]
    fn a_set_that_a_cell_can_split_is_not_dead() {
        // (3, 0), (3, 2), (3, 3) and (4, 3) are at even odds and follow two patterns, but the
        // cells at 2/3 on the right touch them unevenly: their numbers can tell them apart.
        let open = "5x4x5\n01HHH\n0124H\n001HH\n001HH\n";
        let view = Board::parse(open).expect("a valid board");
        let analysis = analyze(&view).unwrap();
        let probability = probability_grid(&view, &analysis);
        let mut scratch = view.clone();
        assert_eq!(
            dead_set(&view, &probability, &mut scratch, &mut Calls::default()),
            None
        );
    }
}
