//! Where the mines are: a seeded, uniform placement that keeps the first click's cells free.

use super::config::{Config, FirstClick};
use super::error::Error;
use super::rng::Rng;
use super::Pos;
use crate::minesweeper::analyzer::choose;
use crate::minesweeper::Grid;

/// The hidden truth of one game: which cells are mines, and each cell's count of mine neighbours.
///
/// Invariant: `mine.len() == count.len() == config.cells()`, row-major, and exactly
/// `config.mines()` cells are mines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    config: Config,
    mine: Vec<bool>,
    count: Vec<u8>,
}

impl Layout {
    /// Places `config.mines()` mines uniformly at random among the cells that `rule` leaves free
    /// when the first click is at `first`: every such placement is equally likely, which is what
    /// the analyzer assumes. (Under `Safe` this is the rule "a mine under the first click moves to
    /// a random free cell", not Windows' "moves to the top-left corner", which would bias the
    /// layout.)
    ///
    /// # Errors
    /// As [`Config::check_first`]: `first` off the board, or no room for the mines outside the
    /// cells the rule keeps free.
    pub fn generate(
        config: Config,
        rule: FirstClick,
        first: Pos,
        rng: &mut Rng,
    ) -> Result<Layout, Error> {
        config.check_first(rule, first)?;
        let cells = config.cells();
        let mut keep_free = vec![false; cells];
        for p in config.free_block(rule, first) {
            keep_free[p.y * config.width() + p.x] = true;
        }
        let candidates: Vec<usize> = (0..cells).filter(|&i| !keep_free[i]).collect();
        let mut mine = vec![false; cells];
        for i in choose(&candidates, config.mines(), rng) {
            mine[i] = true;
        }
        Ok(Layout::from_mines(config, mine))
    }

    /// A layout with the given mines (row-major), for tests and hand-made boards.
    ///
    /// # Panics
    /// If `mine.len() != config.cells()` or the number of mines is not `config.mines()`.
    #[must_use]
    pub fn from_mines(config: Config, mine: Vec<bool>) -> Layout {
        assert_eq!(mine.len(), config.cells(), "one flag per cell");
        assert_eq!(mine.iter().filter(|&&m| m).count(), config.mines());
        let mut layout = Layout {
            config,
            count: vec![0; mine.len()],
            mine,
        };
        for i in 0..layout.mine.len() {
            let p = layout.pos(i);
            let n = neighbours(&config, p)
                .filter(|&q| layout.mine[layout.index(q)])
                .count();
            layout.count[i] = n as u8;
        }
        layout
    }

    #[must_use]
    pub fn config(&self) -> Config {
        self.config
    }

    /// Whether `p` is a mine.
    #[must_use]
    pub fn is_mine(&self, p: Pos) -> bool {
        self.mine[self.index(p)]
    }

    /// Whether `rule` allows this layout for a first click at `first`: the cells it keeps free
    /// (`first`, and under [`FirstClick::Opening`] its neighbours too) hold no mine. False for a
    /// `first` off the board.
    #[must_use]
    pub fn allows_first_click(&self, rule: FirstClick, first: Pos) -> bool {
        first.x < self.config.width()
            && first.y < self.config.height()
            && self
                .config
                .free_block(rule, first)
                .all(|p| !self.is_mine(p))
    }

    /// The number of mines among `p`'s neighbours.
    #[must_use]
    pub fn count(&self, p: Pos) -> u8 {
        self.count[self.index(p)]
    }

    pub(crate) fn index(&self, p: Pos) -> usize {
        p.y * self.config.width() + p.x
    }

    pub(crate) fn pos(&self, i: usize) -> Pos {
        Pos {
            x: i % self.config.width(),
            y: i / self.config.width(),
        }
    }
}

/// The up to 8 neighbours of `p` on a board of `config`'s shape, row-major.
pub(crate) fn neighbours(config: &Config, p: Pos) -> impl Iterator<Item = Pos> {
    let grid = Grid::new(config.width(), config.height()).expect("a config is at least 1x1");
    grid.neighbours(p)
}
