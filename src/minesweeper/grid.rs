//! The geometry of a rectangular board: a cell's coordinates, row-major indices, the cells around a
//! cell, and the square blocks around it. The board, the frontier, the game's layout and config,
//! and the bot all use it.

/// A cell's coordinates: `x` the column, `y` the row, both 0-based. Ordered row-major (by `y`, then
/// `x`): the field order below is what the derived `Ord` uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    pub y: usize,
    pub x: usize,
}

impl Pos {
    /// The cell in column `x`, row `y`.
    #[must_use]
    pub const fn new(x: usize, y: usize) -> Pos {
        Pos { y, x }
    }
}

/// A `width x height` rectangle of cells.
///
/// Invariant: `width >= 1` and `height >= 1` (checked by [`Grid::new`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    width: usize,
    height: usize,
}

impl Grid {
    /// The grid of `width x height` cells, or `None` if either side is 0.
    #[must_use]
    pub const fn new(width: usize, height: usize) -> Option<Grid> {
        if width == 0 || height == 0 {
            None
        } else {
            Some(Grid { width, height })
        }
    }

    /// The number of columns.
    #[must_use]
    pub const fn width(self) -> usize {
        self.width
    }

    /// The number of rows.
    #[must_use]
    pub const fn height(self) -> usize {
        self.height
    }

    /// The number of cells, `width * height`.
    #[must_use]
    pub const fn cells(self) -> usize {
        self.width * self.height
    }

    /// Whether `p` is on the grid.
    #[must_use]
    pub const fn contains(self, p: Pos) -> bool {
        p.x < self.width && p.y < self.height
    }

    /// The row-major index of `p`.
    ///
    /// # Panics
    /// If `p` is off the grid.
    #[must_use]
    pub fn index(self, p: Pos) -> usize {
        assert!(self.contains(p), "x {}, y {} is off the board", p.x, p.y);
        p.y * self.width + p.x
    }

    /// The position of row-major index `i` (`i < cells()` for a cell of the grid).
    #[must_use]
    pub const fn pos(self, i: usize) -> Pos {
        Pos::new(i % self.width, i / self.width)
    }

    /// Every position, row-major.
    pub fn positions(self) -> impl Iterator<Item = Pos> {
        (0..self.cells()).map(move |i| self.pos(i))
    }

    /// The cells at most `radius` columns and rows from `p` (`p` itself included), row-major,
    /// clipped to the grid: the 3x3 block around `p` for radius 1.
    pub fn block(self, p: Pos, radius: usize) -> impl Iterator<Item = Pos> {
        let ys = p.y.saturating_sub(radius)..=(p.y + radius).min(self.height - 1);
        ys.flat_map(move |y| {
            let xs = p.x.saturating_sub(radius)..=(p.x + radius).min(self.width - 1);
            xs.map(move |x| Pos::new(x, y))
        })
    }

    /// The up to 8 cells around `p` (not `p` itself), row-major.
    pub fn neighbours(self, p: Pos) -> impl Iterator<Item = Pos> {
        self.block(p, 1).filter(move |&q| q != p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_and_neighbours_are_clipped_to_the_grid() {
        let g = Grid::new(3, 2).unwrap();
        let corner: Vec<Pos> = g.neighbours(Pos::new(0, 0)).collect();
        assert_eq!(corner, [Pos::new(1, 0), Pos::new(0, 1), Pos::new(1, 1)]);
        assert_eq!(g.block(Pos::new(1, 1), 1).count(), 6);
        assert_eq!(g.block(Pos::new(1, 1), 2).count(), 6);
        assert_eq!(Grid::new(5, 5).unwrap().block(Pos::new(2, 2), 1).count(), 9);
        assert_eq!(
            Grid::new(5, 5).unwrap().neighbours(Pos::new(2, 2)).count(),
            8
        );
    }

    #[test]
    fn indices_and_positions_are_inverse_row_major() {
        let g = Grid::new(4, 3).unwrap();
        for (i, p) in g.positions().enumerate() {
            assert_eq!(g.index(p), i);
            assert_eq!(g.pos(i), p);
        }
        assert!(!g.contains(Pos::new(4, 0)));
        assert!(Grid::new(0, 3).is_none());
    }
}
