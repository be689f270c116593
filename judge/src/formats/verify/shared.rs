//! What the run threads of a verify (see [`super::super::early`]) and its phases share: the
//! queue of built submissions, each one's early judging, the accepted submissions' timings and
//! the limit they give once all are timed.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use super::super::ahead::Ahead;
use super::super::judging::{Judged, RunLimits};
use super::super::problem::Problem;
use super::super::submission::Submission;
use super::{calibration_limits, run, Progress, Ready};

/// Everything the run threads (see [`super::super::early`]) and the phases of a verify share.
pub(super) struct Shared {
    pub(super) queue: super::super::early::Queue,
    pub(super) slots: super::super::early::Slots,
    /// Each submission, once built.
    pub(super) readies: Vec<std::sync::OnceLock<Ready>>,
    /// The calibration runs of each accepted submission timed early.
    pub(super) timed: Vec<Mutex<Option<Vec<Option<Judged>>>>>,
    /// Accepted submissions not yet timed (or found not to build).
    pub(super) to_time: Mutex<usize>,
    /// The limit, once known: given, or computed once every accepted submission is timed.
    pub(super) limit: std::sync::OnceLock<Duration>,
    /// The stop of the runs judged early before the limit is known: settled with it (leaked:
    /// one per verify, it lives as long as the runs).
    pub(super) settling: &'static crate::run::Settling,
    /// Signalled when `to_time` reaches 0.
    pub(super) all_timed: std::sync::Condvar,
    /// Whether a submission's cases may run ahead of its walk on a free core (see
    /// [`super::ahead`]): with more than one job, on the CPU clock.
    pub(super) lend: bool,
}

impl Shared {
    pub(super) fn new(n: usize, lend: bool) -> Shared {
        Shared {
            queue: super::super::early::Queue::new(
                std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            ),
            slots: super::super::early::Slots::new(n),
            readies: (0..n).map(|_| std::sync::OnceLock::new()).collect(),
            timed: (0..n).map(|_| Mutex::new(None)).collect(),
            to_time: Mutex::new(0),
            limit: std::sync::OnceLock::new(),
            settling: Box::leak(Box::default()),
            all_timed: std::sync::Condvar::new(),
            lend,
        }
    }

    /// Where `submission`'s cases may run ahead of its walk, if they may.
    pub(super) fn ahead(&self, submission: &Submission) -> Option<Ahead<'_>> {
        self.lend.then_some(Ahead {
            queue: &self.queue,
            heavy_first: submission.time_limited(),
        })
    }

    /// A run thread: takes the submissions queued as they are built, times the accepted ones,
    /// judges the others early, until the last phase begins (then ends its job first).
    pub(super) fn run_early(
        &self,
        problem: &Problem,
        submissions: &[&Submission],
        progress: &Progress,
    ) {
        while let Some((job, _busy)) = self.queue.next() {
            match job {
                super::super::early::Job::Time(i) => {
                    if let Some(Ready::Program(program)) = self.readies[i].get() {
                        let cap = calibration_limits(problem);
                        let raw = run(
                            problem,
                            program,
                            cap,
                            progress,
                            &submissions[i].name,
                            &[],
                            self.ahead(submissions[i]),
                        );
                        *self.timed[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(raw);
                    }
                    self.timed_one(problem);
                }
                super::super::early::Job::Judge(i) => {
                    let Some(Ready::Program(program)) = self.readies[i].get() else {
                        continue;
                    };
                    if !self.slots.claim(i) {
                        continue;
                    }
                    let limits = self.early_limits(problem);
                    let raw = run(
                        problem,
                        program,
                        limits,
                        progress,
                        &submissions[i].name,
                        &[],
                        self.ahead(submissions[i]),
                    );
                    self.slots
                        .finish(i, super::super::early::Early { raw, limits });
                }
            }
        }
    }

    /// The limits of a run judged early: the limit's own once known; before, the smallest
    /// limit's, the stop settled with the limit.
    pub(super) fn early_limits(&self, problem: &Problem) -> RunLimits {
        if let Some(&time) = self.limit.get() {
            return RunLimits::of(problem, time);
        }
        let mut limits = RunLimits::of(problem, super::super::early::smallest_limit(problem));
        limits.limits.settling = Some(self.settling);
        limits
    }

    /// One more accepted submission timed (or found not to build): once none is left, the limit
    /// is computed (if any was timed) and the early runs' stop settled with it.
    pub(super) fn timed_one(&self, problem: &Problem) {
        let mut left = self.to_time.lock().unwrap_or_else(PoisonError::into_inner);
        *left = left.saturating_sub(1);
        // The slowest accepted run so far, if any ran (read in place, not copied).
        let slowest = self
            .timed
            .iter()
            .filter_map(|t| {
                let runs = t.lock().unwrap_or_else(PoisonError::into_inner);
                let mut results = runs
                    .as_ref()?
                    .iter()
                    .flatten()
                    .map(|j| &j.result)
                    .peekable();
                results.peek()?;
                Some(super::super::time_limit::slowest(results))
            })
            .reduce(f64::max);
        let Some(slowest) = slowest else {
            if *left == 0 {
                self.all_timed.notify_all();
            }
            return;
        };
        let time = super::super::time_limit::computed(problem, slowest).0;
        if *left > 0 {
            // The limit will be at least the one these give: the runs judged early go on to it.
            self.settling
                .at_least(RunLimits::of(problem, time).limits.time);
            return;
        }
        self.set_limit(problem, time);
        self.all_timed.notify_all();
    }

    /// The limit is known: runs judged early from now on take it, and those under way stop at
    /// its stop.
    pub(super) fn set_limit(&self, problem: &Problem, time: Duration) {
        let _ = self.limit.set(time);
        self.settling
            .settle(RunLimits::of(problem, time).limits.time);
    }

    /// Waits until every accepted submission is timed (or found not to build).
    pub(super) fn wait_timed(&self) {
        let mut left = self.to_time.lock().unwrap_or_else(PoisonError::into_inner);
        while *left > 0 {
            left = self
                .all_timed
                .wait(left)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}
