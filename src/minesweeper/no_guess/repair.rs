//! The repair of a stuck play: a revealed number's unknown neighbours emptied of mines or filled
//! with them, so that the number decides them.

use super::replay::Replay;
use crate::minesweeper::analyzer::choose;
use crate::minesweeper::game::Rng;
use crate::minesweeper::Cell;

/// What a repair did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Repaired {
    /// Mines moved among hidden cells: the play can go on with the changed numbers.
    InPlace,
    /// A mine moved under a revealed cell: the play must start again from the first click.
    Restart,
    /// Nothing could move: no revealed number has a hidden neighbour, or the hidden cells and the
    /// revealed ones outside the first click's area leave no room.
    Failed,
}

/// Repairs the stuck `replay`: picks a revealed number with hidden unflagged neighbours (at random,
/// trying them all in turn), and either moves its neighbours' mines away or fills its mine-free
/// neighbours with mines from elsewhere, whichever moves fewer mines (emptying on a tie). Mines go
/// to and come from, by preference, hidden cells that touch no revealed cell (which changes no
/// revealed number), then other hidden cells away from the number, and last (emptying only)
/// revealed cells outside the cells the first-click rule keeps free.
pub(super) fn repair(replay: &mut Replay, rng: &mut Rng) -> Repaired {
    let (near, numbers) = boundary(replay);
    if numbers.is_empty() {
        return Repaired::Failed;
    }
    let start = rng.below(numbers.len() as u64) as usize;
    for k in 0..numbers.len() {
        if settle(replay, numbers[(start + k) % numbers.len()], &near, rng) {
            return Repaired::InPlace;
        }
    }
    empty_under_revealed(replay, numbers[start], rng)
}

/// The hidden cells that touch a revealed cell (`near`, by board index), and the revealed cells
/// that touch a hidden one, row-major.
fn boundary(replay: &Replay) -> (Vec<bool>, Vec<usize>) {
    let view = replay.view();
    let (grid, cells) = (view.grid(), view.cells());
    let mut near = vec![false; cells.len()];
    let mut numbers = Vec::new();
    for (i, c) in cells.iter().enumerate() {
        if let Cell::Revealed(_) = c {
            let mut open = false;
            for q in grid.neighbours(grid.pos(i)) {
                let j = grid.index(q);
                if cells[j] == Cell::Hidden {
                    near[j] = true;
                    open = true;
                }
            }
            if open {
                numbers.push(i);
            }
        }
    }
    (near, numbers)
}

/// Whether board indices `i` and `j` are the same cell or neighbours.
fn touch(replay: &Replay, i: usize, j: usize) -> bool {
    let grid = replay.view().grid();
    let (p, q) = (grid.pos(i), grid.pos(j));
    p.x.abs_diff(q.x) <= 1 && p.y.abs_diff(q.y) <= 1
}

/// Empties or fills the hidden neighbours of the revealed number at board index `at`, with mines
/// moved to or from hidden cells away from it (those off the boundary, `!near`, first); returns
/// whether it could.
fn settle(replay: &mut Replay, at: usize, near: &[bool], rng: &mut Rng) -> bool {
    let cells = replay.view().cells();
    let hidden = |i: usize| cells[i] == Cell::Hidden;
    let around: Vec<usize> = (0..cells.len())
        .filter(|&j| j != at && hidden(j) && touch(replay, j, at))
        .collect();
    // Hidden cells away from the number: those that touch no revealed cell first.
    let mut far: Vec<usize> = (0..cells.len())
        .filter(|&j| hidden(j) && !touch(replay, j, at))
        .collect();
    far.sort_by_key(|&j| near[j]);
    let pick = |mine: bool| -> Vec<usize> {
        far.iter()
            .copied()
            .filter(|&j| replay.is_mine(j) == mine)
            .collect()
    };
    let (empty_to, fill_from) = (pick(false), pick(true));
    let (mined, free): (Vec<usize>, Vec<usize>) = around.iter().partition(|&&j| replay.is_mine(j));
    let can_empty = empty_to.len() >= mined.len();
    let can_fill = fill_from.len() >= free.len();
    let moves: Vec<(usize, usize)> = if can_empty && (mined.len() <= free.len() || !can_fill) {
        let targets = choose(&empty_to, mined.len(), rng);
        mined.into_iter().zip(targets).collect()
    } else if can_fill {
        let sources = choose(&fill_from, free.len(), rng);
        sources.into_iter().zip(free).collect()
    } else {
        return false;
    };
    for (from, to) in moves {
        replay.move_mine(from, to);
    }
    true
}

/// The last resort, when the hidden cells leave no room: moves the mines around the number at
/// board index `at` under revealed cells away from it and outside the first-click rule's cells,
/// after which the play must start again.
fn empty_under_revealed(replay: &mut Replay, at: usize, rng: &mut Rng) -> Repaired {
    let cells = replay.view().cells();
    let from: Vec<usize> = (0..cells.len())
        .filter(|&j| cells[j] == Cell::Hidden && replay.is_mine(j) && touch(replay, j, at))
        .collect();
    let under: Vec<usize> = (0..cells.len())
        .filter(|&j| matches!(cells[j], Cell::Revealed(_)) && !replay.protected(j))
        .filter(|&j| !touch(replay, j, at))
        .collect();
    if from.is_empty() || under.len() < from.len() {
        return Repaired::Failed;
    }
    let targets = choose(&under, from.len(), rng);
    for (f, t) in from.into_iter().zip(targets) {
        replay.move_mine_under(f, t);
    }
    Repaired::Restart
}
