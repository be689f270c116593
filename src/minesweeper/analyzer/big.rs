//! A small unsigned big integer: just what exact arrangement counting needs (add, multiply,
//! compare, exact small division), standard library only.

use std::cmp::Ordering;

/// An unsigned integer of any size.
///
/// Invariant: `limbs` is little-endian base 2^64 with no trailing zero limb, so zero is empty and
/// equal values have equal representations (the derived `PartialEq` is numeric equality).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Big {
    limbs: Vec<u64>,
}

/// Written out for `clone_from`, which keeps the allocation (the derived one allocates anew):
/// the enumeration copies a weight at every node.
impl Clone for Big {
    fn clone(&self) -> Big {
        Big {
            limbs: self.limbs.clone(),
        }
    }

    fn clone_from(&mut self, source: &Big) {
        self.limbs.clone_from(&source.limbs);
    }
}

impl Big {
    /// Zero.
    #[must_use]
    pub const fn zero() -> Big {
        Big { limbs: Vec::new() }
    }

    /// The value `v`.
    #[must_use]
    pub fn from_u64(v: u64) -> Big {
        let mut b = Big::zero();
        b.set_u64(v);
        b
    }

    /// Sets the value to `v`, keeping the allocation.
    pub fn set_u64(&mut self, v: u64) {
        self.limbs.clear();
        if v != 0 {
            self.limbs.push(v);
        }
    }

    /// The number of 64-bit limbs (0 for zero): the cost of one addition of this value.
    #[must_use]
    pub(crate) fn limb_count(&self) -> usize {
        self.limbs.len()
    }

    /// Whether the value is zero.
    #[must_use]
    pub fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    /// `self += other`.
    pub fn add_assign(&mut self, other: &Big) {
        if self.limbs.len() < other.limbs.len() {
            self.limbs.resize(other.limbs.len(), 0);
        }
        let mut carry = 0u64;
        for (i, limb) in self.limbs.iter_mut().enumerate() {
            let o = other.limbs.get(i).copied().unwrap_or(0);
            if i >= other.limbs.len() && carry == 0 {
                break;
            }
            let (s1, c1) = limb.overflowing_add(o);
            let (s2, c2) = s1.overflowing_add(carry);
            *limb = s2;
            carry = u64::from(c1) + u64::from(c2);
        }
        if carry != 0 {
            self.limbs.push(carry);
        }
    }

    /// `self -= other`.
    ///
    /// # Panics
    /// If `other > self`.
    pub fn sub_assign(&mut self, other: &Big) {
        assert!(*self >= *other, "big subtraction underflow");
        let mut borrow = 0u64;
        for (i, limb) in self.limbs.iter_mut().enumerate() {
            let o = other.limbs.get(i).copied().unwrap_or(0);
            let (d1, b1) = limb.overflowing_sub(o);
            let (d2, b2) = d1.overflowing_sub(borrow);
            *limb = d2;
            borrow = u64::from(b1) + u64::from(b2);
        }
        self.trim();
    }

    /// `self *= k`.
    pub fn mul_small(&mut self, k: u64) {
        if k == 0 {
            self.limbs.clear();
            return;
        }
        let mut carry = 0u128;
        for limb in &mut self.limbs {
            let t = u128::from(*limb) * u128::from(k) + carry;
            *limb = t as u64;
            carry = t >> 64;
        }
        if carry != 0 {
            self.limbs.push(carry as u64);
        }
    }

    /// `self /= k`, returning the remainder.
    ///
    /// # Panics
    /// If `k == 0`.
    pub fn div_small(&mut self, k: u64) -> u64 {
        assert!(k != 0, "division by zero");
        let mut rem = 0u128;
        for limb in self.limbs.iter_mut().rev() {
            let t = (rem << 64) | u128::from(*limb);
            *limb = (t / u128::from(k)) as u64;
            rem = t % u128::from(k);
        }
        self.trim();
        rem as u64
    }

    /// `self += a * k`.
    pub fn add_mul_small(&mut self, a: &Big, k: u64) {
        if k == 0 || a.is_zero() {
            return;
        }
        if self.limbs.len() < a.limbs.len() + 1 {
            self.limbs.resize(a.limbs.len() + 1, 0);
        }
        let mut carry = 0u128;
        let mut i = 0;
        while i < a.limbs.len() || carry != 0 {
            if i == self.limbs.len() {
                self.limbs.push(0);
            }
            let t = u128::from(self.limbs[i])
                + u128::from(a.limbs.get(i).copied().unwrap_or(0)) * u128::from(k)
                + carry;
            self.limbs[i] = t as u64;
            carry = t >> 64;
            i += 1;
        }
        self.trim();
    }

    /// `self += a * b`.
    pub fn add_product(&mut self, a: &Big, b: &Big) {
        if a.is_zero() || b.is_zero() {
            return;
        }
        let n = a.limbs.len() + b.limbs.len() + 1;
        if self.limbs.len() < n {
            self.limbs.resize(n, 0);
        }
        for (i, &x) in a.limbs.iter().enumerate() {
            let mut carry = 0u128;
            let mut j = 0;
            while j < b.limbs.len() || carry != 0 {
                if i + j == self.limbs.len() {
                    self.limbs.push(0);
                }
                let y = b.limbs.get(j).copied().unwrap_or(0);
                let t = u128::from(self.limbs[i + j]) + u128::from(x) * u128::from(y) + carry;
                self.limbs[i + j] = t as u64;
                carry = t >> 64;
                j += 1;
            }
        }
        self.trim();
    }

