//! Independent regions: exact play in a part of the board that the rest cannot affect.

use crate::minesweeper::bot::exact::{self, ExactClick, Region, MAX_CELLS};
use crate::minesweeper::bot::tolerance::SCORE_TIE;
use crate::minesweeper::{Analysis, Board, Cell, Pos};

/// The best click in a region of the board that is independent of the rest, with its win chance
/// within the region; `None` if no region qualifies.
///
/// The hidden cells split into regions that no revealed number and no neighbourhood links. A
/// region whose arrangements (at most `max_arrangements`) all hold the same number of mines is
/// independent: the board's arrangements are its arrangements times those of the rest, and what
/// its cells show depends only on it. So is the last region if all others are. The chance of
/// winning the game is then the product of the chances of the independent parts, whatever the
/// order of play, so the best click of any such region is a best first click for the game. Among
/// them: the lowest mine probability, then the highest win chance, then row-major.
/// `ln_total` is the log of the board's number of arrangements (see
/// [`crate::minesweeper::Analysis::ln_arrangements`]).
#[must_use]
pub fn region_click(view: &Board, max_arrangements: usize, ln_total: f64) -> Option<ExactClick> {
    let left = view.mines().checked_sub(view.flags())?;
    let cells = components(view);
    let mut regions: Vec<Option<Region>> = cells
        .iter()
        .map(|c| {
            (c.len() <= MAX_CELLS && cells.len() > 1)
                .then(|| Region::new(view, c.clone(), None, max_arrangements))
                .flatten()
        })
        .collect();
    let fixed = |r: &Option<Region>| r.as_ref().and_then(Region::fixed_mines);
    let variable: Vec<usize> = (0..regions.len())
        .filter(|&i| fixed(&regions[i]).is_none())
        .collect();
    if let [last] = variable[..] {
        // The others are fixed: this one holds the rest of the mines, and its arrangements are
        // the board's divided by theirs.
        let fixed_mines = regions.iter().filter_map(fixed).sum::<u32>();
        let ln_fixed: f64 = regions
            .iter()
            .flatten()
            .filter(|r| r.fixed_mines().is_some())
            .map(|r| (r.arrangements.len() as f64).ln())
            .sum();
        regions[last] = match (left as u32).checked_sub(fixed_mines) {
            Some(k)
                if cells[last].len() <= MAX_CELLS
                    && exact::within(ln_total - ln_fixed, max_arrangements) =>
            {
                Region::new(
                    view,
                    cells[last].clone(),
                    Some(k as usize),
                    max_arrangements,
                )
            }
            _ => None,
        };
    } else {
        for &i in &variable {
            regions[i] = None;
        }
    }
    let mut best: Option<ExactClick> = None;
    for r in regions.iter().flatten() {
        if r.arrangements.len() < 2 {
            continue;
        }
        let Some(c) = r.solve(max_arrangements) else {
            continue;
        };
        if best.is_none_or(|b| better(&c, &b)) {
            best = Some(c);
        }
    }
    best
}

/// Whether `c` is a better region click than `b`: a lower mine chance, then a higher win chance.
fn better(c: &ExactClick, b: &ExactClick) -> bool {
    let (q, m) = (c.mine_chance, b.mine_chance);
    q < m - SCORE_TIE || (q < m + SCORE_TIE && c.win_chance > b.win_chance + SCORE_TIE)
}

/// The stage: the region click and its mine probability (see [`region_click`]).
#[must_use]
pub fn guess(view: &Board, analysis: &Analysis, max: usize) -> Option<(Pos, f64)> {
    region_click(view, max, analysis.ln_arrangements).map(|c| (c.cell, c.mine_chance))
}

/// The hidden, unflagged cells grouped into regions: two cells are in the same region when they
/// are neighbours or touch the same revealed number. Each region is row-major.
fn components(view: &Board) -> Vec<Vec<Pos>> {
    let n = view.cells().len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let hidden = |i: usize| view.cells()[i] == Cell::Hidden;
    for p in view.positions() {
        let i = view.index(p);
        let link_to = match view.get(p) {
            Cell::Hidden => Some(i),
            Cell::Revealed(_) => None,
            Cell::Flagged => continue,
        };
        let mut first = link_to;
        for q in view.neighbours(p) {
            let j = view.index(q);
            if !hidden(j) {
                continue;
            }
            let root = *first.get_or_insert(j);
            let (a, b) = (find(&mut parent, root), find(&mut parent, j));
            parent[a] = b;
        }
    }
    let mut groups: Vec<Vec<Pos>> = Vec::new();
    let mut slot = vec![usize::MAX; n];
    for i in (0..n).filter(|&i| hidden(i)) {
        let r = find(&mut parent, i);
        if slot[r] == usize::MAX {
            slot[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[slot[r]].push(view.pos(i));
    }
    groups
}
