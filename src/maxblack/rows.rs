//! The rules on one row: which rows are valid, and which cells a new row must leave white.

/// The rows of `n` cells (bit `j` is column `j`, set for black) with no `k` consecutive black cells,
/// sorted by popcount, most black first, then by value.
#[must_use]
pub fn valid_rows(n: usize, k: usize) -> Vec<u32> {
    let mut rows: Vec<u32> = (0..1u32 << n).filter(|&r| longest_run(r) < k).collect();
    rows.sort_by_key(|&r| (std::cmp::Reverse(r.count_ones()), r));
    rows
}

/// The length of the longest run of set bits in `r`.
#[must_use]
pub fn longest_run(mut r: u32) -> usize {
    let mut len = 0;
    while r != 0 {
        r &= r << 1;
        len += 1;
    }
    len
}

/// `table[f]` is the most black cells in a valid row of `n` cells that avoids the mask `f`.
///
/// # Complexity
/// O(2^n * n) time and 2^n bytes.
#[must_use]
pub fn best_row_table(n: usize, k: usize) -> Vec<u8> {
    let full = (1u32 << n) - 1;
    // within[s]: the most black cells in a valid row that is a subset of s. Validity is closed
    // under subsets, so a valid s is its own best, and otherwise one cell of s is left out.
    let mut within = vec![0u8; 1 << n];
    for s in 1..=full {
        within[s as usize] = if longest_run(s) < k {
            s.count_ones() as u8
        } else {
            let mut best = 0;
            let mut rest = s;
            while rest != 0 {
                let bit = rest & rest.wrapping_neg();
                best = best.max(within[(s ^ bit) as usize]);
                rest ^= bit;
            }
            best
        };
    }
    (0..=full).map(|f| within[(!f & full) as usize]).collect()
}

/// The cells of the next row that would end a vertical or diagonal run of `k` black cells, given
/// the rows placed so far (`above`, top first). Nothing is forbidden until `k - 1` rows are placed,
/// except when `k == 1`, where every cell is.
#[must_use]
pub fn forbidden(above: &[u32], n: usize, k: usize) -> u32 {
    let full = (1u32 << n) - 1;
    if above.len() + 1 < k {
        return 0;
    }
    let (mut vertical, mut down, mut up) = (full, full, full);
    for i in 1..k {
        let row = above[above.len() - i];
        vertical &= row;
        down &= row << i;
        up &= row >> i;
    }
    (vertical | down | up) & full
}
