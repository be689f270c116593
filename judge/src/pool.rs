//! The judge's one worker pool: items `0..n` worked on by up to `jobs` threads, their results
//! handed back in index order as soon as each is ready, so that a report can show every case
//! the moment the cases before it are done.
//!
//! Contract:
//! - `seen` gets the results in index order, one at a time, on the calling thread;
//! - an error stops the run at once: no worker takes another item (the items already running
//!   finish), and the error returned is that of the smallest index, after `seen` has had every
//!   result before it, exactly as with one job;
//! - `seen` may stop the run too ([`ControlFlow::Break`]): no item is taken after that, and the
//!   results of items past it are dropped;
//! - with one job, or when no thread can be started (a fork bomb elsewhere), the items run on
//!   the calling thread, one after the other; fewer threads than asked is not an error.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Runs `work(i)` for `i` in `0..n` on up to `jobs` threads and hands each `Ok` result to `seen`
/// in index order (see the module's contract).
///
/// # Errors
/// The error of the smallest index whose `work` failed.
pub fn in_order<T: Send, E: Send>(
    jobs: usize,
    n: usize,
    work: impl Fn(usize) -> Result<T, E> + Sync,
    mut seen: impl FnMut(usize, T) -> ControlFlow<()>,
) -> Result<(), E> {
    if jobs <= 1 || n <= 1 {
        return on_this_thread(n, &work, &mut seen);
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Result<T, E>)>();
    std::thread::scope(|scope| {
        let mut workers = 0;
        for _ in 0..jobs.min(n) {
            let tx = tx.clone();
            let (next, stop, work) = (&next, &stop, &work);
            let worker = move || take_items(n, next, stop, work, &tx);
            if std::thread::Builder::new()
                .name("judge-worker".to_owned())
                .spawn_scoped(scope, worker)
                .is_err()
            {
                break;
            }
            workers += 1;
        }
        drop(tx);
        if workers == 0 {
            return on_this_thread(n, &work, &mut seen);
        }
        let r = hand_over(rx, &mut seen, &stop);
        stop.store(true, Ordering::SeqCst);
        r
    })
}

/// One worker: takes the next item until there is none, or the run is stopped.
fn take_items<T, E>(
    n: usize,
    next: &AtomicUsize,
    stop: &AtomicBool,
    work: &(impl Fn(usize) -> Result<T, E> + Sync),
    tx: &mpsc::Sender<(usize, Result<T, E>)>,
) {
    while !stop.load(Ordering::SeqCst) {
        let i = next.fetch_add(1, Ordering::SeqCst);
        if i >= n {
            break;
        }
        let r = work(i);
        if r.is_err() {
            // Before the result is sent, so that no worker takes another item.
            stop.store(true, Ordering::SeqCst);
        }
        if tx.send((i, r)).is_err() {
            break;
        }
    }
}

/// Receives the workers' results, keeps the early ones, and hands them to `seen` in index
/// order; sets `stop` when `seen` breaks.
fn hand_over<T, E>(
    rx: mpsc::Receiver<(usize, Result<T, E>)>,
    seen: &mut impl FnMut(usize, T) -> ControlFlow<()>,
    stop: &AtomicBool,
) -> Result<(), E> {
    let mut early = BTreeMap::new();
    let mut done = 0;
    for (i, r) in rx {
        early.insert(i, r);
        while let Some(r) = early.remove(&done) {
            let flow = seen(done, r?);
            done += 1;
            if flow.is_break() {
                stop.store(true, Ordering::SeqCst);
                return Ok(());
            }
        }
    }
    // The run stopped on an error of an item after one that never ran: that error.
    early
        .into_values()
        .find_map(Result::err)
        .map_or(Ok(()), Err)
}

/// The items one after the other on the calling thread.
fn on_this_thread<T, E>(
    n: usize,
    work: &impl Fn(usize) -> Result<T, E>,
    seen: &mut impl FnMut(usize, T) -> ControlFlow<()>,
) -> Result<(), E> {
    for i in 0..n {
        if seen(i, work(i)?).is_break() {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Every result in order, for any number of jobs.
    #[test]
    fn results_come_in_index_order() {
        for jobs in [1, 2, 3, 8] {
            let mut got = Vec::new();
            let r: Result<(), ()> = in_order(
                jobs,
                50,
                |i| Ok(i * i),
                |i, v| {
                    got.push((i, v));
                    ControlFlow::Continue(())
                },
            );
            assert_eq!(r, Ok(()));
            let want: Vec<_> = (0..50).map(|i| (i, i * i)).collect();
            assert_eq!(got, want, "jobs {jobs}");
        }
    }

    /// The error of the smallest index, after every result before it; nothing taken after it
    /// (beyond the items already running).
    #[test]
    fn an_error_stops_the_run_and_is_the_first_in_order() {
        for jobs in [1, 2, 4] {
            let taken = Mutex::new(Vec::new());
            let mut got = Vec::new();
            let r = in_order(
                jobs,
                1000,
                |i| {
                    taken.lock().unwrap().push(i);
                    if i == 7 || i == 9 {
                        Err(i)
                    } else {
                        Ok(i)
                    }
                },
                |_, v| {
                    got.push(v);
                    ControlFlow::Continue(())
                },
            );
            assert_eq!(r, Err(7), "jobs {jobs}");
            assert_eq!(got, (0..7).collect::<Vec<_>>(), "jobs {jobs}");
            let most = taken.lock().unwrap().iter().copied().max().unwrap();
            assert!(
                most < 7 + 2 * jobs,
                "jobs {jobs}: item {most} taken after the error"
            );
        }
    }

    /// `seen` breaking stops the run: nothing past the break is seen.
    #[test]
    fn seen_can_stop_the_run() {
        for jobs in [1, 3] {
            let mut got = Vec::new();
            let r: Result<(), ()> = in_order(jobs, 100, Ok, |i, v| {
                got.push(v);
                if i == 4 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert_eq!(r, Ok(()));
            assert_eq!(got, vec![0, 1, 2, 3, 4], "jobs {jobs}");
        }
    }

    #[test]
    fn no_items_is_no_work() {
        let r: Result<(), ()> = in_order(
            4,
            0,
            |_| -> Result<(), ()> { unreachable!() },
            |_, ()| unreachable!(),
        );
        assert_eq!(r, Ok(()));
    }
}
