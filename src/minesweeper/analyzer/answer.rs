//! The printed answer: exact probabilities rounded to 6 decimals.

use std::io::{self, Write};

use super::big::Big;
use crate::minesweeper::board::Pos;

/// `num / den` rounded to 6 decimals, half up (an exact tie rounds away from zero), as `0.xxxxxx`
/// or `1.000000`. Exact: computed on the integers, never through a float.
///
/// # Panics
/// If `den` is zero or `num > den`.
#[must_use]
pub fn round6(num: &Big, den: &Big) -> String {
    const SCALE: u64 = 1_000_000;
    assert!(
        num <= den && !den.is_zero(),
        "a probability is a ratio in [0, 1]"
    );
    let mut scaled = num.clone();
    scaled.mul_small(SCALE);
    // q = floor(num * 10^6 / den), in 0..=10^6: the largest q with den * q <= num * 10^6.
    let (mut lo, mut hi) = (0u64, SCALE);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        let mut t = den.clone();
        t.mul_small(mid);
        if t <= scaled {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let mut rest = den.clone();
    rest.mul_small(lo);
    scaled.sub_assign(&rest);
    scaled.mul_small(2);
    let q = if scaled >= *den { lo + 1 } else { lo };
    format!("{}.{:06}", q / SCALE, q % SCALE)
}

/// Writes `x y` per position, after a `<label> <count>` line.
pub fn write_list<W: Write>(out: &mut W, label: &str, cells: &[Pos]) -> io::Result<()> {
    writeln!(out, "{label} {}", cells.len())?;
    for p in cells {
        writeln!(out, "{} {}", p.x, p.y)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: u64, d: u64) -> String {
        round6(&Big::from_u64(n), &Big::from_u64(d))
    }

    #[test]
    fn rounds_half_up_exactly() {
        assert_eq!(r(0, 5), "0.000000");
        assert_eq!(r(5, 5), "1.000000");
        assert_eq!(r(1, 3), "0.333333");
        assert_eq!(r(2, 3), "0.666667");
        assert_eq!(r(1, 2_000_000), "0.000001");
        assert_eq!(r(1, 2_000_001), "0.000000");
        assert_eq!(r(3, 2_000_000), "0.000002");
        assert_eq!(r(1_999_999, 2_000_000), "1.000000");
        assert_eq!(r(1_999_998, 2_000_000), "0.999999");
        assert_eq!(r(1, 8), "0.125000");
    }
}
