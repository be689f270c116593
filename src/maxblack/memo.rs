//! A table of proved failures: "from this state, the remaining rows cannot add `need` black cells".
//!
//! The rows still to come depend on the rows placed so far only through a packed state (the next
//! row's forbidden mask and the last `K - 2` rows, see `Search::state`) and through the
//! restriction the search puts on the subtree (see [`Situation`]). So a
//! subtree that found nothing for some `need` proves that every other path reaching the same state,
//! restriction and number of remaining rows with a `need` at least as large will find nothing
//! either. The table keeps, per key, the smallest such `need`. It is a fixed-size cache: a newer
//! entry replaces an older one in the same slot, which only costs repeated work, never a wrong
//! answer, since each entry states a fact proved on its own.

/// What, besides the state, decides the subtree's outcome.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Situation {
    /// Rows still to place (>= 1).
    pub remaining: u32,
    /// Rows in the state: `min(rows placed, K - 1)`.
    pub depth_in_state: u32,
    /// The restriction on the subtree, as a small number whose meaning the search fixes (e.g. the
    /// most black cells the rest may hold), or 0 for none.
    pub restriction: u32,
}

impl Situation {
    /// The tag stored beside the state. Never 0, since `remaining >= 1`, so an empty slot never
    /// matches.
    fn tag(self) -> u32 {
        debug_assert!((1..32).contains(&self.remaining) && self.depth_in_state < 16);
        debug_assert!(self.restriction < 1 << 23);
        self.remaining | self.depth_in_state << 5 | self.restriction << 9
    }
}

/// One slot: the state, and the tag (low 32 bits) with the smallest `need` proved out of reach
/// (high 32 bits). All zeros is an empty slot (no tag is 0), so the table starts as zeroed memory
/// that the allocator hands out without touching it.
type Entry = [u64; 2];

fn entry(state: u64, tag: u32, need: u32) -> Entry {
    [state, u64::from(tag) | u64::from(need) << 32]
}

fn matches(e: &Entry, state: u64, tag: u32) -> bool {
    e[1] as u32 == tag && e[0] == state
}

fn need_of(e: &Entry) -> u32 {
    (e[1] >> 32) as u32
}

/// The failure table: `2^bits` slots in buckets of two. A new key goes first in its bucket and
/// the previous first entry moves second (the older second entry is dropped).
pub struct Memo {
    slots: Vec<Entry>,
    /// The bucket index mask (bucket `b` holds slots `2b` and `2b + 1`).
    mask: usize,
}

impl Memo {
    /// A table of `2^bits` slots (16 bytes each).
    #[must_use]
    pub fn new(bits: u32) -> Self {
        Memo {
            slots: vec![[0; 2]; 1 << bits],
            mask: (1 << (bits - 1)) - 1,
        }
    }

    fn slot(&self, state: u64, tag: u32) -> usize {
        let h = (state ^ u64::from(tag).rotate_left(40)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        2 * ((h >> 32) as usize & self.mask)
    }

    /// Whether the table proves that `need` more black cells are out of reach from `state`.
    #[must_use]
    pub fn proves_out_of_reach(&self, state: u64, at: Situation, need: u32) -> bool {
        let tag = at.tag();
        let i = self.slot(state, tag);
        self.slots[i..i + 2]
            .iter()
            .any(|e| matches(e, state, tag) && need >= need_of(e))
    }

    /// Asks the processor to bring the slot of `(state, at)` into cache, so that a probe soon
    /// after does not wait for memory. Only a hint: it has no effect on results.
    pub fn prefetch(&self, state: u64, at: Situation) {
        let i = self.slot(state, at.tag());
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.slots[i..].as_ptr().cast::<i8>();
            // SAFETY: prefetching is a hint that never faults, and `p` points into `slots`.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }

    /// Records that `need` more black cells are out of reach from `state`.
    pub fn record_out_of_reach(&mut self, state: u64, at: Situation, need: u32) {
        let tag = at.tag();
        let i = self.slot(state, tag);
        let bucket = &mut self.slots[i..i + 2];
        if let Some(e) = bucket.iter_mut().find(|e| matches(e, state, tag)) {
            *e = entry(state, tag, need.min(need_of(e)));
            return;
        }
        let new = entry(state, tag, need);
        bucket[1] = bucket[0];
        bucket[0] = new;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_the_smallest_need() {
        let mut m = Memo::new(4);
        let at = Situation {
            remaining: 3,
            depth_in_state: 2,
            restriction: 5,
        };
        assert!(!m.proves_out_of_reach(7, at, 9));
        m.record_out_of_reach(7, at, 9);
        assert!(m.proves_out_of_reach(7, at, 9));
        assert!(m.proves_out_of_reach(7, at, 10));
        assert!(!m.proves_out_of_reach(7, at, 8));
        m.record_out_of_reach(7, at, 6);
        assert!(m.proves_out_of_reach(7, at, 8));
        assert!(!m.proves_out_of_reach(8, at, 9));
    }
}
