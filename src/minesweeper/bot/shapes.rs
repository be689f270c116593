//! The shapes of 50/50s, shared by the forced guesses (`stage/fifty.rs`) and the lookahead's
//! 50/50 influence (`stage/lookahead/influence.rs`): pairs of orthogonally adjacent cells, 2x2
//! boxes, the cells that touch exactly one cell of a shape (the only ones whose numbers can tell
//! its cells apart), and the count of the arrangements with mines on given cells.

use super::calls::Calls;
use crate::minesweeper::{Analysis, Board, Cell, Grid, Pos};

/// Whether `p` and `q` are the same cell or neighbours.
pub fn touches(p: Pos, q: Pos) -> bool {
    p.x.abs_diff(q.x) <= 1 && p.y.abs_diff(q.y) <= 1
}

/// The cells on the grid, outside `cells`, that touch exactly one of them, row-major: the side
/// cells of a pair, or the four cells diagonally beyond the corners of a 2x2 box. Every cell of
/// `cells` must touch `cells[0]`.
pub fn touching_one(grid: Grid, cells: &[Pos]) -> impl Iterator<Item = Pos> + '_ {
    grid.block(cells[0], 2).filter(move |&q| {
        !cells.contains(&q) && cells.iter().filter(|&&c| touches(q, c)).count() == 1
    })
}

/// Every pair of orthogonally adjacent cells `(a, b)`, `b` right of or below `a`, in row-major
/// order of `a` (the right neighbour first).
pub fn pairs(grid: Grid) -> impl Iterator<Item = (Pos, Pos)> {
    grid.positions().flat_map(move |a| {
        // By value in every edition (the bundle compiles under 2018 too).
        IntoIterator::into_iter([Pos::new(a.x + 1, a.y), Pos::new(a.x, a.y + 1)])
            .filter(move |&b| grid.contains(b))
            .map(move |b| (a, b))
    })
}

/// The orthogonal neighbours of `cell` on the grid: left, up, right, down.
pub fn partners(grid: Grid, cell: Pos) -> impl Iterator<Item = Pos> {
    let Pos { x, y } = cell;
    let left = x.checked_sub(1).map(|x| Pos::new(x, y));
    let up = y.checked_sub(1).map(|y| Pos::new(x, y));
    IntoIterator::into_iter([left, up, Some(Pos::new(x + 1, y)), Some(Pos::new(x, y + 1))])
        .flatten()
        .filter(move |&p| grid.contains(p))
}

/// The 2x2 box whose top-left cell is `corner`, row-major (it may reach off the grid).
pub fn square(corner: Pos) -> [Pos; 4] {
    let Pos { x, y } = corner;
    [
        Pos::new(x, y),
        Pos::new(x + 1, y),
        Pos::new(x, y + 1),
        Pos::new(x + 1, y + 1),
    ]
}

/// Every 2x2 box on the grid, row-major, in row-major order of its top-left cell.
pub fn all_boxes(grid: Grid) -> impl Iterator<Item = [Pos; 4]> {
    grid.positions()
        .map(square)
        .filter(move |b| grid.contains(b[3]))
}

/// The 2x2 boxes on the grid that hold `cell`, each row-major.
pub fn boxes(grid: Grid, cell: Pos) -> impl Iterator<Item = [Pos; 4]> {
    let xs = cell.x.saturating_sub(1)..=cell.x;
    xs.flat_map(move |x| (cell.y.saturating_sub(1)..=cell.y).map(move |y| square(Pos::new(x, y))))
        .filter(move |b| grid.contains(b[3]))
}

/// `ask(board)` with mines on all of `cells` (flagged for it); `board` is left as it was.
fn with_mines<T>(board: &mut Board, cells: &[Pos], ask: impl FnOnce(&Board) -> T) -> T {
    for &c in cells {
        board.set(c, Cell::Flagged);
    }
    let answer = ask(board);
    for &c in cells {
        board.set(c, Cell::Hidden);
    }
    answer
}

/// The analysis of `board` with mines on all of `cells` (flagged for it), or `None` if there is
/// no such arrangement or the analyzer gives up; `board` is left as it was. `calls` counts the
/// call.
pub fn analysis_with_mines(
    board: &mut Board,
    cells: &[Pos],
    calls: &mut Calls,
) -> Option<Analysis> {
    with_mines(board, cells, |b| calls.analyze(b).ok())
}

/// The share of the arrangements of `board` (`ln_total` the log of their number) with mines on
/// all of `cells`: 0 if there is none or the analyzer gives up. `board` is left as it was.
/// `calls` counts the count as a call.
pub fn share_with_mines(board: &mut Board, cells: &[Pos], ln_total: f64, calls: &mut Calls) -> f64 {
    let ln = with_mines(board, cells, |b| calls.ln_arrangements(b));
    ln.map_or(0.0, |ln| (ln - ln_total).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(cells: &[(usize, usize)]) -> Vec<Pos> {
        cells.iter().map(|&(x, y)| Pos::new(x, y)).collect()
    }

    #[test]
    fn side_cells_touch_one_cell_of_the_pair_or_box() {
        let grid = Grid::new(5, 5).unwrap();
        let pair: Vec<Pos> = touching_one(grid, &[Pos::new(1, 1), Pos::new(2, 1)]).collect();
        assert_eq!(pair, at(&[(0, 0), (3, 0), (0, 1), (3, 1), (0, 2), (3, 2)]));
        let corner: Vec<Pos> = touching_one(grid, &[Pos::new(0, 0), Pos::new(0, 1)]).collect();
        assert_eq!(corner, at(&[(0, 2), (1, 2)]));
        let beyond: Vec<Pos> = touching_one(grid, &square(Pos::new(1, 1))).collect();
        assert_eq!(beyond, at(&[(0, 0), (3, 0), (0, 3), (3, 3)]));
    }

    #[test]
    fn boxes_pairs_and_partners_stay_on_the_grid() {
        let grid = Grid::new(3, 3).unwrap();
        assert_eq!(boxes(grid, Pos::new(0, 0)).count(), 1);
        assert_eq!(boxes(grid, Pos::new(1, 1)).count(), 4);
        assert_eq!(boxes(grid, Pos::new(2, 1)).count(), 2);
        assert_eq!(all_boxes(grid).count(), 4);
        assert_eq!(partners(grid, Pos::new(0, 0)).count(), 2);
        assert_eq!(partners(grid, Pos::new(1, 1)).count(), 4);
        // 3 rows of 2 across, 3 columns of 2 down.
        assert_eq!(pairs(grid).count(), 12);
        let first: Vec<(Pos, Pos)> = pairs(grid).take(2).collect();
        assert_eq!(first[0], (Pos::new(0, 0), Pos::new(1, 0)));
        assert_eq!(first[1], (Pos::new(0, 0), Pos::new(0, 1)));
    }

    #[test]
    fn mines_on_cells_are_counted_and_taken_back() {
        // 2x1 with one mine and nothing shown: two arrangements, one with each cell a mine.
        let mut board = Board::new(2, 1, 1).unwrap();
        let before = board.clone();
        let mut calls = Calls::default();
        let total = 2f64.ln();
        let half = share_with_mines(&mut board, &[Pos::new(0, 0)], total, &mut calls);
        assert!((half - 0.5).abs() < 1e-12, "{half}");
        let both = [Pos::new(0, 0), Pos::new(1, 0)];
        assert_eq!(share_with_mines(&mut board, &both, total, &mut calls), 0.0);
        assert!(analysis_with_mines(&mut board, &both, &mut calls).is_none());
        assert_eq!(board, before);
        assert_eq!(calls.get(), 3);
    }
}
