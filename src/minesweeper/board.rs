//! The board: its size, its mine count and what each cell shows.

use std::fmt;

use super::error::{Error, MAX_SIDE};
use super::grid::{Grid, Pos};

/// What a cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Not revealed, not flagged.
    Hidden,
    /// Flagged: counts as a mine.
    Flagged,
    /// Revealed, showing how many of its neighbours are mines (0 to 8).
    Revealed(u8),
}

/// A board of `width x height` cells with `mines` mines in total, flagged ones included.
///
/// Invariants: `1 <= width, height <= 1000`, `mines <= width * height`,
/// `cells.len() == width * height`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    grid: Grid,
    mines: usize,
    /// Row-major: the cell at `p` is `cells[grid.index(p)]`.
    cells: Vec<Cell>,
}

impl Board {
    /// A board with every cell hidden.
    ///
    /// # Errors
    /// [`Error::Size`] unless `1 <= width, height <= 1000` and `mines <= width * height`.
    pub fn new(width: usize, height: usize, mines: usize) -> Result<Board, Error> {
        let grid = Grid::new(width, height)
            .filter(|g| g.width() <= MAX_SIDE && g.height() <= MAX_SIDE && mines <= g.cells())
            .ok_or(Error::Size {
                width,
                height,
                mines,
            })?;
        Ok(Board {
            grid,
            mines,
            cells: vec![Cell::Hidden; grid.cells()],
        })
    }

    /// The board's geometry.
    #[must_use]
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// The number of columns.
    #[must_use]
    pub fn width(&self) -> usize {
        self.grid.width()
    }

    /// The number of rows.
    #[must_use]
    pub fn height(&self) -> usize {
        self.grid.height()
    }

    /// The total number of mines, flagged ones included.
    #[must_use]
    pub fn mines(&self) -> usize {
        self.mines
    }

    /// What the cell at `p` shows.
    ///
    /// # Panics
    /// If `p` is off the board.
    #[must_use]
    pub fn get(&self, p: Pos) -> Cell {
        self.cells[self.index(p)]
    }

    /// Sets the cell at `p`. A revealed number is not checked against the neighbours.
    ///
    /// # Panics
    /// If `p` is off the board.
    pub fn set(&mut self, p: Pos, c: Cell) {
        let i = self.index(p);
        self.cells[i] = c;
    }

    /// The up to 8 cells around `p`, row-major.
    pub fn neighbours(&self, p: Pos) -> impl Iterator<Item = Pos> {
        self.grid.neighbours(p)
    }

    /// The cells, row-major.
    #[must_use]
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The row-major index of `p`.
    ///
    /// # Panics
    /// If `p` is off the board.
    #[must_use]
    pub fn index(&self, p: Pos) -> usize {
        self.grid.index(p)
    }

    /// The position of row-major index `i`.
    #[must_use]
    pub fn pos(&self, i: usize) -> Pos {
        self.grid.pos(i)
    }

    /// Every position, row-major.
    pub fn positions(&self) -> impl Iterator<Item = Pos> {
        self.grid.positions()
    }

    /// The number of flagged cells.
    #[must_use]
    pub fn flags(&self) -> usize {
        self.cells.iter().filter(|&&c| c == Cell::Flagged).count()
    }
}

/// Writes the board in the `.mine` format that [`Board::parse`] reads: `WxHxM`, then one line per row
/// (`H` hidden, `F` flagged, `0`-`8` revealed).
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}x{}x{}", self.width(), self.height(), self.mines)?;
        for row in self.cells.chunks(self.width()) {
            let line: String = row
                .iter()
                .map(|c| match c {
                    Cell::Hidden => 'H',
                    Cell::Flagged => 'F',
                    Cell::Revealed(n) => char::from(b'0' + n),
                })
                .collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}
