//! One game in progress: the player's view, reveals with flood fill, flags, win and loss.

use super::config::{Config, FirstClick};
use super::error::Error;
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

/// A game: the layout is drawn when the game is created, under the first-click rule for the cell
/// the player promises to click first.
///
/// Invariants: `view` shows exactly the revealed cells' true counts and the player's flags;
/// `hidden_safe` is the number of mine-free cells not yet revealed.
#[derive(Clone, Debug)]
pub struct Game {
    config: Config,
    layout: Layout,
    view: Board,
    hidden_safe: usize,
    status: Status,
    /// The mine whose reveal lost the game (`Some` exactly when `status` is `Lost`).
    hit: Option<Pos>,
}

impl Game {
    /// A new game whose layout is drawn from `seed` so that `rule` holds when the first click is
    /// at `first` (a game whose first click goes elsewhere has no guarantee). The same arguments
    /// give the same layout on every machine.
    ///
    /// # Errors
    /// `first` off the board, or the rule leaves no room for the mines there (see
    /// [`Config::check_first`]).
    pub fn new(config: Config, rule: FirstClick, first: Pos, seed: u64) -> Result<Game, Error> {
        let layout = Layout::generate(config, rule, first, &mut Rng::new(seed))?;
        let view =
            Board::new(config.width(), config.height(), config.mines()).map_err(Error::Board)?;
        Ok(Game::start(layout, view))
    }

    /// A game on a given layout (its first click has no guarantee), for tests.
    #[must_use]
    pub fn with_layout(layout: Layout) -> Game {
        let config = layout.config();
        // A `Config` always has a valid board shape (its invariant is the board's).
        let view = Board::new(config.width(), config.height(), config.mines())
            .expect("a layout's shape is a valid board");
        Game::start(layout, view)
    }

