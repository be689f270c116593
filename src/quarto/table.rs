//! The transposition table: a fixed power-of-two number of two-entry buckets, 16 bytes an entry.
//!
//! Each entry holds its whole key, so a lookup never confuses two positions. The first entry of a
//! bucket keeps the deepest search (most empty cells), the second is always replaced.

use super::board::{Cell, Piece};

/// What a stored value says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this.
    Lower,
    /// The true value is at most this.
    Upper,
}

/// A position as the table knows it: a board (raw encoding) and the piece in hand. Either the
/// real position or its canonical form; the search uses one or the other by the number of
/// pieces placed, so the two kinds never meet.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Key {
    pub pieces: u64,
    pub occupied: u16,
    pub hand: u8,
}

/// What a lookup finds.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// -1 (loss), 0 (draw) or 1 (win) for the player to move.
    pub value: i8,
    pub bound: Bound,
    /// The best move found, in the key's coordinates.
    pub best: Option<(Cell, Piece)>,
}

/// A table of `2 * buckets` entries.
pub struct Table {
    /// Invariant: the length is twice a power of two; a zero word is an empty slot.
    slots: Vec<u128>,
    /// `buckets - 1`.
    mask: u64,
}

const BOUND_SHIFT: u32 = 84;
const VALUE_SHIFT: u32 = 86;
const MOVE_SHIFT: u32 = 88;
const HAS_MOVE: u128 = 1 << 96;
const DEPTH_SHIFT: u32 = 97;
const KEY_BITS: u128 = (1 << 84) - 1;

impl Table {
    /// A table of `2^log2_buckets` buckets (32 bytes each). The memory is zeroed lazily by the
    /// allocator, so the pages a small search never touches cost nothing.
    #[must_use]
    pub fn new(log2_buckets: u32) -> Table {
        let buckets = 1usize << log2_buckets;
        Table {
            slots: vec![0u128; 2 * buckets],
            mask: (buckets - 1) as u64,
        }
    }

    /// The table's size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<u128>()
    }

    fn bucket(&self, key: &Key) -> usize {
        let h = (key.pieces ^ (u64::from(key.occupied) << 48) ^ u64::from(key.hand))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let h = (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        2 * ((h >> 20) & self.mask) as usize
    }

    fn packed_key(key: &Key) -> u128 {
        u128::from(key.pieces) | u128::from(key.occupied) << 64 | u128::from(key.hand) << 80
    }

    /// The entry stored for `key`, if any.
    #[must_use]
    pub fn probe(&self, key: &Key) -> Option<Entry> {
        let b = self.bucket(key);
        let k = Self::packed_key(key);
        let word = self.slots[b..b + 2]
            .iter()
            .copied()
            .find(|w| *w & KEY_BITS == k && *w >> BOUND_SHIFT & 3 != 0)?;
        let bound = match word >> BOUND_SHIFT & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        let best = (word & HAS_MOVE != 0).then(|| {
            let m = (word >> MOVE_SHIFT) as u8;
            (Cell::from_index(m >> 4), Piece::from_low_bits(m))
        });
        Some(Entry {
            value: (word >> VALUE_SHIFT & 3) as i8 - 1,
            bound,
            best,
        })
    }

    /// Stores `entry` for `key`, searched with `depth` empty cells.
    pub fn store(&mut self, key: &Key, depth: u32, entry: Entry) {
        let b = self.bucket(key);
        let k = Self::packed_key(key);
        let bound: u128 = match entry.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let mut word = k
            | bound << BOUND_SHIFT
            | ((entry.value + 1) as u128) << VALUE_SHIFT
            | u128::from(depth) << DEPTH_SHIFT;
        if let Some((c, p)) = entry.best {
            word |= HAS_MOVE | u128::from(c.index() << 4 | p.index()) << MOVE_SHIFT;
        }
        let first = self.slots[b];
        let first_depth = (first >> DEPTH_SHIFT) as u32;
        if first == 0 || first & KEY_BITS == k || first_depth <= depth {
            if first != 0 && first & KEY_BITS != k {
                self.slots[b + 1] = first;
            }
            self.slots[b] = word;
        } else {
            self.slots[b + 1] = word;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let mut t = Table::new(4);
        let key = Key {
            pieces: 0x1234,
            occupied: 0b111,
            hand: 9,
        };
        assert!(t.probe(&key).is_none());
        let best = Some((Cell::from_index(15), Piece::from_low_bits(15)));
        t.store(
            &key,
            13,
            Entry {
                value: -1,
                bound: Bound::Upper,
                best,
            },
        );
        let e = t.probe(&key).unwrap();
        assert_eq!((e.value, e.bound, e.best), (-1, Bound::Upper, best));
        let other = Key { hand: 8, ..key };
        assert!(t.probe(&other).is_none());
    }
}
