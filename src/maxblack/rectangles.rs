//! The Russian-doll stage on several threads: the exact maxima of the smaller rectangles that the
//! final grid's bounds are built from.
//!
//! A rectangle is solved on rows as narrow as its shorter side: `h` rows of `w <= h` cells (the
//! key `(h, w)`), by walks with a falling target from the Russian-doll bound, which needs the
//! maxima of the rectangles `j` x `w` for `j < h` (the key `(w, j)` when `j < w`, through the
//! transpose, else `(j, w)`). The keys form a graph with no cycle (every key needed comes before
//! in the order of `(h, w)`), each solved once; the threads take the keys whose needs are solved,
//! in that order. A maximum is a fact, so the maxima are the same for any number of threads.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, OnceLock};

use super::search::{Search, Tables};
use super::solver::Speedups;

/// A rectangle: `h` rows of `w <= h` cells.
type Key = (usize, usize);

/// The key of the rectangle of `j` rows of `w` cells.
fn key(j: usize, w: usize) -> Key {
    (j.max(w), j.min(w))
}

/// The rectangles the key `(h, w)` needs the maxima of: `j` x `w` for `2 <= j < h` (one row is
/// the best row of the tables).
fn needs((h, w): Key) -> impl Iterator<Item = Key> {
    (2..h).map(move |j| key(j, w))
}

/// The maxima of the rectangles `m` x `n` for `m` in `0..rows` (`best[0] = 0`), with rows of at
/// most `n` cells, no `k` in a row, on `threads` threads; `tell(m, max)` is called for each `m`
/// in order as soon as the maxima up to it are known.
pub fn maxima(
    n: usize,
    rows: usize,
    k: usize,
    speedups: Speedups,
    threads: usize,
    tell: &mut (dyn FnMut(usize, u32) + Send),
) -> Vec<u32> {
    let wanted: Vec<Key> = (2..rows).map(|m| key(m, n)).collect();
    let mut all: Vec<Key> = Vec::new();
    let mut stack = wanted.clone();
    while let Some(k) = stack.pop() {
        if !all.contains(&k) {
            all.push(k);
            stack.extend(needs(k));
        }
    }
    all.sort_unstable();
    let tables = TableCache::default();
    let state = Mutex::new(State {
        values: HashMap::new(),
        taken: vec![false; all.len()],
        told: 0,
        best: vec![0],
        tell,
    });
    let ready = Condvar::new();
    let row = |w: usize| u32::from(tables.get(w, k.min(w + 1)).best_row[0]);
    let first_row = row(n);
    {
        let mut s = lock(&state);
        if rows > 1 {
            s.best.push(first_row);
            (s.tell)(1, first_row);
        }
        s.told = 1;
    }
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, all.len().max(1)) {
            let (all, state, ready, tables, wanted) = (&all, &state, &ready, &tables, &wanted);
            scope.spawn(move || {
                let mut s = lock(state);
                loop {
                    let next = (0..all.len())
                        .find(|&i| !s.taken[i] && needs(all[i]).all(|d| s.values.contains_key(&d)));
                    let Some(i) = next else {
                        if s.taken.iter().all(|&t| t) {
                            return;
                        }
                        s = ready
                            .wait(s)
                            .unwrap_or_else(std::sync::PoisonError::into_inner);
                        continue;
                    };
                    s.taken[i] = true;
                    let (h, w) = all[i];
                    let kk = k.min(h + 1);
                    let t = tables.get(w, kk);
                    // The maxima j x w for j < h; they never fall as j grows.
                    let mut best = vec![0, u32::from(t.best_row[0])];
                    for d in needs((h, w)) {
                        let v = s.values[&d].max(best[best.len() - 1]);
                        best.push(v);
                    }
                    drop(s);
                    let max = Search::sharing(t, h, best, speedups).direct_max(h);
                    s = lock(state);
                    s.values.insert((h, w), max);
                    s.tell_known(wanted);
                    ready.notify_all();
                }
            });
        }
    });
    let mut s = lock(&state);
    s.tell_known(&wanted);
    std::mem::take(&mut s.best)
}

/// What the threads share.
struct State<'a> {
    /// The maxima found so far.
    values: HashMap<Key, u32>,
    /// `taken[i]`: whether a thread took the `i`-th key.
    taken: Vec<bool>,
    /// The rows of the last rectangle of the final grid's width told.
    told: usize,
    /// The final grid's width's maxima so far.
    best: Vec<u32>,
    tell: &'a mut (dyn FnMut(usize, u32) + Send),
}

impl State<'_> {
    /// Tells the final grid's width's maxima that are known, in order.
    fn tell_known(&mut self, wanted: &[Key]) {
        while let Some(&key) = wanted.get(self.told - 1) {
            let Some(&v) = self.values.get(&key) else {
                return;
            };
            let v = v.max(self.best[self.told]);
            self.best.push(v);
            self.told += 1;
            (self.tell)(self.told, v);
        }
    }
}

/// The row tables of each width (and K), built once.
#[derive(Default)]
struct TableCache {
    tables: Mutex<HashMap<(usize, usize), Arc<OnceLock<Arc<Tables>>>>>,
}

impl TableCache {
    fn get(&self, n: usize, k: usize) -> Arc<Tables> {
        let cell = Arc::clone(lock(&self.tables).entry((n, k)).or_default());
        Arc::clone(cell.get_or_init(|| Arc::new(Tables::new(n, k))))
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
