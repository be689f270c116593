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

/// The forbidden mask of the row after next, as a function of the next row: what
/// [`forbidden`] gives for `above` followed by `r`, for any `r`, from a few masks computed once.
#[derive(Clone, Copy, Debug)]
pub struct Chain {
    /// Cells black in each of the last `k - 2` rows (the vertical runs `r` would extend).
    vertical: u32,
    /// The same for the down-right diagonals, aligned on the row after `r`.
    down: u32,
    /// The same for the down-left diagonals, aligned on the row after `r`.
    up: u32,
    /// Cells forbidden whatever `r` is (everything when `k == 1`).
    always: u32,
    full: u32,
}

impl Chain {
    /// The chain for rows `above` (top first) of `n` cells with no `k` in a row.
    #[must_use]
    pub fn new(above: &[u32], n: usize, k: usize) -> Self {
        let full = (1u32 << n) - 1;
        let none = Chain {
            vertical: 0,
            down: 0,
            up: 0,
            always: 0,
            full,
        };
        if k == 1 {
            return Chain {
                always: full,
                ..none
            };
        }
        if above.len() + 2 < k {
            return none;
        }
        let (mut vertical, mut down, mut up) = (full, full, full);
        for i in 2..k {
            let row = above[above.len() + 1 - i];
            vertical &= row;
            down &= row << i;
            up &= row >> i;
        }
        Chain {
            vertical,
            down,
            up,
            always: 0,
            full,
        }
    }

    /// `forbidden(above ++ [r])`.
    #[must_use]
    pub fn after(&self, r: u32) -> u32 {
        (self.always | r & self.vertical | r << 1 & self.down | r >> 1 & self.up) & self.full
    }
}

/// The valid rows that avoid each forbidden mask, most black first, so that the search touches
/// only the rows it may place.
///
/// When the full index (one list per mask, `sum over rows r of 2^(n - popcount r)` entries) would
/// exceed [`Compatible::MAX_ENTRIES`], one list of every valid row serves every mask, and the
/// caller must still test `row & f == 0`.
pub struct Compatible {
    /// `rows[start[key]..start[key + 1]]` are the candidates for `key`.
    start: Vec<u32>,
    /// The lists, when indexed. Their rows fit in 16 bits: past 16 cells only `K = 1` (whose one
    /// valid row is empty) stays under the limit; from `K = 2` on, the rows with up to four black
    /// cells already pass it.
    rows: Vec<u16>,
    /// The one list of every valid row, when not indexed.
    wide: Vec<u32>,
    indexed: bool,
}

impl Compatible {
    /// The most entries the full index may hold (2 bytes each).
    pub const MAX_ENTRIES: u64 = 1 << 24;

    /// Indexes `valid` (as sorted by [`valid_rows`]) for rows of `n` cells.
    #[must_use]
    pub fn new(valid: &[u32], n: usize) -> Self {
        let entries: u64 = valid
            .iter()
            .map(|r| 1u64 << (n as u32 - r.count_ones()))
            .sum();
        if entries > Self::MAX_ENTRIES {
            return Compatible {
                start: vec![0, valid.len() as u32],
                rows: Vec::new(),
                wide: valid.to_vec(),
                indexed: false,
            };
        }
        debug_assert!(valid.iter().all(|&r| u16::try_from(r).is_ok()));
        let mut start = Vec::with_capacity((1 << n) + 1);
        let mut rows = Vec::with_capacity(entries as usize);
        for f in 0..1u32 << n {
            start.push(rows.len() as u32);
            rows.extend(valid.iter().filter(|&&r| r & f == 0).map(|&r| r as u16));
        }
        start.push(rows.len() as u32);
        Compatible {
            start,
            rows,
            wide: Vec::new(),
            indexed: true,
        }
    }

    /// The index range of the candidates for the forbidden mask `f`; see [`Compatible::row`].
    #[must_use]
    pub fn range(&self, f: u32) -> std::ops::Range<usize> {
        let key = if self.indexed { f as usize } else { 0 };
        self.start[key] as usize..self.start[key + 1] as usize
    }

    /// The candidate at index `i` of a [`Compatible::range`].
    #[must_use]
    pub fn row(&self, i: usize) -> u32 {
        if self.indexed {
            u32::from(self.rows[i])
        } else {
            self.wide[i]
        }
    }
}