    /// `a * b`.
    #[must_use]
    pub fn product(a: &Big, b: &Big) -> Big {
        let mut p = Big::zero();
        p.add_product(a, b);
        p
    }

    /// The number of significant bits (0 for zero).
    #[must_use]
    pub fn bits(&self) -> u64 {
        match self.limbs.last() {
            None => 0,
            Some(&top) => self.limbs.len() as u64 * 64 - u64::from(top.leading_zeros()),
        }
    }

    /// The value as `m * 2^e` with `m` an `f64` holding the top 64 bits (rounded to 53).
    fn to_scaled_f64(&self) -> (f64, i64) {
        let bits = self.bits();
        if bits <= 64 {
            return (self.limbs.first().copied().unwrap_or(0) as f64, 0);
        }
        let shift = bits - 64;
        let (q, r) = ((shift / 64) as usize, (shift % 64) as u32);
        let lo = self.limbs[q];
        let hi = self.limbs.get(q + 1).copied().unwrap_or(0);
        let top = if r == 0 {
            lo
        } else {
            (lo >> r) | (hi << (64 - r))
        };
        (top as f64, shift as i64)
    }

    /// The natural logarithm of the value (within a few ulps); `-inf` for zero.
    #[must_use]
    pub fn ln(&self) -> f64 {
        let (m, e) = self.to_scaled_f64();
        m.ln() + e as f64 * std::f64::consts::LN_2
    }

    /// `num / den` as an `f64` (not correctly rounded: within a few ulps).
    ///
    /// # Panics
    /// If `den` is zero.
    #[must_use]
    pub fn ratio_f64(num: &Big, den: &Big) -> f64 {
        assert!(!den.is_zero(), "ratio with a zero denominator");
        if num.is_zero() {
            return 0.0;
        }
        if num == den {
            return 1.0;
        }
        let (n, en) = num.to_scaled_f64();
        let (d, ed) = den.to_scaled_f64();
        let e = (en - ed).clamp(-2000, 2000) as i32;
        // 2^e in two steps so that neither factor overflows on its own.
        (n / d) * 2f64.powi(e / 2) * 2f64.powi(e - e / 2)
    }
}

impl Ord for Big {
    fn cmp(&self, other: &Big) -> Ordering {
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Big) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::Big;

    fn big(v: u128) -> Big {
        let mut b = Big::from_u64((v >> 64) as u64);
        b.mul_small(1 << 32);
        b.mul_small(1 << 32);
        b.add_assign(&Big::from_u64(v as u64));
        b
    }

    fn value(b: &Big) -> u128 {
        assert!(b.limbs.len() <= 2);
        b.limbs
            .iter()
            .rev()
            .fold(0u128, |v, &l| (v << 64) | u128::from(l))
    }

    #[test]
    fn arithmetic_matches_u128() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..2000 {
            let a = u128::from(next() >> (next() % 64)) * u128::from(next() >> 32);
            let b = u128::from(next() >> (next() % 64));
            let k = next() >> (next() % 64);
            let (ba, bb) = (big(a), big(b));
            assert_eq!(ba.cmp(&bb), a.cmp(&b));
            if let Some(s) = a.checked_add(b) {
                let mut x = ba.clone();
                x.add_assign(&bb);
                assert_eq!(value(&x), s);
            }
            if let Some(p) = a.checked_mul(b) {
                assert_eq!(value(&Big::product(&ba, &bb)), p);
            }
            if let Some(p) = a.checked_mul(u128::from(k)).and_then(|p| p.checked_add(b)) {
                let mut x = bb.clone();
                x.add_mul_small(&ba, k);
                assert_eq!(value(&x), p);
            }
            if a >= b {
                let mut x = ba.clone();
                x.sub_assign(&bb);
                assert_eq!(value(&x), a - b);
            }
            if k != 0 {
                let mut x = ba.clone();
                let r = x.div_small(k);
                assert_eq!(
                    (value(&x), u128::from(r)),
                    (a / u128::from(k), a % u128::from(k))
                );
            }
        }
    }

    #[test]
    fn ratio_of_huge_values() {
        let mut a = Big::from_u64(3);
        let mut b = Big::from_u64(4);
        for _ in 0..40 {
            a.mul_small(u64::MAX);
            b.mul_small(u64::MAX);
        }
        assert!((Big::ratio_f64(&a, &b) - 0.75).abs() < 1e-15);
        let expected = 3f64.ln() + 40.0 * (u64::MAX as f64).ln();
        assert!((a.ln() - expected).abs() < crate::minesweeper::LN_RELATIVE_ERROR * expected);
        assert_eq!(Big::zero().ln(), f64::NEG_INFINITY);
    }
}
