//! The generator's play: a layout, the player's view of it, and the analyzer's moves (every safe
//! cell revealed, every certain mine flagged) until the board is clear or no move is certain.

use crate::minesweeper::game::{Config, FirstClick, Layout};
use crate::minesweeper::{analyze_exact, Board, Cell, Grid, Pos};

/// Where a play stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Progress {
    /// Every safe cell is revealed.
    Cleared,
    /// Some safe cell is hidden and the analyzer finds no safe cell and no unflagged certain mine
    /// (or the position is over its budget).
    Stuck,
    /// The work budget is spent.
    OutOfWork,
}

/// A layout being played, whose mines the repairs may move.
///
/// Invariants: `count[i]` is the number of mines around board index `i`; every revealed cell of
/// `view` is mine-free and shows its `count`; every flag is on a mine; `hidden_safe` is the number
/// of mine-free cells not revealed.
pub(super) struct Replay {
    config: Config,
    grid: Grid,
    mine: Vec<bool>,
    count: Vec<u8>,
    view: Board,
    hidden_safe: usize,
    /// The cells the first-click rule keeps mine-free, which no mine may ever move under.
    protected: Vec<bool>,
}

impl Replay {
    /// The play of `layout` after its first click at `first`, where `rule` keeps `layout`
    /// mine-free.
    pub(super) fn new(layout: &Layout, rule: FirstClick, first: Pos) -> Replay {
        let config = layout.config();
        let grid = Grid::new(config.width(), config.height()).expect("a config is at least 1x1");
        let mine: Vec<bool> = grid.positions().map(|p| layout.is_mine(p)).collect();
        let count = grid.positions().map(|p| layout.count(p)).collect();
        let view = Board::new(config.width(), config.height(), config.mines())
            .expect("a config's shape is a valid board");
        let mut replay = Replay {
            config,
            grid,
            mine,
            count,
            view,
            hidden_safe: config.cells() - config.mines(),
            protected: Vec::new(),
        };
        replay.protected = vec![false; config.cells()];
        for p in config.free_block(rule, first) {
            replay.protected[grid.index(p)] = true;
        }
        replay.reveal(first);
        replay
    }

    /// The layout as it is now (after any repairs).
    pub(super) fn layout(&self) -> Layout {
        Layout::from_mines(self.config, self.mine.clone())
    }

    /// What the player sees.
    pub(super) fn view(&self) -> &Board {
        &self.view
    }

    /// Whether board index `i` is a mine.
    pub(super) fn is_mine(&self, i: usize) -> bool {
        self.mine[i]
    }

    /// Whether board index `i` is kept mine-free by the first-click rule.
    pub(super) fn protected(&self, i: usize) -> bool {
        self.protected[i]
    }

    /// The number of safe cells revealed.
    pub(super) fn revealed(&self) -> usize {
        self.config.cells() - self.config.mines() - self.hidden_safe
    }

    /// Plays the analyzer's certain moves until the board is clear or none is left. The moves that
    /// a single number decides are made first, without the analyzer (they are among its safe cells
    /// and certain mines, so the play is the same, only faster).
    /// Each analysis takes the board's cells from `work`; none is made once `work` is below them.
    pub(super) fn play(&mut self, work: &mut u64) -> Progress {
        let mut queue: Vec<usize> = (0..self.mine.len()).collect();
        let cells = self.mine.len() as u64;
        loop {
            self.single_numbers(&mut queue);
            if self.hidden_safe == 0 {
                return Progress::Cleared;
            }
            if *work < cells {
                return Progress::OutOfWork;
            }
            *work -= cells;
            let Ok(exact) = analyze_exact(&self.view) else {
                return Progress::Stuck;
            };
            let safe: Vec<Pos> = exact.safe().collect();
            let mines: Vec<Pos> = exact.mines().collect();
            if safe.is_empty() && mines.is_empty() {
                return Progress::Stuck;
            }
            for p in safe {
                self.reveal(p);
            }
            for p in mines {
                self.flag(p);
            }
            queue.extend(0..self.mine.len());
        }
    }

    /// Makes every move that one revealed number decides alone (its hidden neighbours all safe,
    /// or all mines), until none is left; `queue` holds the board indices to look at, and is empty
    /// on return.
    fn single_numbers(&mut self, queue: &mut Vec<usize>) {
        while let Some(i) = queue.pop() {
            let Cell::Revealed(n) = self.view.cells()[i] else {
                continue;
            };
            let p = self.grid.pos(i);
            let (mut hidden, mut flags) = (0, 0);
            for q in self.grid.neighbours(p) {
                match self.view.get(q) {
                    Cell::Hidden => hidden += 1,
                    Cell::Flagged => flags += 1,
                    Cell::Revealed(_) => {}
                }
            }
            let need = usize::from(n) - flags;
            if hidden == 0 || (need != 0 && need != hidden) {
                continue;
            }
            let around: Vec<Pos> = self
                .grid
                .neighbours(p)
                .filter(|&q| self.view.get(q) == Cell::Hidden)
                .collect();
            for q in around {
                let changed = if need == 0 {
                    self.reveal(q)
                } else {
                    self.flag(q);
                    vec![q]
                };
                for r in changed {
                    queue.extend(self.grid.block(r, 1).map(|s| self.grid.index(s)));
                }
            }
        }
    }

    /// Flags the certain mine `p`.
    fn flag(&mut self, p: Pos) {
        debug_assert!(self.mine[self.grid.index(p)], "a certain mine is a mine");
        self.view.set(p, Cell::Flagged);
    }

    /// Reveals the safe cell `start` (if hidden) and the area of zeros around it; returns the
    /// cells revealed.
    fn reveal(&mut self, start: Pos) -> Vec<Pos> {
        let mut opened = Vec::new();
        let mut stack = vec![start];
        while let Some(p) = stack.pop() {
            let i = self.grid.index(p);
            if self.view.cells()[i] != Cell::Hidden {
                continue;
            }
            debug_assert!(!self.mine[i], "the analyzer's safe cells are safe");
            self.view.set(p, Cell::Revealed(self.count[i]));
            self.hidden_safe -= 1;
            opened.push(p);
            if self.count[i] == 0 {
                stack.extend(self.grid.neighbours(p));
            }
        }
        opened
    }

    /// Moves the mine at board index `from` to the mine-free, hidden, unflagged index `to`, and
    /// updates the revealed numbers around both.
    pub(super) fn move_mine(&mut self, from: usize, to: usize) {
        debug_assert!(self.mine[from] && !self.mine[to]);
        debug_assert_eq!(self.view.cells()[to], Cell::Hidden);
        self.mine[from] = false;
        self.mine[to] = true;
        for (i, delta) in [(from, -1i8), (to, 1)] {
            for q in self.grid.neighbours(self.grid.pos(i)) {
                let j = self.grid.index(q);
                self.count[j] = self.count[j].wrapping_add_signed(delta);
                if let Cell::Revealed(_) = self.view.cells()[j] {
                    self.view.set(q, Cell::Revealed(self.count[j]));
                }
            }
        }
    }

    /// Moves the mine at board index `from` under the revealed cell `to` (outside the first
    /// click's area). The view is then stale: only [`layout`](Self::layout) may be used.
    pub(super) fn move_mine_under(&mut self, from: usize, to: usize) {
        debug_assert!(self.mine[from] && !self.mine[to] && !self.protected[to]);
        self.mine[from] = false;
        self.mine[to] = true;
    }
}
