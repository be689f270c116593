//! The row tables fixed by the row width and K, shared by every walk.

use super::super::rows;

/// The tables fixed by the row width `n` and `k`: built once, read by every walk (and shared by
/// the threads of the final walk).
pub struct Tables {
    /// Cells per row (<= 20).
    pub n: usize,
    /// The run length no line may reach (at most one more than the longest side).
    pub k: usize,
    /// The valid rows that avoid each forbidden mask, most black first.
    pub compatible: rows::Compatible,
    /// `best_row[f]`: the most black cells in a valid row avoiding mask `f`.
    pub best_row: Vec<u8>,
}

impl Tables {
    /// The tables for rows of `n` cells with no `k` in a row.
    #[must_use]
    pub fn new(n: usize, k: usize) -> Self {
        let valid = rows::valid_rows(n, k);
        Tables {
            n,
            k,
            compatible: rows::Compatible::new(&valid, n),
            best_row: rows::best_row_table(n, k),
        }
    }
}
