//! The repair of a stuck play: a revealed number's unknown neighbours emptied of mines or filled
//! with them, so that the number decides them.

use super::replay::Replay;
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
    let view = replay.view();
    let grid = view.grid();
    let cells = view.cells();
    let hidden = |i: usize| cells[i] == Cell::Hidden;
    let mut near = vec![false; cells.len()];
    let mut numbers = Vec::new();
    for (i, c) in cells.iter().enumerate() {
        if let Cell::Revealed(_) = c {
            let mut open = false;
            for q in grid.neighbours(grid.pos(i)) {
                let j = grid.index(q);
                if hidden(j) {
                    near[j] = true;
                    open = true;
                }
            }
            if open {
                numbers.push(i);
            }
        }
    }
    if numbers.is_empty() {
        return Repaired::Failed;
    }
    let start = rng.below(numbers.len() as u64) as usize;
    for k in 0..numbers.len() {
        let at = numbers[(start + k) % numbers.len()];
        let around: Vec<usize> = grid
            .neighbours(grid.pos(at))
            .map(|q| grid.index(q))
            .filter(|&j| hidden(j))
            .collect();
        let touches_at = |j: usize| {
            let (p, q) = (grid.pos(j), grid.pos(at));
            p.x.abs_diff(q.x) <= 1 && p.y.abs_diff(q.y) <= 1
        };
        // Hidden cells away from the number: those that touch no revealed cell first.
        let mut far: Vec<usize> = (0..cells.len())
            .filter(|&j| hidden(j) && !touches_at(j))
            .collect();
        far.sort_by_key(|&j| near[j]);
        let interior = far.iter().filter(|&&j| !near[j]).count();
        let (far_interior, far_near) = far.split_at(interior);
        let mines_in = around.iter().filter(|&&j| replay.is_mine(j)).count();
        let free_in = around.len() - mines_in;
        let pick = |list: &[usize], mine: bool| -> Vec<usize> {
            list.iter()
                .copied()
                .filter(|&j| replay.is_mine(j) == mine)
                .collect()
        };
        let empty_to = [pick(far_interior, false), pick(far_near, false)].concat();
        let fill_from = [pick(far_interior, true), pick(far_near, true)].concat();
        let can_empty = empty_to.len() >= mines_in;
        let can_fill = fill_from.len() >= free_in;
        if can_empty && (mines_in <= free_in || !can_fill) {
            let targets = choose(&empty_to, mines_in, rng);
            let from: Vec<usize> = around
                .iter()
                .copied()
                .filter(|&j| replay.is_mine(j))
                .collect();
            for (f, t) in from.into_iter().zip(targets) {
                replay.move_mine(f, t);
            }
            return Repaired::InPlace;
        }
        if can_fill {
            let sources = choose(&fill_from, free_in, rng);
            let to: Vec<usize> = around
                .iter()
                .copied()
                .filter(|&j| !replay.is_mine(j))
                .collect();
            for (f, t) in sources.into_iter().zip(to) {
                replay.move_mine(f, t);
            }
            return Repaired::InPlace;
        }
    }
    // No room among the hidden cells: empty one number's neighbours under revealed cells.
    let at = numbers[start];
    let from: Vec<usize> = grid
        .neighbours(grid.pos(at))
        .map(|q| grid.index(q))
        .filter(|&j| hidden(j) && replay.is_mine(j))
        .collect();
    let under: Vec<usize> = (0..cells.len())
        .filter(|&j| matches!(cells[j], Cell::Revealed(_)) && !replay.protected(j))
        .filter(|&j| {
            grid.pos(j).x.abs_diff(grid.pos(at).x) > 1 || grid.pos(j).y.abs_diff(grid.pos(at).y) > 1
        })
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

/// `k` distinct entries of `list` (with `k <= list.len()`), drawn uniformly by a partial
/// Fisher-Yates shuffle from the front.
fn choose(list: &[usize], k: usize, rng: &mut Rng) -> Vec<usize> {
    let mut list = list.to_vec();
    for i in 0..k {
        let j = i + rng.below((list.len() - i) as u64) as usize;
        list.swap(i, j);
    }
    list.truncate(k);
    list
}
