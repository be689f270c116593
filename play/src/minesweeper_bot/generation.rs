//! The time it took to make each no-guess board of a run: the count, the total and the worst in
//! nanoseconds, and a histogram on a logarithmic scale from which the median is read. All of it is
//! made of integers, so that the threads' and the shards' figures add up exactly, in any order.

use std::collections::BTreeMap;
use std::time::Duration;

/// Sub-buckets per doubling of the time: each bucket spans at most 1/32 of its lower bound, so the
/// median read from the histogram (a bucket's midpoint) is within 1.6% of the true one.
const STEPS: u32 = 32;

/// The generation times of a run's no-guess boards.
///
/// Invariant: the histogram's counts add up to `boards`, and `worst_ns` is in the last bucket.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Generation {
    /// The boards made.
    pub boards: u64,
    /// Their generation times added up, in nanoseconds.
    pub total_ns: u64,
    /// The longest of them, in nanoseconds.
    pub worst_ns: u64,
    /// The number of boards whose time falls in each bucket (see [`bucket_of`]), by bucket.
    buckets: BTreeMap<u32, u64>,
}

/// The bucket of a time of `ns` nanoseconds: 0 to 31 for the times below 32 ns (one each), then
/// 32 buckets per doubling, each covering the times whose 5 bits after the leading one agree.
#[must_use]
fn bucket_of(ns: u64) -> u32 {
    if ns < u64::from(STEPS) {
        return ns as u32;
    }
    let exponent = 63 - ns.leading_zeros(); // at least 5
    let fraction = (ns >> (exponent - 5)) as u32 & (STEPS - 1);
    (exponent - 4) * STEPS + fraction
}

/// The lowest time in `bucket`, in nanoseconds, or `None` past the largest `u64`.
#[must_use]
fn lower_bound(bucket: u32) -> Option<u64> {
    if bucket < STEPS {
        return Some(u64::from(bucket));
    }
    let exponent = bucket / STEPS + 4;
    let fraction = u64::from(bucket % STEPS);
    let lead = 1u64.checked_shl(exponent)?;
    Some(lead + (fraction << (exponent - 5)))
}

