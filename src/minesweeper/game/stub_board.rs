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
