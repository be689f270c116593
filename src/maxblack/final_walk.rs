//! The final walk on several threads: the walk is cut into units of work (the prefixes of its
//! first rows, [`Search::units`]), which the threads take in turn, sharing one table of
//! failures. The maximum comes from walks with a falling goal that stop at the first grid; then a
//! last walk at the maximum visits the optimal grids. Whatever the number of threads, the same
//! units are walked with the same goals, so the answer is the same.
//!
//! In the walks with a falling goal, a unit that takes longer than a budget is split: its walk
//! gives up, the parts it finished are saved (each child, grandchild... of the unit before the
//! node it was at, numbered as [`Search::children`] lists them), and its children not done become
//! parts of work of their own, taken by any thread, and split again if they are large. So the
//! checkpoint records progress at least once per budget, and a large unit is shared by the
//! threads.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::checkpoint::{Checkpoint, Settings, Snapshot};
use super::error::Error;
use super::search::{Budget, Search, Stage};
use super::units::{Outcome, Units};
use super::work_queue::{lock, Walked, WorkQueue};

/// The rows of each unit of work, when the grid is high enough (else one unit: the whole walk).
const UNIT_ROWS: usize = 2;

/// How the final walk runs.
pub struct Plan<'a> {
    /// The progress so far, updated as units end.
    pub checkpoint: &'a Mutex<Checkpoint>,
    /// Stop with [`Error::Stopped`] after this many units or parts of units (to test resuming).
    pub stop_after: Option<usize>,
    /// A walk of a unit or part gives up, to be split, past this many nodes or this long.
    pub budget: (u64, Duration),
}

/// The searches of the threads: the first one is the caller's, the others share its tables and
/// its table of failures.
pub fn workers(search: Search, threads: usize) -> Vec<Search> {
    let mut all: Vec<Search> = (1..threads).map(|_| search.worker()).collect();
    all.insert(0, search);
    all
}

/// What the checkpoint of the final walk for the puzzle `grid` (rows, columns, K) depends on,
/// when the search's grid has `rows` rows and `prune_images` is on or off.
pub fn settings(grid: (usize, usize, usize), rows: usize, prune_images: bool) -> Settings {
    Settings {
        grid,
        unit_rows: unit_rows(rows),
        part_rows: part_rows(rows),
        pruned: rows >= 2 && prune_images,
    }
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
        lock(plan.checkpoint).start_pass(goal, units.len())?;
        // The floor is always reached (the rectangle one row lower, then a white row).
        let found = if goal <= floor {
            Some(None)
        } else {
            pass(workers, &units, goal, plan, &mut units_walked)?.map(Some)
        };
        if let Some(Some(grid)) = &found {
            workers[0].tell(Stage::GridAt {
                goal,
                grid: grid.clone(),
            });
        }
        let mut checkpoint = lock(plan.checkpoint);
        if found.is_some() {
            checkpoint.max_known = true;
            checkpoint.save()?;
            return Ok(goal);
        }
        drop(checkpoint);
        workers[0].tell(Stage::NoGridAt { goal });
        goal -= 1;
        let mut checkpoint = lock(plan.checkpoint);
        checkpoint.start_pass(goal, 0)?;
        checkpoint.units = None;
        checkpoint.save()?;
    }
}

/// The deepest rows at which parts of units are numbered (and split) in a grid of `rows` rows:
/// three rows above the bottom, where a part is small.
fn part_rows(rows: usize) -> usize {
    rows.saturating_sub(3).max(unit_rows(rows))
}

/// One pass at `goal`: a grid with `goal` black cells or more in some unit not yet done, if
/// there is one. The units and parts found empty are marked done in the checkpoint.
fn pass(
    workers: &mut [Search],
    units: &Units,
    goal: u32,
    plan: &Plan,
    units_walked: &mut usize,
) -> Result<Option<Vec<u32>>, Error> {
    let to = part_rows(workers[0].rows());
    let found = Arc::new(AtomicBool::new(false));
    let queue = WorkQueue::new(units, plan.checkpoint, Arc::clone(&found));
    let grid: Mutex<Option<Vec<u32>>> = Mutex::new(None);
    let walked = AtomicUsize::new(*units_walked);
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    let budget = Budget {
        nodes: plan.budget.0,
        time: plan.budget.1,
        cancel: Some(Arc::clone(&found)),
    };
    {
        // Shared by reference: explicit, so that the bundle compiles under the 2018 edition too (no
        // disjoint closure captures there).
        let (queue, found, grid, walked, failure, budget) =
            (&queue, &found, &grid, &walked, &failure, &budget);
        run_workers(workers, |search| {
            while let Some(part) = queue.take() {
                if plan
                    .stop_after
                    .is_some_and(|n| walked.fetch_add(1, Ordering::Relaxed) >= n)
                {
                    return queue.release(true);
                }
                let skip = queue.done_inside(&part);
                let walked = match search.walk_part(&part.prefix, goal, to, skip, budget.clone()) {
                    Outcome::Found(g) => {
                        lock(grid).get_or_insert(g);
                        found.store(true, Ordering::Relaxed);
                        return queue.release(false);
                    }
                    _ if found.load(Ordering::Relaxed) => return queue.release(false),
                    Outcome::GaveUp(at) => Walked::GaveUp {
                        at,
                        children: search.children(&part.prefix, goal),
                    },
                    Outcome::Empty => Walked::Empty,
                };
                if let Some(Err(e)) = queue.record(&part, walked).map(Snapshot::write) {
                    *lock(failure) = Some(e);
                    queue.stop();
                }
            }
        });
    }
    *units_walked = walked.into_inner();
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    if let Some(g) = grid.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Ok(Some(g));
    }
    if queue.stopped() {
        lock(plan.checkpoint).save()?;
        return Err(Error::Stopped);
    }
    Ok(None)
}

/// Visits every grid the final walk visits at the goal `max` (the maximum): the units are shared
/// out among the threads, and each thread's visits go to its own `collect[t]`. A visit that
/// returns false stops the walk of every thread (at its next grid, or its next unit).
pub fn each_optimal<C: Send>(
    workers: &mut [Search],
    rows: usize,
    max: u32,
    collect: &mut [C],
    visit: impl Fn(&mut C, &[u32]) -> bool + Sync,
) {
    let units = workers[0].units(max, unit_rows(rows));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut pairs: Vec<(&mut Search, &mut C)> =
        workers.iter_mut().zip(collect.iter_mut()).collect();
    let (units, next, stop, visit) = (&units, &next, &stop, &visit);
    run_workers(&mut pairs, |pair| loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(unit) = units.get(i).filter(|_| !stop.load(Ordering::Relaxed)) else {
            return;
        };
        let (search, c) = pair;
        search.walk_unit(unit, max, &mut |grid, _| {
            if visit(c, grid) && !stop.load(Ordering::Relaxed) {
                Some(max)
            } else {
                stop.store(true, Ordering::Relaxed);
                None
            }
        });
    });
}

/// Runs `work` once for each of `workers`: on the calling thread when there is only one (no
/// thread is started), else on scoped threads, one per worker, returning when all are done.
fn run_workers<W: Send>(workers: &mut [W], work: impl Fn(&mut W) + Sync) {
    if let [only] = workers {
        work(only);
        return;
    }
    let work = &work;
    std::thread::scope(|scope| {
        for w in workers.iter_mut() {
            scope.spawn(move || work(w));
        }
    });
}