impl Generation {
    /// Adds one board made in `time`.
    pub fn add(&mut self, time: Duration) {
        let ns = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX);
        self.boards += 1;
        self.total_ns = self.total_ns.saturating_add(ns);
        self.worst_ns = self.worst_ns.max(ns);
        *self.buckets.entry(bucket_of(ns)).or_insert(0) += 1;
    }

    /// Adds `other`'s boards to these; `None` if a count would pass 2^64 - 1.
    #[must_use]
    pub fn merged(mut self, other: &Generation) -> Option<Generation> {
        self.boards = self.boards.checked_add(other.boards)?;
        self.total_ns = self.total_ns.saturating_add(other.total_ns);
        self.worst_ns = self.worst_ns.max(other.worst_ns);
        for (&bucket, &count) in &other.buckets {
            let entry = self.buckets.entry(bucket).or_insert(0);
            *entry = entry.checked_add(count)?;
        }
        Some(self)
    }

    /// The mean time in milliseconds (0 with no board).
    #[must_use]
    pub fn mean_ms(&self) -> f64 {
        self.total_ns as f64 / 1e6 / self.boards.max(1) as f64
    }

    /// The longest time in milliseconds.
    #[must_use]
    pub fn worst_ms(&self) -> f64 {
        self.worst_ns as f64 / 1e6
    }

    /// The median time in milliseconds, within 1.6%: the midpoint of the bucket that holds the
    /// (boards + 1) / 2-th fastest board, never beyond the worst (0 with no board).
    #[must_use]
    pub fn median_ms(&self) -> f64 {
        let middle = self.boards.div_ceil(2);
        let mut seen = 0;
        for (&bucket, &count) in &self.buckets {
            seen += count;
            if seen >= middle {
                let low = lower_bound(bucket).unwrap_or(u64::MAX);
                let high = lower_bound(bucket + 1).unwrap_or(u64::MAX);
                let mid = low as f64 + (high - low) as f64 / 2.0;
                return mid.min(self.worst_ns as f64) / 1e6;
            }
        }
        0.0
    }

    /// The histogram as `(lower bound in nanoseconds, boards)`, fastest first, empty buckets left
    /// out.
    #[must_use]
    pub fn histogram(&self) -> Vec<(u64, u64)> {
        self.buckets
            .iter()
            .map(|(&b, &n)| (lower_bound(b).unwrap_or(u64::MAX), n))
            .collect()
    }

    /// The generation times of `boards` boards from their total, worst and histogram (as
    /// [`Generation::histogram`] writes it), checked.
    ///
    /// # Errors
    /// What was expected: every bound a bucket's lower bound, in increasing order; counts that
    /// add up to `boards`, none of them 0; the worst time in the last bucket; a total at least
    /// the worst and at most `boards` times it.
    pub fn from_parts(
        boards: u64,
        total_ns: u64,
        worst_ns: u64,
        histogram: &[(u64, u64)],
    ) -> Result<Generation, String> {
        let mut buckets = BTreeMap::new();
        let mut sum: u64 = 0;
        for &(bound, count) in histogram {
            let bucket = bucket_of(bound);
            if lower_bound(bucket) != Some(bound) || count == 0 {
                return Err(format!(
                    "expected each histogram key to be a bucket's lower bound with boards, found \
                     \"{bound}\": {count}"
                ));
            }
            if buckets.last_key_value().is_some_and(|(&b, _)| b >= bucket) {
                return Err(format!(
                    "expected the histogram's bounds in increasing order, found {bound} after a \
                     larger one"
                ));
            }
            buckets.insert(bucket, count);
            sum = sum
                .checked_add(count)
                .ok_or("expected the histogram's boards below 2^64")?;
        }
        if sum != boards {
            return Err(format!(
                "expected the histogram to count {boards} boards, found {sum}"
            ));
        }
        let last = buckets.last_key_value().map(|(&b, _)| b);
        if boards > 0 && last != Some(bucket_of(worst_ns)) {
            return Err(format!(
                "expected the worst time ({worst_ns} ns) in the histogram's last bucket"
            ));
        }
        let most = worst_ns.saturating_mul(boards);
        if boards > 0 && (total_ns < worst_ns || total_ns > most) {
            return Err(format!(
                "expected the total time from {worst_ns} to {most} ns, found {total_ns}"
            ));
        }
        Ok(Generation {
            boards,
            total_ns,
            worst_ns,
            buckets,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_cover_the_times_in_order_and_narrowly() {
        let mut previous = 0;
        for ns in (0..5000).chain((0..60).map(|e| (1u64 << e) + 12345)) {
            let b = bucket_of(ns);
            let low = lower_bound(b).unwrap();
            assert!(low <= ns, "{ns} {b} {low}");
            if let Some(high) = lower_bound(b + 1) {
                assert!(ns < high, "{ns} {b} {high}");
                assert!((high - low) * 32 <= low.max(32), "{ns}");
            }
            if ns < 5000 {
                assert!(b >= previous);
                previous = b;
            }
        }
        assert_eq!(lower_bound(bucket_of(u64::MAX) + 1), None);
    }

    #[test]
    fn the_median_is_within_its_bucket_and_merges_add_up() {
        let times: Vec<u64> = (1..=101).map(|i| i * i * 1000).collect();
        let (mut a, mut b) = (Generation::default(), Generation::default());
        for (i, &t) in times.iter().enumerate() {
            let half = if i % 3 == 0 { &mut a } else { &mut b };
            half.add(Duration::from_nanos(t));
        }
        let all = a.clone().merged(&b).unwrap();
        assert_eq!(all, b.merged(&a).unwrap());
        let true_median = times[50] as f64 / 1e6;
        assert!((all.median_ms() - true_median).abs() <= true_median / 32.0);
        assert_eq!(all.worst_ns, 101 * 101 * 1000);
        assert_eq!(all.total_ns, times.iter().sum::<u64>());
        let parts = all.histogram();
        assert_eq!(
            Generation::from_parts(all.boards, all.total_ns, all.worst_ns, &parts),
            Ok(all.clone())
        );
        assert!(
            Generation::from_parts(all.boards + 1, all.total_ns, all.worst_ns, &parts).is_err()
        );
        assert!(Generation::from_parts(all.boards, all.total_ns, 5, &parts).is_err());
        let mut bad = parts.clone();
        bad[0].0 += 1;
        assert!(Generation::from_parts(all.boards, all.total_ns, all.worst_ns, &bad).is_err());
        assert_eq!(Generation::default().median_ms(), 0.0);
    }
}
