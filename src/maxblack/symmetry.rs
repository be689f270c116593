//! The symmetries of a grid (8 for a square, 4 for any other rectangle), and the canonical
//! representative of an orbit.
//!
//! A grid is its rows, top first; bit `j` of a row is its cell in column `j`. Symmetry `s` in
//! `0..8` transposes when `s & 4`, then flips the rows upside down when `s & 1` and each row
//! left-right when `s & 2`. The rectangle's own group is `0..group_size(rows, cols)`: the
//! identity, the two mirrors and the half turn, and for a square the four symmetries that
//! transpose.

/// How many symmetries map a `rows` x `cols` grid onto a grid of the same shape.
#[must_use]
pub fn group_size(rows: usize, cols: usize) -> usize {
    if rows == cols {
        8
    } else {
        4
    }
}

/// The image of `grid` (rows of `width` cells) under symmetry `s` in `0..8`. When `s & 4`, the
/// image is `width` rows of `grid.len()` cells.
#[must_use]
pub fn image(grid: &[u32], width: usize, s: usize) -> Vec<u32> {
    let rows = grid.len();
    let (out_rows, out_width) = if s & 4 != 0 {
        (width, rows)
    } else {
        (rows, width)
    };
    let mut out = vec![0u32; out_rows];
    for (i, &row) in grid.iter().enumerate() {
        for j in 0..width {
            if row >> j & 1 == 1 {
                let (a, b) = if s & 4 != 0 { (j, i) } else { (i, j) };
                let a = if s & 1 != 0 { out_rows - 1 - a } else { a };
                let b = if s & 2 != 0 { out_width - 1 - b } else { b };
                out[a] |= 1 << b;
            }
        }
    }
    out
}

/// Row `r` of `width` cells read right to left.
#[must_use]
pub fn mirror(r: u32, width: usize) -> u32 {
    if width == 0 {
        0
    } else {
        r.reverse_bits() >> (32 - width)
    }
}

/// A key whose order is the order of the grid's rows concatenated as a string of `#` (black) and
/// `.` (white): column 0 is the most significant bit, and white is 1 since `#` sorts below `.`.
#[must_use]
pub fn key(grid: &[u32], width: usize) -> Vec<u32> {
    let full = if width == 32 {
        u32::MAX
    } else {
        (1u32 << width) - 1
    };
    grid.iter().map(|&r| mirror(!r & full, width)).collect()
}

/// The distinct images of `grid` under the rectangle's own symmetries.
fn images(grid: &[u32], width: usize) -> Vec<Vec<u32>> {
    let mut images: Vec<Vec<u32>> = (0..group_size(grid.len(), width))
        .map(|s| image(grid, width, s))
        .collect();
    images.sort_unstable();
    images.dedup();
    images
}

/// The canonical representative of `grid`'s orbit (the image with the smallest key), its key,
/// and the orbit's size.
#[must_use]
pub fn canonical(grid: &[u32], width: usize) -> (Vec<u32>, Vec<u32>, usize) {
    let mut keyed: Vec<(Vec<u32>, Vec<u32>)> = images(grid, width)
        .into_iter()
        .map(|g| (key(&g, width), g))
        .collect();
    keyed.sort_unstable();
    let size = keyed.len();
    let (k, g) = keyed.swap_remove(0);
    (g, k, size)
}

/// The orbit's size if `grid` is the image with the smallest key among those of its orbit that
/// `visited` accepts, else `None`: counting the grids of a walk that visits exactly the accepted
/// images this way counts each orbit once, without keeping any grid.
#[must_use]
pub fn size_if_first_visited(
    grid: &[u32],
    width: usize,
    visited: impl Fn(&[u32]) -> bool,
) -> Option<usize> {
    let images = images(grid, width);
    let first = images
        .iter()
        .filter(|g| visited(g))
        .min_by_key(|g| key(g, width))?;
    (first.as_slice() == grid).then_some(images.len())
}
