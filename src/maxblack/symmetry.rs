//! The 8 symmetries of the square, and the canonical representative of an orbit.

/// The image of `grid` (row `i`, bit `j` is cell `(i, j)`) under symmetry `s` in `0..8`.
#[must_use]
pub fn image(grid: &[u32], s: usize) -> Vec<u32> {
    let n = grid.len();
    let mut out = vec![0u32; n];
    for (i, &row) in grid.iter().enumerate() {
        for j in 0..n {
            if row >> j & 1 == 1 {
                let (a, b) = if s & 4 != 0 { (j, i) } else { (i, j) };
                let a = if s & 1 != 0 { n - 1 - a } else { a };
                let b = if s & 2 != 0 { n - 1 - b } else { b };
                out[a] |= 1 << b;
            }
        }
    }
    out
}

/// A key whose order is the order of the grid's rows concatenated as a string of `#` (black) and
/// `.` (white): column 0 is the most significant bit, and white is 1 since `#` sorts below `.`.
#[must_use]
pub fn key(grid: &[u32]) -> Vec<u32> {
    let n = grid.len() as u32;
    let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    grid.iter()
        .map(|&r| {
            if n == 0 {
                0
            } else {
                (!r & full).reverse_bits() >> (32 - n)
            }
        })
        .collect()
}

/// The canonical representative of `grid`'s orbit (the image with the smallest key), its key,
/// and the orbit's size.
#[must_use]
pub fn canonical(grid: &[u32]) -> (Vec<u32>, Vec<u32>, usize) {
    let mut images: Vec<(Vec<u32>, Vec<u32>)> = (0..8)
        .map(|s| {
            let g = image(grid, s);
            (key(&g), g)
        })
        .collect();
    images.sort();
    images.dedup();
    let size = images.len();
    let (k, g) = images.swap_remove(0);
    (g, k, size)
}

/// The orbit's size if `grid` is the image with the smallest key among those of its orbit that
/// `visited` accepts, else `None`: counting the grids of a walk that visits exactly the accepted
/// images this way counts each orbit once, without keeping any grid.
#[must_use]
pub fn size_if_first_visited(grid: &[u32], visited: impl Fn(&[u32]) -> bool) -> Option<usize> {
    let mut images: Vec<Vec<u32>> = (0..8).map(|s| image(grid, s)).collect();
    images.sort_unstable();
    images.dedup();
    let first = images
        .iter()
        .filter(|g| visited(g))
        .min_by_key(|g| key(g))?;
    (first.as_slice() == grid).then_some(images.len())
}
