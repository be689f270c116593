//! Cases run ahead of a submission's walk. While the walk (see [`grading::walk`]) waits for one
//! case's run, a core that nothing else of the verify uses runs a case the walk will need if
//! every case before it passes: the next one, or, for a submission that promises a time limit,
//! the one with the largest input (where it is likeliest to time out: its wait is the longest
//! of the submission's). So one submission's cases fill the cores at the end of a verify, and
//! the longest wait of a time-limit submission starts early.
//!
//! A run made ahead is the run the walk would have made (the same program, case and limits):
//! the walk takes it when it reaches its case, in its own order, so the grades are those of a
//! walk case by case. A run the walk never reaches (its group stopped before) is stopped at
//! once when the walk ends, and dropped: its time was spent on a core that was free.

use std::thread::ScopedJoinHandle;

use crate::run::Settling;

use super::early::{Busy, Queue};
use super::grading;
use super::judging::{Judged, RunLimits};
use super::problem::Problem;
use crate::verdict::CaseResult;

/// Where runs may be made ahead: the verify's queue, which lends a core nothing else uses.
#[derive(Clone, Copy)]
pub struct Ahead<'q> {
    pub queue: &'q Queue,
    /// The submission promises a time limit: the largest input runs ahead first.
    pub heavy_first: bool,
}

/// A case's run under `limits`.
pub type Judge<'a> = dyn Fn(usize, RunLimits) -> Judged + Sync + 'a;

/// Walks `problem`'s groups with the runs in `made` (those that stand) and the runs `judge`
/// makes of the others under `limits`, some of them ahead of the walk when `ahead` lends a
/// core; gives each case the walk takes, in its order, to `each`, which returns the result the
/// walk grades. Returns the runs per case (`None` where the walk did not take the case).
pub fn walk(
    problem: &Problem,
    limits: RunLimits,
    made: &[Option<Judged>],
    ahead: Option<Ahead>,
    judge: &Judge,
    each: &mut dyn FnMut(usize, &Judged) -> CaseResult,
) -> Vec<Option<Judged>> {
    let mut raw: Vec<Option<Judged>> = vec![None; problem.cases.len()];
    // What choosing a case to run ahead needs, worked out only where cases may run ahead.
    let order = ahead.map(|_| grading::order(problem)).unwrap_or_default();
    let sizes: Option<Vec<u64>> = ahead.filter(|a| a.heavy_first).map(|_| {
        (0..problem.cases.len())
            .map(|c| input_size(problem, c))
            .collect()
    });
    std::thread::scope(|scope| {
        let mut under_way = UnderWay {
            scope,
            runs: (0..problem.cases.len()).map(|_| None).collect(),
        };
        grading::walk(problem, &mut |c| {
            let judged = match made.get(c).cloned().flatten() {
                Some(judged) => judged,
                None => {
                    if let Some(ahead) = ahead {
                        let next = Next {
                            order: &order,
                            current: c,
                            made,
                            sizes: sizes.as_deref(),
                        };
                        under_way.start(&next, ahead.queue, limits, judge);
                    }
                    under_way.take(c).unwrap_or_else(|| judge(c, limits))
                }
            };
            let r = each(c, &judged);
            raw[c] = Some(judged);
            Some(r)
        });
        under_way.stop_all();
    });
    raw
}

/// The cases a walk may need after `current`: those after it in `order` (the order of a walk
/// where every case passes) with no run in `made`; with `sizes` (each case's input size, for
/// a submission that promises a time limit), the largest first.
struct Next<'a> {
    order: &'a [usize],
    current: usize,
    made: &'a [Option<Judged>],
    sizes: Option<&'a [u64]>,
}

/// The runs made ahead of a walk, per case: each with the settling that stops it alone.
struct UnderWay<'s, 'e> {
    scope: &'s std::thread::Scope<'s, 'e>,
    runs: Vec<Option<(ScopedJoinHandle<'s, Judged>, &'static Settling)>>,
}

impl<'s, 'e> UnderWay<'s, 'e> {
    /// Starts, on each core `queue` lends, a run of the first of the cases `next` names that
    /// is not under way.
    fn start(&mut self, next: &Next, queue: &'e Queue, limits: RunLimits, judge: &'e Judge) {
        let after = next
            .order
            .iter()
            .position(|&c| c == next.current)
            .map_or(next.order.len(), |k| k + 1);
        // A core first (the cases are looked at only when one is lent).
        while let Some(busy) = queue.spare() {
            let mut open = next.order[after..].iter().copied().filter(|&c| {
                next.made.get(c).is_none_or(Option::is_none) && self.runs[c].is_none()
            });
            let case = match next.sizes {
                Some(sizes) => open.max_by_key(|&c| (sizes[c], std::cmp::Reverse(c))),
                None => open.next(),
            };
            // None left: the core is given back.
            let Some(case) = case else { return };
            // Its own stop (one per run made ahead, a few words each): it follows the walk's.
            let own: &'static Settling =
                Box::leak(Box::new(Settling::under(limits.limits.settling)));
            let mut its = limits;
            its.limits.settling = Some(own);
            let handle = self.scope.spawn(move || {
                let _busy: Busy = busy;
                judge(case, its)
            });
            self.runs[case] = Some((handle, own));
        }
    }

