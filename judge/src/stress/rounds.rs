//! The generator rounds: seed after seed (`-j N` rounds at once), until the first failure in
//! seed order, with a progress line on stderr when it is a terminal.

use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use super::trial::{self, Check, Failure, Setup, Trial};
use crate::out;
use crate::program::Program;

/// The first failing round.
pub struct Found {
    pub seed: u64,
    pub input: Vec<u8>,
    pub failure: Failure,
}

/// The rounds whose input was rejected.
#[derive(Default)]
struct Invalid {
    count: u64,
    /// Why the first one was.
    first: Option<String>,
}

/// What one round gave.
enum Round {
    Passed,
    /// Rejected by the validator or the reference: why.
    Invalid(String),
    Failed(Vec<u8>, Failure),
}

/// Runs `count` rounds from seed `first`, `jobs` at once; the failing round of smallest seed, or
/// `None` (after a summary line) if every round passed. With `jobs > 1` rounds past a failure
/// may have run, but the one reported is the same as with `-j 1`.
///
/// # Errors
/// The generator fails, a program cannot be run.
pub fn find(
    setup: &Setup,
    generator: &str,
    first: u64,
    count: u64,
    jobs: u16,
) -> Result<Option<Found>, String> {
    let start = Instant::now();
    let mut walk = Walk {
        first,
        progress: Progress::new(start),
        done: 0,
        invalid: Invalid::default(),
        found: None,
    };
    let n = usize::try_from(count).unwrap_or(usize::MAX);
    let round = |i: usize| round(setup, generator, first.wrapping_add(i as u64));
    let walked = crate::pool::in_order(usize::from(jobs), n, round, |_, r| walk.take(r));
    walk.progress.clear();
    walked?;
    let Walk {
        done,
        invalid,
        found,
        ..
    } = walk;
    let rate = done as f64 / start.elapsed().as_secs_f64().max(1e-9);
    if found.is_none() && done > 0 && invalid.count == done {
        let why = invalid.first.as_deref().unwrap_or("rejected");
        return Err(format!(
            "every one of the {done} inputs was rejected, so nothing was tested (first: {why})"
        ));
    }
    if found.is_none() {
        let skipped = match &invalid.first {
            Some(why) => format!(", {} rejected (first: {why})", invalid.count),
            None => String::new(),
        };
        out::stdout(&format!(
            "no failure in {done} {} (seeds {first} to {}){skipped}; {rate:.1} cases/s\n",
            out::plural(done, "case", "cases"),
            first.wrapping_add(count.saturating_sub(1)),
        ));
    }
    Ok(found)
}

/// The rounds walked in seed order, up to the first failure.
struct Walk {
    first: u64,
    progress: Progress,
    /// Rounds walked.
    done: u64,
    invalid: Invalid,
    found: Option<Found>,
}

impl Walk {
    /// Takes the next round in seed order; breaks at the first failure.
    fn take(&mut self, round: Round) -> ControlFlow<()> {
        self.done += 1;
        match round {
            Round::Passed => {}
            Round::Invalid(why) => {
                self.invalid.count += 1;
                self.invalid.first.get_or_insert(why);
            }
            Round::Failed(input, failure) => {
                self.found = Some(Found {
                    seed: self.first.wrapping_add(self.done - 1),
                    input,
                    failure,
                });
                return ControlFlow::Break(());
            }
        }
        self.progress.show(self.done);
        ControlFlow::Continue(())
    }
}

/// One round: generates the input for `seed`, then checks it in a work folder of its own.
fn round(setup: &Setup, generator: &str, seed: u64) -> Result<Round, String> {
    let gen = Program::Shell(format!("{generator} {seed}"));
    let o = trial::helper(&gen, b"")?;
    if o.timed_out || o.output_exceeded || o.exit != crate::run::Exit::Code(0) {
        return Err(format!("the generator {} on seed {seed}", trial::said(&o)));
    }
    Ok(match Trial::new(setup)?.check(&o.stdout)? {
        Check::Passed => Round::Passed,
        Check::Invalid(why) => Round::Invalid(why),
        Check::Failed(f) => Round::Failed(o.stdout, f),
    })
}

/// `N cases, R/s` on stderr, rewritten in place a few times a second, when stderr is a terminal.
struct Progress {
    start: Instant,
    last: Option<Instant>,
    shown: bool,
    wanted: bool,
}

impl Progress {
    fn new(start: Instant) -> Progress {
        Progress {
            start,
            last: None,
            shown: false,
            wanted: std::io::stderr().is_terminal(),
        }
    }

    fn show(&mut self, done: u64) {
        let now = Instant::now();
        if !self.wanted
            || self
                .last
                .is_some_and(|l| now - l < Duration::from_millis(200))
        {
            return;
        }
        self.last = Some(now);
        self.shown = true;
        let rate = done as f64 / (now - self.start).as_secs_f64().max(1e-9);
        out::stderr_raw(&format!(
            "\r\x1b[K{done} {} run, {rate:.1} cases/s",
            out::plural(done, "case", "cases")
        ));
    }

    fn clear(&mut self) {
        if self.shown {
            out::stderr_raw("\r\x1b[K");
            self.shown = false;
        }
    }
}
