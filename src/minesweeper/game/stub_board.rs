//! TEMPORARY: the shared API until the analyzer's board.rs is merged.
#![allow(dead_code)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    pub y: usize,
    pub x: usize,
}
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Hidden,
    Flagged,
    Revealed(u8),
}
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    w: usize,
    h: usize,
    m: usize,
    cells: Vec<Cell>,
}
impl Board {
    pub fn new(w: usize, h: usize, m: usize) -> Result<Board, String> {
        Ok(Board {
            w,
            h,
            m,
            cells: vec![Cell::Hidden; w * h],
        })
    }
    pub fn width(&self) -> usize {
        self.w
    }
    pub fn height(&self) -> usize {
        self.h
    }
    pub fn mines(&self) -> usize {
        self.m
    }
    pub fn get(&self, p: Pos) -> Cell {
        self.cells[p.y * self.w + p.x]
    }
    pub fn set(&mut self, p: Pos, c: Cell) {
        self.cells[p.y * self.w + p.x] = c
    }
}
pub struct Analysis {
    pub safe: Vec<Pos>,
    pub mines: Vec<Pos>,
    pub best: (Pos, f64),
    pub probabilities: Vec<(Pos, f64)>,
}
pub fn analyze(b: &Board) -> Result<Analysis, String> {
    let mut probabilities = Vec::new();
    for y in 0..b.h {
        for x in 0..b.w {
            if b.get(Pos { x, y }) == Cell::Hidden {
                probabilities.push((Pos { x, y }, 0.5));
            }
        }
    }
    Ok(Analysis {
        safe: vec![],
        mines: vec![],
        best: probabilities[0],
        probabilities,
    })
}
impl Board {
    pub fn neighbours(&self, p: Pos) -> impl Iterator<Item = Pos> + '_ {
        let (w, h) = (self.w, self.h);
        (p.y.saturating_sub(1)..=(p.y + 1).min(h - 1))
            .flat_map(move |y| {
                (p.x.saturating_sub(1)..=(p.x + 1).min(w - 1)).map(move |x| Pos { x, y })
            })
            .filter(move |&q| q != p)
    }
}
