//! Runs made while the submissions of a `judge verify` still build: the accepted submissions
//! timed to compute the limit, and the other submissions judged early, with the limit if it is
//! known by then, else with the smallest limit the package can compute (one step of its time
//! resolution). When the limit turns out larger, each early run that ended on its own is kept (it
//! would have ended the same way), and the runs the judge stopped, or that were never made, are
//! made again with the limit ([`Early::reusable`]).

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;

use crate::verdict::Verdict;

use super::judging::{Judged, RunLimits};
use super::problem::Problem;

/// A submission judged early: its runs (per case, `None` where not run) and their limits.
pub struct Early {
    pub raw: Vec<Option<Judged>>,
    pub limits: RunLimits,
}

impl Early {
    /// Whether the early runs are those the limits `limits` would have made: the same limit and
    /// the same stop, known from their start.
    #[must_use]
    pub fn made_with(&self, limits: RunLimits) -> bool {
        self.limits.time == limits.time
            && self.limits.limits.time == limits.limits.time
            && self.limits.limits.settling.is_none()
    }

    /// The early runs that stand under `limits` (at least theirs): those that ended on their
    /// own, that an interactor's rejection decided, or that the judge stopped at `limits`' own
    /// stop or wall-time backstop or later (the stop settled while they ran). A run stopped
    /// earlier (at the smaller limit's stop, before the limit was settled) and a judge error
    /// are made again.
    #[must_use]
    pub fn reusable(self, limits: RunLimits) -> Vec<Option<Judged>> {
        if self.made_with(limits) {
            return self.raw;
        }
        let stop = limits.limits.time.as_secs_f64();
        let backstop = limits.limits.wall().as_secs_f64();
        self.raw
            .into_iter()
            .map(|run| {
                run.filter(|j| {
                    let r = &j.result;
                    match r.verdict {
                        _ if j.rejected_first => true,
                        Verdict::JudgeError => false,
                        Verdict::TimeLimit => r.cpu >= stop || r.wall >= backstop,
                        _ => true,
                    }
                })
            })
            .collect()
    }
}

/// The smallest limit `problem` can compute: one step of its time resolution.
#[must_use]
pub fn smallest_limit(problem: &Problem) -> Duration {
    Duration::from_secs_f64(problem.time.resolution)
}

/// What a run thread takes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// Time accepted submission `i`.
    Time(usize),
    /// Judge submission `i` early.
    Judge(usize),
}

/// The submissions built and waiting for a run thread: accepted submissions first (the limit
/// waits for them), then the others, those promising a time limit first, in the table's order.
/// An accepted submission is timed at once, and one that promises a time limit is judged early
/// at once (the longest waits of a verify: their end is the soonest it can end); another only
/// while a core is free of the verify's builds and runs (the builds come first).
pub struct Queue {
    state: Mutex<State>,
    ready: Condvar,
    cores: usize,
}

#[derive(Default)]
struct State {
    accepted: VecDeque<usize>,
    /// (not promising a time limit, table index).
    others: Vec<(bool, usize)>,
    closed: bool,
    /// Builds and runs under way.
    busy: usize,
}

/// A build or run under way, counted by its [`Queue`] until dropped.
pub struct Busy<'a>(&'a Queue);

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.busy = state.busy.saturating_sub(1);
        self.0.ready.notify_all();
    }
}

impl Queue {
    /// A queue for a machine of `cores` cores.
    #[must_use]
    pub fn new(cores: usize) -> Queue {
        Queue {
            state: Mutex::default(),
            ready: Condvar::new(),
            cores: cores.max(1),
        }
    }

