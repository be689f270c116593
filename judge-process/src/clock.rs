//! The judge's clock of running time: the monotonic clock less the spans the judge spent
//! paused (stopped by Ctrl-Z until `fg`, see [`super::registry`]). Every deadline the judge
//! checks and every time it measures itself are read on it, so that a pause counts for no one.
//!
//! A pause stands the clock still from the moment the judge's signal thread takes it up (before
//! it stops anything) to the moment it has continued everything again. A worker thread that runs
//! after SIGCONT but before the signal thread has taken that up reads the time the pause began:
//! no deadline can pass in that window.

use std::ops::Add;
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// A point on the judge's running clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Moment(Duration);

impl Moment {
    /// Now, on the running clock.
    #[must_use]
    pub fn now() -> Moment {
        let origin = origin();
        // Read under the lock, so that the clock never steps back across the end of a pause.
        let pauses = lock();
        Moment(pauses.read(origin, Instant::now()))
    }

    /// The running time from `self` to now.
    #[must_use]
    pub fn elapsed(self) -> Duration {
        Moment::now().since(self)
    }

    /// The running time from `earlier` to `self`, zero if `earlier` is later.
    #[must_use]
    pub fn since(self, earlier: Moment) -> Duration {
        self.0.saturating_sub(earlier.0)
    }
}

impl Add<Duration> for Moment {
    type Output = Moment;

    fn add(self, span: Duration) -> Moment {
        Moment(self.0.saturating_add(span))
    }
}

/// The pauses so far.
#[derive(Debug, Default)]
struct Pauses {
    /// The pauses that are over, added up.
    total: Duration,
    /// When the pause under way began.
    since: Option<Instant>,
}

impl Pauses {
    /// The running time at `at` from `origin`: frozen during a pause.
    fn read(&self, origin: Instant, at: Instant) -> Duration {
        let at = self.since.unwrap_or(at);
        at.saturating_duration_since(origin)
            .saturating_sub(self.total)
    }

    /// Begins a pause at `at`; false if one is under way.
    fn begin(&mut self, at: Instant) -> bool {
        let fresh = self.since.is_none();
        if fresh {
            self.since = Some(at);
        }
        fresh
    }

    /// Ends the pause under way, if any, at `at`.
    fn end(&mut self, at: Instant) {
        if let Some(since) = self.since.take() {
            self.total += at.saturating_duration_since(since);
        }
    }
}

static PAUSES: Mutex<Pauses> = Mutex::new(Pauses {
    total: Duration::ZERO,
    since: None,
});

/// The clock's zero: its first reading.
fn origin() -> Instant {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    *ORIGIN.get_or_init(Instant::now)
}

fn lock() -> std::sync::MutexGuard<'static, Pauses> {
    PAUSES.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Stands the clock still from now; false if it already stands still.
pub fn pause() -> bool {
    origin();
    lock().begin(Instant::now())
}

/// Lets the clock run on from where it stood.
pub fn resume() {
    lock().end(Instant::now());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pause_counts_for_nothing() {
        let origin = Instant::now();
        let s = |n| origin + Duration::from_secs(n);
        let mut p = Pauses::default();
        assert_eq!(p.read(origin, s(3)), Duration::from_secs(3));
        assert!(p.begin(s(3)));
        assert!(!p.begin(s(4)), "one pause at a time");
        // Standing still for as long as the pause lasts, whoever reads it.
        assert_eq!(p.read(origin, s(10)), Duration::from_secs(3));
        p.end(s(10));
        assert_eq!(p.read(origin, s(10)), Duration::from_secs(3));
        assert_eq!(p.read(origin, s(12)), Duration::from_secs(5));
        p.end(s(13));
        assert_eq!(
            p.read(origin, s(13)),
            Duration::from_secs(6),
            "no pause to end"
        );
        assert!(p.begin(s(20)));
        p.end(s(21));
        assert_eq!(p.read(origin, s(22)), Duration::from_secs(14));
    }

    #[test]
    fn moments_add_and_subtract() {
        let a = Moment::now();
        let b = a + Duration::from_millis(5);
        assert_eq!(b.since(a), Duration::from_millis(5));
        assert_eq!(a.since(b), Duration::ZERO);
        assert!(b > a);
    }
}
