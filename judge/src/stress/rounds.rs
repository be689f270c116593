//! The generator rounds: seed after seed (`-j N` rounds at once), until the first failure in
//! seed order, with a progress line on stderr when it is a terminal.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
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
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(u64, Result<Round, String>)>();
    let start = Instant::now();
    let (found, done, invalid) = std::thread::scope(|scope| {
        for w in 0..jobs.min(u16::try_from(count).unwrap_or(u16::MAX)) {
            let sender = tx.clone();
            let (next, stop) = (&next, &stop);
            let worker = move || {
                let trial = match Trial::new(setup) {
                    Ok(t) => t,
                    Err(e) => {
                        let _ = sender.send((0, Err(e)));
                        return;
                    }
                };
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= count || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let seed = first.wrapping_add(i);
                    let r = round(&trial, generator, seed);
                    // An error ends the run: no worker starts another round (each may take
                    // the helpers' whole time), whatever the receiver has seen yet.
                    if r.is_err() {
                        stop.store(true, Ordering::SeqCst);
                    }
                    if sender.send((i, r)).is_err() {
                        break;
                    }
                }
            };
            // Out of threads: fewer workers, or an error if none.
            if let Err(e) = std::thread::Builder::new().spawn_scoped(scope, worker) {
                if w == 0 {
                    let _ = tx.send((0, Err(format!("cannot start a thread: {e}"))));
                }
                break;
            }
        }
        drop(tx);
        let r = in_order(rx, first, start);
        stop.store(true, Ordering::SeqCst);
        r
    })?;
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

/// Receives the rounds, and walks them in seed order up to the first failure; returns it with
/// the number of rounds walked and how many of them were invalid.
///
/// # Errors
/// The first error in seed order (the generator failed, a program could not be run).
fn in_order(
    rx: mpsc::Receiver<(u64, Result<Round, String>)>,
    first: u64,
    start: Instant,
) -> Result<(Option<Found>, u64, Invalid), String> {
    let mut progress = Progress::new(start);
    let mut early = BTreeMap::new();
    let mut done = 0u64;
    let mut invalid = Invalid::default();
    for (i, r) in rx {
        early.insert(i, r);
        while let Some(r) = early.remove(&done) {
            done += 1;
            // An error is reported in seed order too, as with `-j 1`.
            match r? {
                Round::Passed => {}
                Round::Invalid(why) => {
                    invalid.count += 1;
                    invalid.first.get_or_insert(why);
                }
                Round::Failed(input, failure) => {
                    progress.clear();
                    let seed = first.wrapping_add(done - 1);
                    return Ok((
                        Some(Found {
                            seed,
                            input,
                            failure,
                        }),
                        done,
                        invalid,
                    ));
                }
            }
            progress.show(done);
        }
    }
    // Rounds after one that never ran (its worker stopped on another's error): the first error.
    if let Some(e) = early.into_values().find_map(Result::err) {
        progress.clear();
        return Err(e);
    }
    progress.clear();
    Ok((None, done, invalid))
}

/// One round: generates the input for `seed`, then checks it.
fn round(trial: &Trial, generator: &str, seed: u64) -> Result<Round, String> {
    let gen = Program::Shell(format!("{generator} {seed}"));
    let o = trial::helper(&gen, b"")?;
    if o.timed_out || o.output_exceeded || o.exit != crate::run::Exit::Code(0) {
        return Err(format!("the generator {} on seed {seed}", trial::said(&o)));
    }
    Ok(match trial.check(&o.stdout)? {
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
        out::stderr(&format!(
            "\r\x1b[K{done} {} run, {rate:.1} cases/s",
            out::plural(done, "case", "cases")
        ));
    }

    fn clear(&mut self) {
        if self.shown {
            out::stderr("\r\x1b[K");
            self.shown = false;
        }
    }
}