    /// A build under way, until the guard is dropped.
    pub fn building(&self) -> Busy<'_> {
        self.lock().busy += 1;
        Busy(self)
    }

    /// A run of the last phase under way, until the guard is dropped.
    pub fn running(&self) -> Busy<'_> {
        self.building()
    }

    /// A core for a run made ahead of its walk (see [`super::ahead`]), counted as busy until
    /// the guard is dropped: one if fewer builds and runs than cores are under way and no
    /// submission waits in the queue.
    pub fn spare(&self) -> Option<Busy<'_>> {
        let mut state = self.lock();
        let waiting = !state.accepted.is_empty() || !state.others.is_empty();
        if waiting || state.busy >= self.cores {
            return None;
        }
        state.busy += 1;
        Some(Busy(self))
    }

    /// Queues accepted submission `i`, to time.
    pub fn time(&self, i: usize) {
        self.lock().accepted.push_back(i);
        self.ready.notify_one();
    }

    /// Queues submission `i` to judge early; `time_limited` if it promises a time limit.
    pub fn judge(&self, i: usize, time_limited: bool) {
        self.lock().others.push((!time_limited, i));
        self.ready.notify_one();
    }

    /// The last phase begins: what is still queued is left to it, and the run threads end once
    /// their job is done.
    pub fn drop_the_rest(&self) {
        let mut state = self.lock();
        state.accepted.clear();
        state.others.clear();
        state.closed = true;
        self.ready.notify_all();
    }

    /// The next job, counted as busy until the guard is dropped, waiting for one; `None` once
    /// closed and empty.
    pub fn next(&self) -> Option<(Job, Busy<'_>)> {
        let mut state = self.lock();
        loop {
            if let Some(i) = state.accepted.pop_front() {
                state.busy += 1;
                return Some((Job::Time(i), Busy(self)));
            }
            let free = state.busy < self.cores;
            if let Some(k) = (0..state.others.len()).min_by_key(|&k| state.others[k]) {
                // One that promises a time limit starts at once: its wait is what the verify
                // lasts at least.
                let (untimed, _) = state.others[k];
                if free || !untimed {
                    state.busy += 1;
                    return Some((Job::Judge(state.others.swap_remove(k).1), Busy(self)));
                }
            }
            if state.closed {
                return None;
            }
            state = self
                .ready
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Where each submission's early judging stands: a run thread claims a submission before it
/// judges it early; the verify's last phase takes it, waiting for a judging under way.
pub struct Slots {
    states: Vec<Mutex<Slot>>,
    done: Condvar,
}

enum Slot {
    /// Not judged early (yet).
    Idle,
    /// Being judged early.
    Running,
    /// Judged early.
    Done(Early),
    /// Taken by the last phase.
    Taken,
}

impl Slots {
    #[must_use]
    pub fn new(n: usize) -> Slots {
        Slots {
            states: (0..n).map(|_| Mutex::new(Slot::Idle)).collect(),
            done: Condvar::new(),
        }
    }

    /// Claims submission `i` to judge it early; false if the last phase has taken it.
    pub fn claim(&self, i: usize) -> bool {
        let mut slot = self.lock(i);
        let idle = matches!(*slot, Slot::Idle);
        if idle {
            *slot = Slot::Running;
        }
        idle
    }

    /// The early judging of submission `i` (claimed) is done.
    pub fn finish(&self, i: usize, early: Early) {
        *self.lock(i) = Slot::Done(early);
        self.done.notify_all();
    }

    /// Whether submission `i` is being judged early, or was.
    pub fn started(&self, i: usize) -> bool {
        matches!(*self.lock(i), Slot::Running | Slot::Done(_))
    }

    /// Takes submission `i` for the last phase: its early judging (waiting for one under way),
    /// or `None` if it was not judged early (it no longer will be).
    pub fn take(&self, i: usize) -> Option<Early> {
        let mut slot = self.lock(i);
        while matches!(*slot, Slot::Running) {
            slot = self.done.wait(slot).unwrap_or_else(PoisonError::into_inner);
        }
        match std::mem::replace(&mut *slot, Slot::Taken) {
            Slot::Done(early) => Some(early),
            _ => None,
        }
    }

    fn lock(&self, i: usize) -> std::sync::MutexGuard<'_, Slot> {
        self.states[i]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepted_submissions_come_first_then_time_limits_then_the_table_order() {
        let q = Queue::new(1);
        q.judge(4, false);
        q.judge(3, true);
        q.judge(1, false);
        q.time(2);
        q.judge(0, true);
        let jobs: Vec<Job> = (0..5)
            .filter_map(|_| q.next().map(|(job, _)| job))
            .collect();
        assert_eq!(
            jobs,
            [
                Job::Time(2),
                Job::Judge(0),
                Job::Judge(3),
                Job::Judge(1),
                Job::Judge(4)
            ]
        );
        // A build under way takes the one core: an accepted submission is timed still, and one
        // that promises a time limit judged, no other.
        let build = q.building();
        q.judge(5, false);
        q.time(6);
        q.judge(8, true);
        assert_eq!(q.next().map(|(job, _)| job), Some(Job::Time(6)));
        assert_eq!(q.next().map(|(job, _)| job), Some(Job::Judge(8)));
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(20));
                drop(build);
            });
            assert_eq!(q.next().map(|(job, _)| job), Some(Job::Judge(5)));
        });
        q.judge(7, false);
        q.drop_the_rest();
        assert!(q.next().is_none());
    }

    #[test]
    fn a_core_is_spare_only_when_free_and_nothing_waits() {
        let q = Queue::new(2);
        let run = q.running();
        let ahead = q.spare().expect("one core of two is free");
        assert!(q.spare().is_none(), "both cores are busy");
        drop(ahead);
        q.judge(0, false);
        assert!(q.spare().is_none(), "a submission waits for the free core");
        assert_eq!(q.next().map(|(job, _)| job), Some(Job::Judge(0)));
        drop(run);
        assert!(q.spare().is_some());
    }

    fn limits(time: f64, stop: f64, settling: Option<&'static crate::run::Settling>) -> RunLimits {
        RunLimits {
            time: Duration::from_secs_f64(time),
            limits: crate::run::Limits {
                time: Duration::from_secs_f64(stop),
                timing: crate::run::Timing::Cpu,
                output: 1,
                memory: None,
                settling,
            },
        }
    }

    fn judged(verdict: Verdict, cpu: f64, wall: f64, rejected_first: bool) -> Option<Judged> {
        Some(Judged {
            result: crate::verdict::CaseResult {
                name: "c".to_string(),
                verdict,
                time: cpu,
                cpu,
                wall,
                memory: 0,
                exit_code: None,
                detail: None,
                score: None,
                message: None,
            },
            rejected_first,
        })
    }

    #[test]
    fn early_runs_stand_where_the_limit_would_have_ended_them_the_same_way() {
        static SETTLING: crate::run::Settling = crate::run::Settling::new();
        let raw = vec![
            judged(Verdict::Accepted, 1.5, 1.6, false),
            judged(Verdict::WrongAnswer, 0.1, 0.1, false),
            // Stopped at the smaller limit's stop (4 s), before the limit was settled.
            judged(Verdict::TimeLimit, 4.0, 4.1, false),
            // Stopped at the real stop (8 s): settled while it ran.
            judged(Verdict::TimeLimit, 8.0, 8.2, false),
            // Stopped at the real wall-time backstop (16 s), asleep.
            judged(Verdict::TimeLimit, 0.01, 16.0, false),
            judged(Verdict::JudgeError, 0.0, 0.0, false),
            judged(Verdict::WrongAnswer, 3.0, 4.0, true),
            None,
        ];
        let early = Early {
            raw: raw.clone(),
            limits: limits(1.0, 4.0, Some(&SETTLING)),
        };
        let kept: Vec<bool> = early
            .reusable(limits(2.0, 8.0, None))
            .iter()
            .map(Option::is_some)
            .collect();
        assert_eq!(kept, [true, true, false, true, true, false, true, false]);
        // Made with the limit itself, known from the start: all stand as they are.
        let early = Early {
            raw,
            limits: limits(2.0, 8.0, None),
        };
        let kept = early.reusable(limits(2.0, 8.0, None));
        assert_eq!(kept.iter().filter(|r| r.is_some()).count(), 7);
    }

    #[test]
    fn the_last_phase_takes_what_was_not_claimed_and_waits_for_what_was() {
        let slots = Slots::new(2);
        assert!(slots.claim(0));
        assert!(slots.started(0) && !slots.started(1));
        assert!(slots.take(1).is_none());
        assert!(!slots.claim(1), "taken: no longer judged early");
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(20));
                let limits = RunLimits {
                    time: Duration::from_secs(1),
                    limits: crate::run::Limits {
                        time: Duration::from_secs(2),
                        timing: crate::run::Timing::Cpu,
                        output: 1,
                        memory: None,
                        settling: None,
                    },
                };
                slots.finish(
                    0,
                    Early {
                        raw: Vec::new(),
                        limits,
                    },
                );
            });
            assert!(slots.take(0).is_some(), "waited for the early judging");
        });
    }
}
