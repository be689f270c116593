//! The final walk on several threads: the walk is cut into units of work (the prefixes of its
//! first rows, [`Search::units`]), which the threads take in turn, each with its own table of
//! failures. The maximum comes from walks with a falling goal that stop at the first grid; then a
//! last walk at the maximum visits the optimal grids. Whatever the number of threads, the same
//! units are walked with the same goals, so the answer is the same.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::checkpoint::Checkpoint;
use super::error::Error;
use super::search::{Search, Stage};

/// The rows of each unit of work, when the grid is high enough (else one unit: the whole walk).
const UNIT_ROWS: usize = 2;

/// How the final walk runs.
pub struct Plan<'a> {
    /// The progress so far, updated as units end.
    pub checkpoint: &'a Mutex<Checkpoint>,
    /// Stop with [`Error::Stopped`] after this many units (to test resuming).
    pub stop_after: Option<usize>,
}

/// The searches of the threads: the first one is the caller's, the others share its tables and
/// its table of failures.
pub fn workers(search: Search, threads: usize) -> Vec<Search> {
    let mut all: Vec<Search> = (1..threads).map(|_| search.worker()).collect();
    all.insert(0, search);
    all
}

/// The depth of the units for a grid of `rows` rows.
fn unit_rows(rows: usize) -> usize {
    if rows >= 6 {
        UNIT_ROWS
    } else {
        0
    }
}

/// The maximum: passes with a falling goal, from the checkpoint's pass or the Russian-doll bound,
/// each stopping at the first grid; every pass that finds none is told and saved.
///
/// # Errors
/// [`Error::Checkpoint`] if the checkpoint cannot be written, [`Error::Stopped`] as the plan asks.
pub fn maximum(workers: &mut [Search], rows: usize, plan: &Plan) -> Result<u32, Error> {
    let start = lock(plan.checkpoint).pass;
    if lock(plan.checkpoint).max_known {
        return Ok(start.expect("a maximum"));
    }
    let mut goal = start.unwrap_or_else(|| workers[0].grid_bound());
    let floor = workers[0].grid_floor();
    let mut units_walked = 0;
    loop {
        let units = workers[0].units(goal, unit_rows(rows));
        lock(plan.checkpoint).start_pass(goal, units.len());
        // The floor is always reached (the rectangle one row lower, then a white row).
        let found = goal <= floor || pass(workers, &units, goal, plan, &mut units_walked)?;
        let mut checkpoint = lock(plan.checkpoint);
        if found {
            checkpoint.max_known = true;
            checkpoint.save()?;
            return Ok(goal);
        }
        drop(checkpoint);
        workers[0].tell(Stage::NoGridAt { goal });
        goal -= 1;
        let mut checkpoint = lock(plan.checkpoint);
        checkpoint.start_pass(goal, 0);
        checkpoint.save()?;
    }
}

/// One pass at `goal`: whether some unit not yet done holds a grid with `goal` black cells or
/// more. The units found empty are marked done in the checkpoint.
fn pass(
    workers: &mut [Search],
    units: &[Vec<u32>],
    goal: u32,
    plan: &Plan,
    units_walked: &mut usize,
) -> Result<bool, Error> {
    let next = AtomicUsize::new(0);
    let found = AtomicBool::new(false);
    let stopped = AtomicBool::new(false);
    let walked = AtomicUsize::new(*units_walked);
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    {
        // Shared by reference: explicit, so that the bundle compiles under the 2018 edition too
        // (no disjoint closure captures there).
        let (next, found, stopped, walked, failure) = (&next, &found, &stopped, &walked, &failure);
        let work = move |search: &mut Search| loop {
            if found.load(Ordering::Relaxed) || stopped.load(Ordering::Relaxed) {
                return;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= units.len() {
                return;
            }
            if lock(plan.checkpoint).done[i] {
                continue;
            }
            if plan
                .stop_after
                .is_some_and(|n| walked.fetch_add(1, Ordering::Relaxed) >= n)
            {
                stopped.store(true, Ordering::Relaxed);
                return;
            }
            if search.walk_unit(&units[i], goal, &mut |_, _| None) {
                found.store(true, Ordering::Relaxed);
                return;
            }
            let mut checkpoint = lock(plan.checkpoint);
            checkpoint.done[i] = true;
            if let Err(e) = checkpoint.save_now_and_then() {
                *lock(failure) = Some(e);
                stopped.store(true, Ordering::Relaxed);
            }
        };
        on_threads(workers, work);
    }
    *units_walked = walked.into_inner();
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    if found.into_inner() {
        return Ok(true);
    }
    if stopped.into_inner() {
        lock(plan.checkpoint).save()?;
        return Err(Error::Stopped);
    }
    Ok(false)
}

/// Visits every grid the final walk visits at the goal `max` (the maximum): the units are shared
/// out among the threads, and each thread's visits go to its own `collect[t]`.
pub fn each_optimal<C: Send>(
    workers: &mut [Search],
    rows: usize,
    max: u32,
    collect: &mut [C],
    visit: impl Fn(&mut C, &[u32]) + Sync,
) {
    let units = workers[0].units(max, unit_rows(rows));
    let next = AtomicUsize::new(0);
    let (units, next, visit) = (&units, &next, &visit);
    let work = move |(search, c): (&mut Search, &mut C)| loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(unit) = units.get(i) else {
            return;
        };
        search.walk_unit(unit, max, &mut |grid, _| {
            visit(c, grid);
            Some(max)
        });
    };
    on_threads(workers.iter_mut().zip(collect.iter_mut()), work);
}

/// Runs `work` on each of `jobs`, each on a thread of its own; a single job on the caller's
/// thread (no thread to start, and none still exiting when the walk returns: `thread::scope`
/// returns once its threads' closures are done, before the threads themselves have exited).
fn on_threads<J: Send>(jobs: impl IntoIterator<Item = J>, work: impl Fn(J) + Sync) {
    let mut jobs = jobs.into_iter().peekable();
    let Some(first) = jobs.next() else {
        return;
    };
    if jobs.peek().is_none() {
        work(first);
        return;
    }
    let work = &work;
    std::thread::scope(|scope| {
        for job in std::iter::once(first).chain(jobs) {
            scope.spawn(move || work(job));
        }
    });
}

/// Locks `m`, also after a thread panicked while holding it (its data is still consistent: every
/// change is one field set).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
