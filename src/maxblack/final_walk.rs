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

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use super::checkpoint::{Checkpoint, Settings};
use super::error::Error;
use super::search::{Budget, Outcome, Search, Stage, Units};

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

/// A unit of work of a pass, or a part of one.
struct Part {
    /// The unit's number, then the child numbers down to the part.
    path: Vec<u32>,
    /// Its first rows.
    prefix: Vec<u32>,
}

/// The parts of a pass still to walk.
struct Queue {
    /// The parts of split units, taken first.
    parts: VecDeque<Part>,
    /// The next unit to take once they are all taken.
    next_unit: usize,
    /// Parts being walked.
    busy: usize,
    /// The parts split so far, with their number of children.
    split: HashMap<Vec<u32>, u32>,
}

impl Queue {
    /// The next part to walk: a part of a split unit, or the next unit not done.
    fn next_part(&mut self, units: &Units, plan: &Plan) -> Option<Part> {
        if let Some(part) = self.parts.pop_front() {
            return Some(part);
        }
        let checkpoint = lock(plan.checkpoint);
        while let Some(prefix) = units.get(self.next_unit) {
            let path = vec![self.next_unit as u32];
            self.next_unit += 1;
            if !checkpoint.done.contains(&path) {
                return Some(Part {
                    path,
                    prefix: prefix.to_vec(),
                });
            }
        }
        None
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
    let queue = Mutex::new(Queue {
        parts: VecDeque::new(),
        next_unit: 0,
        busy: 0,
        split: HashMap::new(),
    });
    let wake = Condvar::new();
    let found = Arc::new(AtomicBool::new(false));
    let grid: Mutex<Option<Vec<u32>>> = Mutex::new(None);
    let stopped = AtomicBool::new(false);
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
        let (queue, wake, found, grid, stopped, walked, failure, budget) = (
            &queue, &wake, &found, &grid, &stopped, &walked, &failure, &budget,
        );
        run_workers(workers, |search| loop {
            let part = {
                let mut q = lock(queue);
                loop {
                    if found.load(Ordering::Relaxed) || stopped.load(Ordering::Relaxed) {
                        return;
                    }
                    if let Some(part) = q.next_part(units, plan) {
                        q.busy += 1;
                        break part;
                    }
                    if q.busy == 0 {
                        return;
                    }
                    q = wake
                        .wait(q)
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                }
            };
            let finish = |stop: bool| {
                if stop {
                    stopped.store(true, Ordering::Relaxed);
                }
                lock(queue).busy -= 1;
                wake.notify_all();
            };
            if plan
                .stop_after
                .is_some_and(|n| walked.fetch_add(1, Ordering::Relaxed) >= n)
            {
                return finish(true);
            }
            let skip = lock(plan.checkpoint)
                .done
                .below(&part.path)
                .cloned()
                .unwrap_or_default();
            let outcome = search.walk_part(&part.prefix, goal, to, skip, budget.clone());
            if let Outcome::Found(g) = outcome {
                lock(grid).get_or_insert(g);
                found.store(true, Ordering::Relaxed);
                return finish(false);
            }
            if found.load(Ordering::Relaxed) {
                return finish(false);
            }
            let children = match &outcome {
                Outcome::GaveUp(_) => search.children(&part.prefix, goal),
                _ => Vec::new(),
            };
            let mut q = lock(queue);
            let mut checkpoint = lock(plan.checkpoint);
            let done = &mut checkpoint.done;
            let mut path = part.path.clone();
            let mut whole = match outcome {
                Outcome::GaveUp(at) => {
                    // Before each node on the path where the walk gave up, its elder
                    // siblings are done.
                    for &node in &at {
                        for elder in 0..node {
                            path.push(elder);
                            done.insert(&path);
                            path.pop();
                        }
                        path.push(node);
                    }
                    path.truncate(part.path.len());
                    let n = children.len() as u32;
                    q.split.insert(path.clone(), n);
                    for (j, prefix) in children.into_iter().enumerate().rev() {
                        path.push(j as u32);
                        if !done.contains(&path) {
                            q.parts.push_front(Part {
                                path: path.clone(),
                                prefix,
                            });
                        }
                        path.pop();
                    }
                    if n == 0 {
                        done.insert(&path);
                    }
                    n == 0 || done.close(&path, n)
                }
                _ => {
                    done.insert(&path);
                    true
                }
            };
            // A split part whose children are all done is done.
            while whole && path.len() > 1 {
                path.pop();
                whole = q.split.get(&path).is_some_and(|&n| done.close(&path, n));
            }
            if let Err(e) = checkpoint.save_now_and_then() {
                *lock(failure) = Some(e);
                stopped.store(true, Ordering::Relaxed);
            }
            drop(checkpoint);
            q.busy -= 1;
            drop(q);
            wake.notify_all();
        });
    }
    *units_walked = walked.into_inner();
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    if let Some(g) = grid.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Ok(Some(g));
    }
    if stopped.into_inner() {
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

/// Locks `m`, also after a thread panicked while holding it (its data is still consistent: every
/// change is one field set).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
