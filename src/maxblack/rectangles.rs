//! The Russian-doll stage on several threads: the exact maxima of the smaller rectangles that the
//! final grid's bounds are built from.
//!
//! A rectangle is solved on rows as narrow as its shorter side: `h` rows of `w <= h` cells (the
//! key `(h, w)`), by walks with a falling target from the Russian-doll bound, which needs the
//! maxima of the rectangles `j` x `w` for `j < h` (the key `(w, j)` when `j < w`, through the
//! transpose, else `(j, w)`). Every key needed comes before in the order of `(h, w)`: the keys
//! are solved once each, in that order, and each key's walks are shared out among the threads
//! as the final walk's are (its units of work, see `final_walk`), since a few large keys take
//! nearly all the time (for 17 x 17, K = 3: 15 x 15, 16 x 16 and 17 x 16, each needing the one
//! before). A maximum is a fact, so the maxima are the same for any number of threads.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::checkpoint::Checkpoint;
use super::final_walk::{self, Plan};
use super::search::{Search, Speedups, Tables};

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
    tell: &mut dyn FnMut(usize, u32),
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
    let mut tables: HashMap<(usize, usize), Arc<Tables>> = HashMap::new();
    let mut tables_for = |n: usize, k: usize| {
        Arc::clone(
            tables
                .entry((n, k))
                .or_insert_with(|| Arc::new(Tables::new(n, k))),
        )
    };
    let mut state = State {
        values: HashMap::new(),
        told: 1,
        best: vec![0],
        tell,
    };
    if rows > 1 {
        let row = u32::from(tables_for(n, k.min(n + 1)).best_row[0]);
        state.best.push(row);
        (state.tell)(1, row);
    }
    for (h, w) in all {
        let kk = k.min(h + 1);
        let t = tables_for(w, kk);
        // The maxima j x w for j < h; they never fall as j grows.
        let mut best = vec![0, u32::from(t.best_row[0])];
        for d in needs((h, w)) {
            best.push(state.values[&d].max(best[best.len() - 1]));
        }
        let search = Search::sharing(t, h, best, speedups);
        let max = solve(search, (h, w, kk), speedups, threads);
        state.values.insert((h, w), max);
        state.tell_known(&wanted);
    }
    state.best
}

/// The maximum of the rectangle of `search`'s rows (the maxima below known), as the final walk
/// finds it: walks with a falling goal, their units shared out among `threads` threads.
fn solve(
    mut search: Search,
    grid: (usize, usize, usize),
    speedups: Speedups,
    threads: usize,
) -> u32 {
    let rows = search.rows();
    if threads <= 1 {
        return search.direct_max(rows);
    }
    let mut workers = final_walk::workers(search, threads);
    let settings = final_walk::settings(grid, rows, speedups.prune_images);
    let checkpoint = Mutex::new(Checkpoint::none(settings));
    let plan = Plan {
        checkpoint: &checkpoint,
        stop_after: None,
        budget: (u64::MAX, super::UNIT_TIME),
    };
    // Without a file or a stop, the walk cannot fail; the one-thread walk is the fallback.
    final_walk::maximum(&mut workers, rows, &plan).unwrap_or_else(|_| workers[0].direct_max(rows))
}

/// The maxima found so far, and those of the final grid's width told.
struct State<'a> {
    /// The maxima found so far.
    values: HashMap<Key, u32>,
    /// The rows of the last rectangle of the final grid's width told.
    told: usize,
    /// The final grid's width's maxima so far.
    best: Vec<u32>,
    tell: &'a mut dyn FnMut(usize, u32),
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
