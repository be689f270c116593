//! A brute force over every mine arrangement of a small board, written apart from the analyzer:
//! the reference of the bot's tests in both packages (the library's `tests/minesweeper_bot.rs`
//! and `play/tests/minesweeper_bot_games.rs`).

use std::collections::BTreeSet;

use cp_puzzles::minesweeper::game::Config;
use cp_puzzles::minesweeper::{Board, Cell, Pos};

/// Every cell of the board, row-major.
pub fn all_cells(c: &Config) -> impl Iterator<Item = Pos> {
    let (w, h) = (c.width(), c.height());
    (0..h).flat_map(move |y| (0..w).map(move |x| Pos { x, y }))
}

/// The neighbours of `p` on the board.
pub fn around(c: &Config, p: Pos) -> Vec<Pos> {
    all_cells(c)
        .filter(|q| q != &p && q.x.abs_diff(p.x) <= 1 && q.y.abs_diff(p.y) <= 1)
        .collect()
}

/// Every mine arrangement that fits `view` (a brute force over the subsets of its hidden,
/// unflagged cells, written apart from the analyzer): each as the set of mine cells.
pub fn arrangements(view: &Board) -> Vec<BTreeSet<Pos>> {
    let config = Config::new(view.width(), view.height(), view.mines()).unwrap();
    let cells: Vec<Pos> = all_cells(&config).collect();
    let hidden: Vec<Pos> = cells
        .iter()
        .copied()
        .filter(|&p| view.get(p) == Cell::Hidden)
        .collect();
    let flags = cells
        .iter()
        .filter(|&&p| view.get(p) == Cell::Flagged)
        .count();
    assert!(hidden.len() <= 20, "brute force on a board this large");
    let Some(left) = view.mines().checked_sub(flags) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for mask in 0u32..(1 << hidden.len()) {
        if mask.count_ones() as usize != left {
            continue;
        }
        let mine = |p: Pos| {
            view.get(p) == Cell::Flagged
                || hidden
                    .iter()
                    .position(|&h| h == p)
                    .is_some_and(|i| mask >> i & 1 == 1)
        };
        let fits = cells.iter().all(|&p| match view.get(p) {
            Cell::Revealed(n) => {
                around(&config, p).into_iter().filter(|&q| mine(q)).count() == n as usize
            }
            _ => true,
        });
        if fits {
            out.push(hidden.iter().copied().filter(|&p| mine(p)).collect());
        }
    }
    out
}
