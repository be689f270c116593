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

use std::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};

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

/// `len` atomic words at 0, from zeroed memory that the allocator hands out without touching it
/// (a large table costs only the pages a search reaches).
fn zeroed_words(len: usize) -> Vec<AtomicU64> {
    const { assert!(std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>()) };
    let mut words = std::mem::ManuallyDrop::new(vec![0u64; len]);
    // SAFETY: `AtomicU64` has the size, alignment (checked above) and bit validity of `u64`, so
    // the allocation of `len` zeroed `u64` is one of `len` atomics at 0, with the same layout to
    // free it with; `words` is not used again.
    unsafe {
        Vec::from_raw_parts(
            words.as_mut_ptr().cast::<AtomicU64>(),
            len,
            words.capacity(),
        )
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

/// The failure table: `2^bits` slots in buckets of two, shared by the threads of the final walk.
/// A new key goes first in its bucket and the previous first entry moves second (the older
/// second entry is dropped).
///
/// Each bucket has a sequence number (a seqlock): a writer makes it odd while it writes, and a
/// reader reads again when the number was odd or changed meanwhile. So no reader ever sees half
/// of one entry and half of another, and every entry read is a fact some thread proved.
pub struct Memo {
    /// Slot `i`'s two words at `2i` and `2i + 1`.
    words: Vec<AtomicU64>,
    /// Bucket `b`'s sequence number: odd while a writer holds it.
    seq: Vec<AtomicU32>,
    /// The bucket index mask (bucket `b` holds slots `2b` and `2b + 1`).
    mask: usize,
}

impl Memo {
    /// A table of `2^bits` slots (16 bytes each, plus 2 bytes of sequence number).
    #[must_use]
    pub fn new(bits: u32) -> Self {
        Memo {
            words: zeroed_words(2 << bits),
            seq: (0..1usize << (bits - 1))
                .map(|_| AtomicU32::new(0))
                .collect(),
            mask: (1 << (bits - 1)) - 1,
        }
    }

    fn bucket(&self, state: u64, tag: u32) -> usize {
        let h = (state ^ u64::from(tag).rotate_left(40)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 32) as usize & self.mask
    }

    /// The two entries of bucket `b`, read whole.
    fn read(&self, b: usize) -> [Entry; 2] {
        let w = &self.words[4 * b..4 * b + 4];
        loop {
            let before = self.seq[b].load(Ordering::Acquire);
            if before & 1 == 1 {
                std::hint::spin_loop();
                continue;
            }
            let e = [
                [w[0].load(Ordering::Relaxed), w[1].load(Ordering::Relaxed)],
                [w[2].load(Ordering::Relaxed), w[3].load(Ordering::Relaxed)],
            ];
            fence(Ordering::Acquire);
            if self.seq[b].load(Ordering::Relaxed) == before {
                return e;
            }
        }
    }

    /// Whether the table proves that `need` more black cells are out of reach from `state`.
    #[must_use]
    pub fn proves_out_of_reach(&self, state: u64, at: Situation, need: u32) -> bool {
        let tag = at.tag();
        self.read(self.bucket(state, tag))
            .iter()
            .any(|e| matches(e, state, tag) && need >= need_of(e))
    }

    /// Asks the processor to bring the slot of `(state, at)` into cache, so that a probe soon
    /// after does not wait for memory. Only a hint: it has no effect on results.
    pub fn prefetch(&self, state: u64, at: Situation) {
        let i = 4 * self.bucket(state, at.tag());
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.words[i..].as_ptr().cast::<i8>();
            let q = self.seq[i / 4..].as_ptr().cast::<i8>();
            // SAFETY: prefetching is a hint that never faults, and `p` and `q` point into the
            // table.
            unsafe {
                std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0);
                std::arch::x86_64::_mm_prefetch(q, std::arch::x86_64::_MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }

    /// Records that `need` more black cells are out of reach from `state`.
    pub fn record_out_of_reach(&self, state: u64, at: Situation, need: u32) {
        let tag = at.tag();
        let b = self.bucket(state, tag);
        let seq = &self.seq[b];
        let mut before = seq.load(Ordering::Relaxed);
        loop {
            if before & 1 == 0 {
                match seq.compare_exchange_weak(
                    before,
                    before + 1,
                    Ordering::Acquire,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => break,
                    Err(now) => before = now,
                }
            } else {
                std::hint::spin_loop();
                before = seq.load(Ordering::Relaxed);
            }
        }
        fence(Ordering::Release);
        let w = &self.words[4 * b..4 * b + 4];
        let mut bucket = [
            [w[0].load(Ordering::Relaxed), w[1].load(Ordering::Relaxed)],
            [w[2].load(Ordering::Relaxed), w[3].load(Ordering::Relaxed)],
        ];
        if let Some(e) = bucket.iter_mut().find(|e| matches(e, state, tag)) {
            *e = entry(state, tag, need.min(need_of(e)));
        } else {
            bucket[1] = bucket[0];
            bucket[0] = entry(state, tag, need);
        }
        for (word, value) in w.iter().zip(bucket.iter().flatten()) {
            word.store(*value, Ordering::Relaxed);
        }
        seq.store(before + 2, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_the_smallest_need() {
        let m = Memo::new(4);
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
