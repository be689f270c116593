//! The game clock.

use std::time::{Duration, Instant};

/// The game clock: it starts at the first click and stops when the game ends.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    started: Option<Instant>,
    stopped: Option<Duration>,
    /// A time shown whatever happens (see [`Clock::frozen`]).
    frozen: Option<Duration>,
}

impl Clock {
    /// Starts the clock if it has not started.
    pub fn start(&mut self) {
        self.started.get_or_insert_with(Instant::now);
    }

    /// Stops the clock for good (a clock that never started stops at 0).
    pub fn stop(&mut self) {
        if self.stopped.is_none() {
            self.stopped = Some(self.elapsed());
        }
    }

    /// A clock that always shows `time`, so that screens and transcripts can be compared.
    #[must_use]
    pub fn frozen(time: Duration) -> Clock {
        Clock {
            frozen: Some(time),
            ..Clock::default()
        }
    }

    /// The time on the clock.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        if let Some(time) = self.frozen {
            return time;
        }
        match (self.stopped, self.started) {
            (Some(d), _) => d,
            (None, Some(t)) => t.elapsed(),
            (None, None) => Duration::ZERO,
        }
    }
}
