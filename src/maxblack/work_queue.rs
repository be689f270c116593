//! The work of one pass of the final walk, shared by its threads: the units not done, then the
//! parts of the units split on the way, and what each walk proved, recorded in the checkpoint.
//!
//! Lock order: the queue's state, then the checkpoint. The checkpoint file is written outside
//! both, from a [`Snapshot`] taken under them.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use super::checkpoint::{Checkpoint, Done, Snapshot};
use super::units::Units;

/// A unit of work of a pass, or a part of one.
pub struct Part {
    /// The unit's number, then the child numbers down to the part.
    pub path: Vec<u32>,
    /// Its first rows.
    pub prefix: Vec<u32>,
}

/// What a walk of a part found, when it found no grid.
pub enum Walked {
    /// The part holds no grid as black as the goal.
    Empty,
    /// The walk gave up at the node whose path below the part is `at` (of each node on it, the
    /// children numbered before it are done), and the part's children are `children`.
    GaveUp {
        at: Vec<u32>,
        children: Vec<Vec<u32>>,
    },
}

/// The parts of a pass still to walk.
struct State {
    /// The parts of split units, taken first.
    parts: VecDeque<Part>,
    /// The next unit to take once they are all taken.
    next_unit: usize,
    /// Parts being walked.
    busy: usize,
    /// The parts split so far, with their number of children.
    split: HashMap<Vec<u32>, u32>,
}

/// The work of one pass: taken by the threads with [`WorkQueue::take`], each part handed back
/// with [`WorkQueue::record`] (or [`WorkQueue::release`] when the pass ends on it). The pass is
/// over when a grid is found, when it is stopped, or when no part is left and none is being
/// walked.
pub struct WorkQueue<'a> {
    state: Mutex<State>,
    /// Told when a part is handed back (new parts, or the end of the pass).
    wake: Condvar,
    units: &'a Units,
    checkpoint: &'a Mutex<Checkpoint>,
    /// Set when a walk found a grid.
    found: Arc<AtomicBool>,
    /// Set when the pass is to stop early (as asked, or after a failure).
    stopped: AtomicBool,
}

impl<'a> WorkQueue<'a> {
    /// The work of the pass over `units`, skipping the parts `checkpoint` has done; `found` is
    /// set by the threads when one finds a grid.
    pub fn new(
        units: &'a Units,
        checkpoint: &'a Mutex<Checkpoint>,
        found: Arc<AtomicBool>,
    ) -> Self {
        WorkQueue {
            state: Mutex::new(State {
                parts: VecDeque::new(),
                next_unit: 0,
                busy: 0,
                split: HashMap::new(),
            }),
            wake: Condvar::new(),
            units,
            checkpoint,
            found,
            stopped: AtomicBool::new(false),
        }
    }

    /// The next part to walk (a part of a split unit, or the next unit not done), waiting while
    /// other threads may still split theirs; `None` when the pass is over.
    pub fn take(&self) -> Option<Part> {
        let mut state = lock(&self.state);
        loop {
            if self.found.load(Ordering::Relaxed) || self.stopped() {
                return None;
            }
            if let Some(part) = self.next_part(&mut state) {
                state.busy += 1;
                return Some(part);
            }
            if state.busy == 0 {
                return None;
            }
            state = self
                .wake
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    /// The next part in `state`, or the next unit the checkpoint does not have done.
    fn next_part(&self, state: &mut State) -> Option<Part> {
        if let Some(part) = state.parts.pop_front() {
            return Some(part);
        }
        let checkpoint = lock(self.checkpoint);
        while let Some(prefix) = self.units.get(state.next_unit) {
            let path = vec![state.next_unit as u32];
            state.next_unit += 1;
            if !checkpoint.done.contains(&path) {
                return Some(Part {
                    path,
                    prefix: prefix.to_vec(),
                });
            }
        }
        None
    }

    /// The parts done inside `part`, for its walk to skip.
    pub fn done_inside(&self, part: &Part) -> Done {
        lock(self.checkpoint)
            .done
            .below(&part.path)
            .cloned()
            .unwrap_or_default()
    }

    /// Whether the pass is to stop early.
    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// Hands back a part taken without recording anything (the pass ends on it); with `stop`,
    /// stops the pass.
    pub fn release(&self, stop: bool) {
        if stop {
            self.stop();
        }
        lock(&self.state).busy -= 1;
        self.wake.notify_all();
    }

    /// Stops the pass: every thread ends at its next [`WorkQueue::take`].
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        self.wake.notify_all();
    }

    /// Hands back `part` with what its walk proved: marks it (or the parts it finished) done in
    /// the checkpoint, queues its children not done if it gave up, and marks done the split parts
    /// whose children are then all done. Returns a snapshot of the checkpoint if one is due, to
    /// be written by the caller (outside the locks).
    pub fn record(&self, part: &Part, walked: Walked) -> Option<Snapshot> {
        let mut state = lock(&self.state);
        let mut checkpoint = lock(self.checkpoint);
        let done = &mut checkpoint.done;
        let mut path = part.path.clone();
        let mut whole = match walked {
            Walked::GaveUp { at, children } => {
                // Before each node on the path where the walk gave up, its elder siblings are
                // done.
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
                state.split.insert(path.clone(), n);
                for (j, prefix) in children.into_iter().enumerate().rev() {
                    path.push(j as u32);
                    if !done.contains(&path) {
                        state.parts.push_front(Part {
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
            Walked::Empty => {
                done.insert(&path);
                true
            }
        };
        // A split part whose children are all done is done.
        while whole && path.len() > 1 {
            path.pop();
            whole = state
                .split
                .get(&path)
                .is_some_and(|&n| done.close(&path, n));
        }
        let snapshot = checkpoint.snapshot_if_due();
        drop(checkpoint);
        state.busy -= 1;
        drop(state);
        self.wake.notify_all();
        snapshot
    }
}

/// Locks `m`, also after a thread panicked while holding it (its data is still consistent: every
/// change is one field set).
pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