    /// The game before its first click on `layout`, `view` all hidden.
    fn start(layout: Layout, view: Board) -> Game {
        let config = layout.config();
        Game {
            config,
            layout,
            view,
            hidden_safe: config.cells() - config.mines(),
            status: Status::Playing,
            hit: None,
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

    /// The layout: where the mines are.
    #[must_use]
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The mine whose reveal lost the game, or `None` while it is not lost.
    #[must_use]
    pub fn hit(&self) -> Option<Pos> {
        self.hit
    }

    /// The number of safe cells still hidden.
    #[must_use]
    pub fn hidden_safe(&self) -> usize {
        self.hidden_safe
    }

    /// Clicks `p`: reveals it, and if it shows 0, every cell reachable through zeros
    /// (iteratively, with an explicit stack). Flagged cells are never revealed by the flood.
    /// A cell off the board is ignored, like a revealed or flagged one.
    pub fn reveal(&mut self, p: Pos) -> Reveal {
        if self.status != Status::Playing || !self.is_hidden(p) {
            return Reveal::Ignored;
        }
        if self.layout.is_mine(p) {
            self.status = Status::Lost;
            self.hit = Some(p);
            return Reveal::Exploded;
        }
        let cells = self.flood(p);
        if self.hidden_safe == 0 {
            self.status = Status::Won;
        }
        Reveal::Opened { cells }
    }

    /// Chords `p`: if `p` shows a number and exactly that many of its neighbours are flagged,
    /// reveals its other hidden neighbours in row-major order, as clicks would. A wrong flag
    /// leaves a mine among them: the game is then lost on the first one, and the rest stay hidden.
    /// Returns `Opened` with the cells revealed (floods included), `Exploded`, or `Ignored` when
    /// nothing changed: `p` off the board, hidden or flagged, a flag count that differs from the
    /// number, no hidden neighbour, or the game over.
    pub fn chord(&mut self, p: Pos) -> Reveal {
        if self.status != Status::Playing || !self.view.grid().contains(p) {
            return Reveal::Ignored;
        }
        let Cell::Revealed(number) = self.view.get(p) else {
            return Reveal::Ignored;
        };
        let around: Vec<Pos> = neighbours(&self.config, p).collect();
        let flags = around
            .iter()
            .filter(|&&q| self.view.get(q) == Cell::Flagged)
            .count();
        if flags != usize::from(number) {
            return Reveal::Ignored;
        }
        let mut cells = 0;
        for q in around {
            match self.reveal(q) {
                Reveal::Opened { cells: n } => cells += n,
                Reveal::Exploded => return Reveal::Exploded,
                Reveal::Ignored => {}
            }
        }
        if cells == 0 {
            Reveal::Ignored
        } else {
            Reveal::Opened { cells }
        }
    }

    /// Whether `p` is on the board, neither revealed nor flagged.
    fn is_hidden(&self, p: Pos) -> bool {
        self.view.grid().contains(p) && self.view.get(p) == Cell::Hidden
    }

    /// Reveals the safe cell `start` and the area of zeros around it; returns the cells revealed.
    fn flood(&mut self, start: Pos) -> usize {
        let mut stack = vec![start];
        let mut revealed = 0;
        self.open(start);
        revealed += 1;
        while let Some(p) = stack.pop() {
            if self.layout.count(p) != 0 {
                continue;
            }
            for q in neighbours(&self.config, p) {
                if self.view.get(q) == Cell::Hidden {
                    self.open(q);
                    revealed += 1;
                    stack.push(q);
                }
            }
        }
        revealed
    }

    /// Shows the true count of the safe, hidden cell `p`.
    fn open(&mut self, p: Pos) {
        debug_assert!(!self.layout.is_mine(p));
        self.view.set(p, Cell::Revealed(self.layout.count(p)));
        self.hidden_safe -= 1;
    }

    /// Puts a flag on the hidden cell `p` (or removes it). Flags never change the outcome: they
    /// only stop a click and the flood. Returns whether the cell changed (never for a cell off
    /// the board).
    pub fn toggle_flag(&mut self, p: Pos) -> bool {
        if !self.view.grid().contains(p) {
            return false;
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A game on the `rows` (`*` a mine, anything else safe).
    fn game(rows: &[&str]) -> Game {
        let (width, height) = (rows[0].len(), rows.len());
        let mine: Vec<bool> = rows
            .iter()
            .flat_map(|r| r.bytes().map(|b| b == b'*'))
            .collect();
        let mines = mine.iter().filter(|&&m| m).count();
        let config = Config::new(width, height, mines).unwrap();
        Game::with_layout(Layout::from_mines(config, mine))
    }

    #[test]
    fn a_chord_reveals_the_neighbours_once_the_flags_match_the_number() {
        let mut g = game(&["*..", "...", "..*"]);
        let centre = Pos::new(1, 1);
        assert_eq!(g.reveal(centre), Reveal::Opened { cells: 1 });
        // The centre shows 2; with one flag the chord does nothing.
        assert!(g.toggle_flag(Pos::new(0, 0)));
        assert_eq!(g.chord(centre), Reveal::Ignored);
        assert!(g.toggle_flag(Pos::new(2, 2)));
        assert_eq!(g.chord(centre), Reveal::Opened { cells: 6 });
        assert_eq!(g.status(), Status::Won);
        assert_eq!(g.hit(), None);
    }

    #[test]
    fn a_chord_floods_from_a_zero_it_opens() {
        let mut g = game(&["*....", ".....", "....."]);
        g.reveal(Pos::new(1, 1));
        g.toggle_flag(Pos::new(0, 0));
        assert_eq!(g.chord(Pos::new(1, 1)), Reveal::Opened { cells: 13 });
        assert_eq!(g.status(), Status::Won);
    }

    #[test]
    fn a_chord_with_a_wrong_flag_loses_on_the_first_mine() {
        let mut g = game(&["*.*", "...", "..."]);
        g.reveal(Pos::new(1, 1));
        g.toggle_flag(Pos::new(0, 1));
        g.toggle_flag(Pos::new(1, 0));
        assert_eq!(g.chord(Pos::new(1, 1)), Reveal::Exploded);
        assert_eq!(g.status(), Status::Lost);
        assert_eq!(g.hit(), Some(Pos::new(0, 0)));
        // The neighbours after the mine stay hidden.
        assert_eq!(g.view().get(Pos::new(2, 2)), Cell::Hidden);
    }

    #[test]
    fn a_chord_on_anything_but_a_number_does_nothing() {
        let mut g = game(&["*..", "...", "..."]);
        assert_eq!(g.chord(Pos::new(1, 1)), Reveal::Ignored);
        assert_eq!(g.chord(Pos::new(5, 1)), Reveal::Ignored);
        g.toggle_flag(Pos::new(1, 1));
        assert_eq!(g.chord(Pos::new(1, 1)), Reveal::Ignored);
        assert_eq!(g.reveal(Pos::new(0, 0)), Reveal::Exploded);
        assert_eq!(g.hit(), Some(Pos::new(0, 0)));
        assert_eq!(g.chord(Pos::new(2, 2)), Reveal::Ignored);
    }
}
