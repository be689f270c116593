//! The tests' one pseudo-random generator.

/// The tests' one pseudo-random generator (xorshift64): a case comes from a seed, so that a
/// failure can be replayed.
pub struct Rng(u64);

impl Rng {
    /// The generator for `seed` (any value: the state is made odd, since 0 would stay 0).
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (slightly biased for huge `n`, which tests do not use).
    ///
    /// # Panics
    /// If `n == 0`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
