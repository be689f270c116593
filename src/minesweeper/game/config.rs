//! What game to play: the board's size and mine count, and the first-click rule.

use std::fmt;

use super::error::Error;
use super::Pos;
use crate::minesweeper::{Grid, MAX_SIDE};

/// A board's shape and mine count.
///
/// Invariant (checked by [`Config::new`]): `1 <= width, height <= MAX_SIDE` and
/// `mines < width * height`, so that at least the first click is mine-free.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    width: usize,
    height: usize,
    mines: usize,
}

/// The three standard levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// 9 x 9, 10 mines.
    Beginner,
    /// 16 x 16, 40 mines.
    Intermediate,
    /// 30 x 16 (width x height), 99 mines.
    Expert,
}

/// Where the first click goes and what it is guaranteed to find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstClick {
    /// The first click is never a mine (the classic rule); the bot clicks the corner (0, 0).
    Safe,
    /// The first click and its neighbours are mine-free, so it opens an area; the bot clicks (3, 3)
    /// (or the nearest cell to it on a smaller board).
    Opening,
}

impl Config {
    /// A board of `width` x `height` cells with `mines` mines.
    ///
    /// # Errors
    /// [`Error::BadSize`] for a side of 0 or over [`MAX_SIDE`], [`Error::TooManyMines`] if
    /// `mines >= width * height`.
    pub fn new(width: usize, height: usize, mines: usize) -> Result<Config, Error> {
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(Error::BadSize { width, height });
        }
        let room = width * height - 1;
        if mines > room {
            return Err(Error::TooManyMines { mines, room });
        }
        Ok(Config {
            width,
            height,
            mines,
        })
    }

    /// The configuration of a standard level.
    #[must_use]
    pub fn level(level: Level) -> Config {
        let (width, height, mines) = match level {
            Level::Beginner => (9, 9, 10),
            Level::Intermediate => (16, 16, 40),
            Level::Expert => (30, 16, 99),
        };
        Config {
            width,
            height,
            mines,
        }
    }

    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    #[must_use]
    pub fn height(&self) -> usize {
        self.height
    }

    #[must_use]
    pub fn mines(&self) -> usize {
        self.mines
    }

    /// The number of cells.
    #[must_use]
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Checks that the rule leaves room for the mines when the first click is at the rule's own
    /// cell ([`FirstClick::cell`]).
    ///
    /// # Errors
    /// As [`Config::check_first`].
    pub fn check_rule(&self, rule: FirstClick) -> Result<(), Error> {
        self.check_first(rule, rule.cell(self))
    }

    /// Checks that `first` is on the board and that `rule` leaves room for the mines when the
    /// first click is there (under [`FirstClick::Opening`] its 3x3 block, clipped to the board,
    /// must stay free).
    ///
    /// # Errors
    /// [`Error::OffBoard`] or [`Error::TooManyMines`].
    pub fn check_first(&self, rule: FirstClick, first: Pos) -> Result<(), Error> {
        if first.x >= self.width || first.y >= self.height {
            return Err(Error::OffBoard {
                cell: first,
                width: self.width,
                height: self.height,
            });
        }
        let free = self.free_block(rule, first).count();
        let room = self.cells() - free;
        if self.mines > room {
            return Err(Error::TooManyMines {
                mines: self.mines,
                room,
            });
        }
        Ok(())
    }

    /// The cells that `rule` keeps mine-free when the first click is at `first`.
    pub(crate) fn free_block(&self, rule: FirstClick, first: Pos) -> impl Iterator<Item = Pos> {
        let radius = match rule {
            FirstClick::Safe => 0,
            FirstClick::Opening => 1,
        };
        let grid = Grid::new(self.width, self.height).expect("a config is at least 1x1");
        grid.block(first, radius)
    }
}

/// `WxH/M`, as in `30x16/99`.
impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}/{}", self.width, self.height, self.mines)
    }
}

impl FirstClick {
    /// The bot's first click under this rule: the corner (0, 0) for `Safe`, (3, 3) for `Opening`
    /// (clamped to the board).
    #[must_use]
    pub fn cell(self, config: &Config) -> Pos {
        match self {
            FirstClick::Safe => Pos { x: 0, y: 0 },
            FirstClick::Opening => Pos {
                x: 3.min(config.width - 1),
                y: 3.min(config.height - 1),
            },
        }
    }
}
