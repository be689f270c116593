//! One game in progress: the player's view, reveals with flood fill, flags, win and loss.

use super::config::{Config, ConfigError, FirstClick};
use super::layout::{neighbours, Layout};
use super::rng::Rng;
use super::{Board, Cell, Pos};

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// No mine has been revealed and some safe cell is still hidden.
    Playing,
    /// Every safe cell is revealed.
    Won,
    /// A mine was revealed.
    Lost,
}

/// What one click did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reveal {
    /// The cell was safe; `cells` cells were revealed (more than one when it opened an area).
    Opened { cells: usize },
    /// The cell was a mine: the game is lost.
    Exploded,
    /// Nothing happened: the game is over, or the cell is revealed or flagged.
    Ignored,
}

/// A game: the layout is drawn at the first click, so that the first-click rule holds wherever
/// that click is.
///
/// Invariants: `view` shows exactly the revealed cells' true counts and the player's flags;
/// `hidden_safe` is the number of mine-free cells not yet revealed (once the layout exists).
#[derive(Clone, Debug)]
pub struct Game {
    config: Config,
    rule: FirstClick,
    rng: Rng,
    layout: Option<Layout>,
    view: Board,
    hidden_safe: usize,
    status: Status,
}

impl Game {
    /// A new game whose layout will come from `seed`, drawn under `rule` at the first click.
    ///
    /// # Errors
    /// If the rule leaves no room for the mines (see [`Config::check_rule`]).
    pub fn new(config: Config, rule: FirstClick, seed: u64) -> Result<Game, ConfigError> {
        config.check_rule(rule)?;
        let view = Board::new(config.width(), config.height(), config.mines())
            .map_err(|e| ConfigError::Board(e.to_string()))?;
        Ok(Game {
            config,
            rule,
            rng: Rng::new(seed),
            layout: None,
            view,
            hidden_safe: config.cells() - config.mines(),
            status: Status::Playing,
        })
    }

    /// A game on a given layout (its first click has no guarantee), for tests.
    #[must_use]
    pub fn with_layout(layout: Layout) -> Game {
        let config = layout.config();
        let view = Board::new(config.width(), config.height(), config.mines())
            .expect("a layout's shape is a valid board");
        Game {
            config,
            rule: FirstClick::Safe,
            rng: Rng::new(0),
            layout: Some(layout),
            view,
            hidden_safe: config.cells() - config.mines(),
            status: Status::Playing,
        }
    }

    #[must_use]
    pub fn config(&self) -> Config {
        self.config
    }

    #[must_use]
    pub fn status(&self) -> Status {
        self.status
    }

    /// What the player sees: revealed counts, flags, and hidden cells.
    #[must_use]
    pub fn view(&self) -> &Board {
        &self.view
    }

    /// The layout, once the first click has drawn it.
    #[must_use]
    pub fn layout(&self) -> Option<&Layout> {
        self.layout.as_ref()
    }

    /// The number of safe cells still hidden.
    #[must_use]
    pub fn hidden_safe(&self) -> usize {
        self.hidden_safe
    }

    /// Clicks `p`: draws the layout if this is the first click, then reveals `p`, and if it shows
    /// 0, every cell reachable through zeros (iteratively, with an explicit stack). Flagged cells
    /// are never revealed by the flood.
    ///
    /// # Panics
    /// If `p` is off the board.
    pub fn reveal(&mut self, p: Pos) -> Reveal {
        assert!(p.x < self.config.width() && p.y < self.config.height());
        if self.status != Status::Playing || self.view.get(p) != Cell::Hidden {
            return Reveal::Ignored;
        }
        let layout = match self.layout.take() {
            Some(layout) => layout,
            None => Layout::generate(self.config, self.rule, p, &mut self.rng),
        };
        let result = if layout.is_mine(p) {
            self.status = Status::Lost;
            Reveal::Exploded
        } else {
            let cells = self.flood(&layout, p);
            if self.hidden_safe == 0 {
                self.status = Status::Won;
            }
            Reveal::Opened { cells }
        };
        self.layout = Some(layout);
        result
    }

    /// Reveals the safe cell `start` and the area of zeros around it; returns the cells revealed.
    fn flood(&mut self, layout: &Layout, start: Pos) -> usize {
        let mut stack = vec![start];
        let mut revealed = 0;
        self.open(layout, start);
        revealed += 1;
        while let Some(p) = stack.pop() {
            if layout.count(p) != 0 {
                continue;
            }
            for q in neighbours(&self.config, p) {
                if self.view.get(q) == Cell::Hidden {
                    self.open(layout, q);
                    revealed += 1;
                    stack.push(q);
                }
            }
        }
        revealed
    }

    /// Shows the true count of the safe, hidden cell `p`.
    fn open(&mut self, layout: &Layout, p: Pos) {
        debug_assert!(!layout.is_mine(p));
        self.view.set(p, Cell::Revealed(layout.count(p)));
        self.hidden_safe -= 1;
    }

    /// Puts a flag on the hidden cell `p` (or removes it). Flags never change the outcome: they
    /// only stop a click and the flood. Returns whether the cell changed.
    pub fn toggle_flag(&mut self, p: Pos) -> bool {
        let next = match self.view.get(p) {
            Cell::Hidden => Cell::Flagged,
            Cell::Flagged => Cell::Hidden,
            Cell::Revealed(_) => return false,
        };
        if self.status != Status::Playing {
            return false;
        }
        self.view.set(p, next);
        true
    }
}