    /// The run made ahead for case `c`, once it has ended, if one was started.
    fn take(&mut self, c: usize) -> Option<Judged> {
        let (handle, _) = self.runs[c].take()?;
        Some(
            handle
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p)),
        )
    }

    /// Stops the runs the walk did not take (the scope then waits for their end).
    fn stop_all(&mut self) {
        for (_, own) in self.runs.iter().flatten() {
            own.stop_now();
        }
    }
}

/// The size of case `c`'s input in bytes (0 if unreadable).
fn input_size(problem: &Problem, c: usize) -> u64 {
    std::fs::metadata(&problem.cases[c].input).map_or(0, |m| m.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;
    use std::sync::Mutex;
    use std::time::Duration;

    /// A legacy package of `cases` secret cases, the `k`-th input `k + 1` bytes long.
    fn package(cases: usize) -> (tempfile::TempDir, Problem) {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let secret = dir.path().join("data/secret");
        std::fs::create_dir_all(&secret).expect("data/secret");
        std::fs::write(dir.path().join("problem.yaml"), "name: ahead\n").expect("problem.yaml");
        for k in 0..cases {
            std::fs::write(secret.join(format!("{k}.in")), "x".repeat(k + 1)).expect("an input");
            std::fs::write(secret.join(format!("{k}.ans")), "").expect("an answer");
        }
        let problem = super::super::read(dir.path()).expect("the package reads");
        (dir, problem)
    }

    /// A limit of 1 s, stopped at the package's margin.
    fn limits(problem: &Problem) -> RunLimits {
        RunLimits::of(problem, Duration::from_secs(1))
    }

    /// Case `c` of `problem` with `verdict`, in no time.
    fn judged(problem: &Problem, c: usize, verdict: Verdict) -> Judged {
        Judged {
            result: CaseResult {
                verdict,
                ..grading::accepted(problem, c)
            },
            rejected_first: false,
        }
    }

    #[test]
    fn runs_made_ahead_are_taken_in_the_walks_order_and_the_rest_stopped() {
        let (_dir, problem) = package(4);
        // One core to lend (the walk holds the other): it goes to the largest input, not to
        // the next case.
        let queue = Queue::new(2);
        let walking = queue.running();
        let started = Mutex::new(Vec::new());
        // Case 1 is rejected: the walk (on_reject: break) never takes 2 and 3. Case 3, the
        // largest, runs until stopped.
        let judge = |c: usize, limits: RunLimits| {
            started.lock().unwrap().push(c);
            match c {
                1 => {
                    std::thread::sleep(Duration::from_millis(50));
                    judged(&problem, c, Verdict::WrongAnswer)
                }
                3 => {
                    while limits.limits.now().time > Duration::from_micros(1) {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    judged(&problem, c, Verdict::TimeLimit)
                }
                _ => judged(&problem, c, Verdict::Accepted),
            }
        };
        let ahead = Ahead {
            queue: &queue,
            heavy_first: true,
        };
        let mut taken = Vec::new();
        let raw = walk(
            &problem,
            limits(&problem),
            &[],
            Some(ahead),
            &judge,
            &mut |c, j| {
                taken.push(c);
                j.result.clone()
            },
        );
        assert_eq!(
            taken,
            [0, 1],
            "the walk's own order, stopped at the rejection"
        );
        assert!(raw[0].is_some() && raw[1].is_some() && raw[2].is_none() && raw[3].is_none());
        let started = started.into_inner().unwrap();
        assert!(
            started.contains(&3) && !started.contains(&2),
            "the largest input ran ahead, alone: {started:?}"
        );
        drop(walking);
        assert!(queue.spare().is_some(), "the cores lent are given back");
    }

    #[test]
    fn without_a_core_to_lend_the_walk_runs_case_by_case() {
        let (_dir, problem) = package(3);
        let queue = Queue::new(1);
        let _busy = queue.running();
        let started = Mutex::new(Vec::new());
        let judge = |c: usize, _: RunLimits| {
            started.lock().unwrap().push(c);
            judged(&problem, c, Verdict::Accepted)
        };
        let ahead = Ahead {
            queue: &queue,
            heavy_first: false,
        };
        let made = vec![None, Some(judged(&problem, 1, Verdict::Accepted)), None];
        walk(
            &problem,
            limits(&problem),
            &made,
            Some(ahead),
            &judge,
            &mut |_, j| j.result.clone(),
        );
        assert_eq!(
            started.into_inner().unwrap(),
            [0, 2],
            "a made run is not made again"
        );
    }
}
