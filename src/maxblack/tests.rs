//! Brute force over every 2^(N*N) grid, and properties of the printed answer.

use super::search::Search;
use super::*;

fn answer(n: usize, k: usize) -> Answer {
    Solver::new(n, k, Speedups::ALL)
        .answer()
        .expect("within the limit")
}

fn answer_with(n: usize, k: usize, speedups: Speedups) -> Answer {
    Solver::new(n, k, speedups)
        .answer()
        .expect("within the limit")
}

/// The cells of an `n` x `n` grid packed as bit `i * n + j`; true if no `k` in a row.
fn brute_valid(g: u32, n: usize, k: usize) -> bool {
    let full: u32 = if n * n == 32 {
        u32::MAX
    } else {
        (1 << (n * n)) - 1
    };
    // Cells not in the last column, and not in the first column.
    let (mut not_last, mut not_first) = (0u32, 0u32);
    for i in 0..n {
        for j in 0..n {
            if j + 1 < n {
                not_last |= 1 << (i * n + j);
            }
            if j > 0 {
                not_first |= 1 << (i * n + j);
            }
        }
    }
    // (shift to the next cell, cells that have a next cell in that direction)
    let dirs = [
        (1, not_last),
        (n, full),
        (n + 1, not_last),
        (n - 1, not_first),
    ];
    dirs.iter().all(|&(s, ok)| {
        let mut run = g;
        for _ in 1..k {
            run &= ok & (run >> s);
        }
        // `run` bit c: cells c, c+s, ... all black, each step allowed from the previous cell.
        run == 0
    })
}

fn brute(n: usize, k: usize) -> (u32, u64, Vec<String>) {
    let mut max = 0;
    let mut opt = Vec::new();
    for g in 0..1u32 << (n * n) {
        let c = g.count_ones();
        if c < max || !brute_valid(g, n, k) {
            continue;
        }
        if c > max {
            max = c;
            opt.clear();
        }
        opt.push(g);
    }
    let text = |cells: &dyn Fn(usize, usize) -> bool| -> String {
        (0..n * n)
            .map(|c| if cells(c / n, c % n) { '#' } else { '.' })
            .collect()
    };
    let mut canon: Vec<String> = opt
        .iter()
        .map(|&g| {
            let at = |i: usize, j: usize| g >> (i * n + j) & 1 == 1;
            let m = n - 1;
            let images = [
                text(&|i, j| at(i, j)),
                text(&|i, j| at(m - i, j)),
                text(&|i, j| at(i, m - j)),
                text(&|i, j| at(m - i, m - j)),
                text(&|i, j| at(j, i)),
                text(&|i, j| at(m - j, i)),
                text(&|i, j| at(j, m - i)),
                text(&|i, j| at(m - j, m - i)),
            ];
            images.into_iter().min().unwrap()
        })
        .collect();
    canon.sort();
    canon.dedup();
    (max, opt.len() as u64, canon)
}

fn flat(a: &Answer, n: usize) -> Vec<String> {
    a.grids
        .iter()
        .map(|g| {
            g.iter()
                .flat_map(|&r| (0..n).map(move |j| if r >> j & 1 == 1 { '#' } else { '.' }))
                .collect()
        })
        .collect()
}

fn check_against_brute(n: usize) {
    for k in 1..=6 {
        let a = answer(n, k);
        let (max, total, canon) = brute(n, k);
        assert_eq!((a.max, a.total), (max, u128::from(total)), "n={n} k={k}");
        assert_eq!(flat(&a, n), canon, "n={n} k={k}");
    }
}

#[test]
fn matches_brute_force_up_to_4() {
    for n in 1..=4 {
        check_against_brute(n);
    }
}

#[test]
#[ignore = "slow tier: cargo test -- --ignored"]
fn matches_brute_force_5() {
    check_against_brute(5);
}

/// Each speedup alone must not change the answer (beyond the brute force's reach): the plain
/// search is the reference.
#[test]
#[ignore = "slow tier: cargo test -- --ignored"]
fn speedups_change_nothing() {
    let only_images = Speedups {
        prune_images: true,
        ..Speedups::NONE
    };
    let only_memo = Speedups {
        memo: true,
        ..Speedups::NONE
    };
    let only_transpose = Speedups {
        transpose: true,
        ..Speedups::NONE
    };
    for n in 1..=9 {
        for k in 1..=5 {
            let plain = answer_with(n, k, Speedups::NONE);
            for s in [only_images, only_memo, only_transpose, Speedups::ALL] {
                assert_eq!(answer_with(n, k, s), plain, "n={n} k={k} {s:?}");
            }
        }
    }
    // Past the brute force and the sizes above, where the table's keys carry more rows.
    for (n, k) in [(10, 3), (10, 4), (11, 5)] {
        assert_eq!(answer(n, k), answer_with(n, k, only_images), "n={n} k={k}");
    }
}

#[test]
fn printed_grids_are_valid_optimal_canonical_and_distinct() {
    for (n, k) in [(6, 3), (7, 3), (6, 4), (7, 4), (8, 4), (9, 4)] {
        let a = answer(n, k);
        let mut orbit_sum = 0;
        let mut seen = std::collections::HashSet::new();
        for g in &a.grids {
            assert!(g.iter().all(|&r| rows::longest_run(r) < k));
            for d in 0..n {
                assert_eq!(rows::forbidden(&g[..d], n, k) & g[d], 0);
            }
            assert_eq!(g.iter().map(|r| r.count_ones()).sum::<u32>(), a.max);
            let (c, _, size) = symmetry::canonical(g, n);
            assert_eq!(&c, g);
            orbit_sum += size as u128;
            for s in 0..8 {
                seen.insert(symmetry::image(g, n, s));
            }
        }
        assert_eq!(
            seen.len() as u128,
            orbit_sum,
            "images of two printed grids coincide"
        );
        assert_eq!(orbit_sum, a.total, "n={n} k={k}");
        let keys: Vec<_> = a.grids.iter().map(|g| symmetry::key(g, n)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
    }
}

#[test]
fn parse_rejects_bad_input() {
    let puzzle = Puzzle::new(9, 4);
    assert_eq!(parse("9 4\n".as_bytes()).ok(), puzzle);
    assert_eq!(parse("  9   4  \n\n".as_bytes()).ok(), puzzle);
    assert_eq!(parse("3 5 2\n".as_bytes()).ok(), Puzzle::rectangle(3, 5, 2));
    for (text, msg) in [
        (
            "",
            "line 1, token 1: expected an integer N in 1..=20, found end of input",
        ),
        (
            "9",
            "line 1, token 2: expected an integer K >= 1, found end of input",
        ),
        (
            "0 3",
            "line 1, token 1: expected an integer N in 1..=20, found \"0\"",
        ),
        (
            "21 3",
            "line 1, token 1: expected an integer N in 1..=20, found \"21\"",
        ),
        (
            "9 x",
            "line 1, token 2: expected an integer K >= 1, found \"x\"",
        ),
        (
            "9 0",
            "line 1, token 2: expected an integer K >= 1, found \"0\"",
        ),
        (
            "9 4 1 2",
            "line 1, token 4: expected the end of the input after K, found \"2\"",
        ),
        (
            "9 21 3",
            "line 1, token 2: expected an integer M in 1..=20, found \"21\"",
        ),
        (
            "9 4 0",
            "line 1, token 3: expected an integer K >= 1, found \"0\"",
        ),
        (
            "9 4\n5",
            "line 2, token 1: expected the end of the input after K, found \"5\"",
        ),
    ] {
        assert_eq!(parse(text.as_bytes()).unwrap_err().to_string(), msg);
    }
}

/// `Chain::after(r)` is `forbidden` of the rows with `r` appended, for every row count, `k` and
/// `r`, on pseudo-random rows.
#[test]
fn chain_matches_forbidden() {
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for n in 1..=MAX_N {
        let full = (1u64 << n) - 1;
        for k in 1..=6 {
            for placed in 0..7 {
                let above: Vec<u32> = (0..placed).map(|_| (next() & full) as u32).collect();
                let chain = rows::Chain::new(&above, n, k);
                for _ in 0..20 {
                    let r = (next() & full) as u32;
                    let mut with = above.clone();
                    with.push(r);
                    assert_eq!(
                        chain.after(r),
                        rows::forbidden(&with, n, k),
                        "{above:?} {r} {k}"
                    );
                }
            }
        }
    }
}

/// The failure table must save work, not only keep answers right: with it, the search visits
/// far fewer nodes (a count, so the test does not depend on the machine's speed).
#[test]
fn failure_table_saves_nodes() {
    let nodes = |memo: bool| {
        let speedups = Speedups {
            memo,
            ..Speedups::ALL
        };
        let mut search = Search::new(10, 10, 3, speedups);
        let max = search.maximum();
        search.walk_unit(&[], max, &mut |_, _| Some(max));
        search.nodes()
    };
    let (with, without) = (nodes(true), nodes(false));
    assert!(
        3 * with < without,
        "with the table {with} nodes, without {without}"
    );
}

/// Rectangle maxima found through the transpose equal those found directly (a bound that came
/// out too low would cut optimal grids, and the answers above would not always show it).
#[test]
#[ignore = "slow tier: cargo test -- --ignored"]
fn transposed_rectangles_match_direct_ones() {
    for n in 2..=11 {
        for k in 2..=5 {
            let maxima = |transpose: bool| {
                let speedups = Speedups {
                    transpose,
                    ..Speedups::ALL
                };
                Search::new(n, n, k, speedups).maxima().to_vec()
            };
            assert_eq!(maxima(true), maxima(false), "n={n} k={k}");
        }
    }
}

/// The rectangle maxima for 12 columns and K = 3 against OEIS A181019 (m = 1..10, and 12 from
/// A181018), values computed by others.
#[test]
fn rectangle_maxima_match_oeis_a181019() {
    let best = Search::new(12, 12, 3, Speedups::ALL).maxima().to_vec();
    assert_eq!(best[1..=10], [8, 16, 20, 26, 33, 38, 44, 50, 56, 62]);
    assert_eq!(best[12], 74);
}

/// Counting without keeping the grids, by visits and by states, gives the kept answer's counts,
/// for every small `(n, k)`, with and without the image pruning (which decides which images the
/// count by visits sees).
#[test]
fn counting_only_agrees_with_the_kept_grids() {
    for n in 1..=6 {
        for k in 1..=n + 1 {
            for speedups in [Speedups::ALL, Speedups::NONE] {
                check_counts(n, n, k, speedups);
            }
        }
    }
}

/// The same on rectangles and larger squares, wherever listing runs in about a second.
#[test]
#[ignore = "slow tier: cargo test -- --ignored"]
fn counting_by_states_agrees_with_listing() {
    for rows in 1..=7 {
        for cols in 1..=7 {
            for k in 2..=rows.max(cols) {
                check_counts(rows, cols, k, Speedups::ALL);
            }
        }
    }
    for (rows, cols, k) in [
        (9, 9, 2),
        (9, 9, 3),
        (9, 9, 4),
        (10, 10, 3),
        (10, 10, 4),
        (12, 12, 3),
    ] {
        check_counts(rows, cols, k, Speedups::ALL);
    }
    for (rows, cols, k) in [(11, 6, 2), (6, 12, 2), (10, 7, 3), (9, 12, 4)] {
        check_counts(rows, cols, k, Speedups::ALL);
    }
}

/// The kept grids, and the counts by visits and by states, agree for `rows` x `cols`.
fn check_counts(rows: usize, cols: usize, k: usize, speedups: Speedups) {
    let solver = || Solver::rectangle(rows, cols, k, speedups);
    let by_visits = solver().counting_by_visits().answer().expect("no limit");
    let by_states = solver().counting_only().answer().expect("no limit");
    let expected = match solver().answer() {
        Ok(kept) => (kept.max, kept.grids.len() as u128, kept.total),
        Err(Error::TooManyGrids { .. }) => (by_visits.max, by_visits.orbits, by_visits.total),
        Err(e) => panic!("{e}"),
    };
    for counted in [by_visits, by_states] {
        assert!(counted.grids.is_empty());
        assert_eq!(
            (counted.max, counted.orbits, counted.total),
            expected,
            "{rows}x{cols} k={k} {speedups:?}"
        );
    }
}

#[test]
fn too_many_orbits_to_list_is_an_error() {
    // 7 3 has 909 orbits.
    let error = Solver::new(7, 3, Speedups::ALL)
        .keeping_at_most(900)
        .answer()
        .expect_err("over the limit");
    assert_eq!(
        error.to_string(),
        "more than 900 optimal grids up to symmetry: too many to list (--count-only counts them)"
    );
    assert_eq!(
        Solver::new(7, 3, Speedups::ALL)
            .keeping_at_most(909)
            .answer()
            .map(|a| a.orbits)
            .ok(),
        Some(909)
    );
}

/// Listing stops as soon as a thread keeps more orbits than the limit: `16 2` has 3 * 10^13 of
/// them, so a listing that went on would not end.
#[test]
fn listing_too_many_stops_early() {
    for threads in [1, 2] {
        let error = Solver::new(16, 2, Speedups::ALL)
            .threads(threads)
            .keeping_at_most(1000)
            .answer()
            .expect_err("over the limit");
        assert!(
            matches!(error, Error::TooManyGrids { limit: 1000 }),
            "{error}"
        );
    }
}

/// A visit that says stop ends the walk of every thread: at most one more grid per thread.
#[test]
fn a_visit_that_says_stop_ends_every_thread() {
    for threads in [1, 2, 3] {
        let mut search = Search::new(12, 12, 2, Speedups::ALL);
        let max = search.maximum();
        let mut workers = super::final_walk::workers(search, threads);
        let mut seen = vec![0usize; threads];
        let total = std::sync::atomic::AtomicUsize::new(0);
        super::final_walk::each_optimal(&mut workers, 12, max, &mut seen, |n, _| {
            *n += 1;
            total.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < 100
        });
        let visits: usize = seen.iter().sum();
        assert!(
            (101..=100 + threads).contains(&visits),
            "{visits} on {threads}"
        );
    }
}

/// K = 1 allows no black cell: the all-white grid, without a search (N = 20 took seconds).
#[test]
fn k_one_is_the_white_grid() {
    let a = answer(20, 1);
    assert_eq!((a.max, a.orbits, a.total), (0, 1, 1));
    assert_eq!(a.grids, vec![vec![0; 20]]);
    let a = Solver::rectangle(3, 7, 8, Speedups::ALL)
        .answer()
        .expect("one grid");
    assert_eq!((a.max, a.orbits, a.total), (21, 1, 1));
    assert_eq!(a.grids, vec![vec![127; 3]]);
}

#[test]
fn a_k_too_large_for_a_word_is_longer_than_every_line() {
    for k in ["18446744073709551615", "100000000000000000000000000"] {
        let puzzle = parse(format!("5 {k}\n").as_bytes()).expect("accepted");
        assert_eq!(puzzle.k(), usize::MAX);
    }
    assert!(parse("5 -1\n".as_bytes()).is_err());
}

/// The cells of a `rows` x `cols` grid, row by row: a brute force written apart from the solver,
/// cell by cell, with no bit tricks.
fn rectangle_is_valid(cells: &[bool], rows: usize, cols: usize, k: usize) -> bool {
    let at = |i: isize, j: isize| {
        (0..rows as isize).contains(&i)
            && (0..cols as isize).contains(&j)
            && cells[i as usize * cols + j as usize]
    };
    for i in 0..rows as isize {
        for j in 0..cols as isize {
            for (di, dj) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                if (0..k as isize).all(|step| at(i + step * di, j + step * dj)) {
                    return false;
                }
            }
        }
    }
    true
}

/// A symmetry as a map of cells `(row, column)`.
type CellMap = Box<dyn Fn(usize, usize) -> (usize, usize)>;

/// The maximum, the total and the sorted canonical strings of every `rows` x `cols` grid, by
/// trying all `2^(rows * cols)` of them; the symmetries are written out as cell maps.
fn rectangle_brute(rows: usize, cols: usize, k: usize) -> (u32, u128, Vec<String>) {
    let cells = rows * cols;
    let (mut max, mut optimal) = (0, Vec::new());
    for g in 0..1u32 << cells {
        let grid: Vec<bool> = (0..cells).map(|c| g >> c & 1 == 1).collect();
        let count = g.count_ones();
        if count < max || !rectangle_is_valid(&grid, rows, cols, k) {
            continue;
        }
        if count > max {
            max = count;
            optimal.clear();
        }
        optimal.push(grid);
    }
    let (r, c) = (rows - 1, cols - 1);
    let mut maps: Vec<CellMap> = vec![
        Box::new(|i, j| (i, j)),
        Box::new(move |i, j| (r - i, j)),
        Box::new(move |i, j| (i, c - j)),
        Box::new(move |i, j| (r - i, c - j)),
    ];
    if rows == cols {
        maps.push(Box::new(|i, j| (j, i)));
        maps.push(Box::new(move |i, j| (r - j, i)));
        maps.push(Box::new(move |i, j| (j, c - i)));
        maps.push(Box::new(move |i, j| (r - j, c - i)));
    }
    let text = |grid: &[bool], map: &dyn Fn(usize, usize) -> (usize, usize)| -> String {
        let mut out = vec!['.'; cells];
        for i in 0..rows {
            for j in 0..cols {
                let (a, b) = map(i, j);
                if grid[i * cols + j] {
                    out[a * cols + b] = '#';
                }
            }
        }
        out.into_iter().collect()
    };
    let mut canon: Vec<String> = optimal
        .iter()
        .map(|g| maps.iter().map(|m| text(g, m)).min().expect("a map"))
        .collect();
    canon.sort();
    canon.dedup();
    (max, optimal.len() as u128, canon)
}

fn check_rectangle(rows: usize, cols: usize, k: usize) {
    let a = Solver::rectangle(rows, cols, k, Speedups::ALL)
        .answer()
        .expect("within the limit");
    let (max, total, canon) = rectangle_brute(rows, cols, k);
    let printed: Vec<String> = a
        .grids
        .iter()
        .map(|g| {
            assert_eq!(g.len(), rows);
            g.iter()
                .flat_map(|&r| (0..cols).map(move |j| if r >> j & 1 == 1 { '#' } else { '.' }))
                .collect()
        })
        .collect();
    let what = format!("{rows}x{cols} k={k}");
    assert_eq!(
        (a.max, a.total, a.orbits),
        (max, total, canon.len() as u128),
        "{what}"
    );
    assert_eq!(printed, canon, "{what}");
    let counted = Solver::rectangle(rows, cols, k, Speedups::ALL)
        .counting_only()
        .answer()
        .expect("no limit");
    assert_eq!(
        (counted.max, counted.orbits, counted.total),
        (max, canon.len() as u128, total),
        "{what}"
    );
}

/// Every rectangle of at most 12 cells, every K, against the brute force.
#[test]
fn rectangles_match_brute_force() {
    for rows in 1..=12 {
        for cols in 1..=12 / rows {
            for k in 1..=rows.max(cols) + 1 {
                check_rectangle(rows, cols, k);
            }
        }
    }
}

/// Random rectangles of 13 to 20 cells against the brute force.
#[test]
#[ignore = "slow tier: cargo test -- --ignored"]
fn random_rectangles_match_brute_force() {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % m) as usize
    };
    let mut done = 0;
    while done < 24 {
        let (rows, cols) = (1 + next(10), 1 + next(10));
        if !(13..=20).contains(&(rows * cols)) {
            continue;
        }
        let k = 2 + next(4);
        check_rectangle(rows, cols, k);
        done += 1;
    }
}

/// The answer, listed and counted, is the same on 1, 2 and 3 threads.
#[test]
fn threads_change_nothing() {
    for (rows, cols, k) in [(7, 7, 3), (8, 6, 3), (6, 9, 4), (8, 8, 2)] {
        let run = |threads: usize, count_only: bool| {
            let puzzle = Puzzle::rectangle(rows, cols, k).expect("a puzzle");
            let options = Options {
                count_only,
                threads,
                ..Options::default()
            };
            solve(&puzzle, &options).expect("an answer").to_string()
        };
        for count_only in [false, true] {
            let one = run(1, count_only);
            assert_eq!(run(2, count_only), one, "{rows}x{cols} k={k}");
            assert_eq!(run(3, count_only), one, "{rows}x{cols} k={k}");
        }
    }
}

/// A run stopped again and again (after a number of units of work each time) and resumed from its
/// checkpoint file gives the answer of a run never stopped, on 1 and 2 threads; also when the
/// units are split into parts after a few nodes (the checkpoint then names parts of units).
#[test]
#[ignore = "slow tier: cargo test -- --ignored"]
fn a_stopped_run_resumes_from_its_checkpoint() {
    for (threads, (rows, cols, k), units, nodes) in [
        (1, (12, 12, 3), 300, u64::MAX),
        (2, (11, 10, 3), 20, u64::MAX),
        (2, (10, 10, 4), 300, u64::MAX),
        (1, (12, 12, 3), 40, 2_000),
        (2, (11, 10, 3), 7, 30),
        (3, (10, 10, 4), 25, 40),
        (2, (12, 9, 4), 10, 30),
    ] {
        let path = std::env::temp_dir().join(format!(
            "maxblack-test-{}-{rows}-{cols}-{k}-{threads}-{nodes}.ckpt",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&path);
        let solver = || {
            Solver::rectangle(rows, cols, k, Speedups::ALL)
                .threads(threads)
                .checkpoint(&path, std::time::Duration::ZERO)
                .splitting_units_after(nodes, std::time::Duration::MAX)
        };
        let (mut stops, mut parts) = (0, 0);
        let resumed = loop {
            match solver().stopping_after_units(units).answer() {
                Ok(answer) => break answer,
                Err(Error::Stopped) => stops += 1,
                Err(e) => panic!("{e}"),
            }
            let text = std::fs::read_to_string(&path).expect("the checkpoint");
            parts += usize::from(
                text.lines()
                    .any(|l| l.starts_with("done") && l.contains('.')),
            );
            assert!(stops < 10_000, "no progress");
        };
        assert!(stops > 0, "{rows}x{cols} never stopped");
        assert_eq!(
            parts > 0,
            nodes < u64::MAX,
            "{rows}x{cols}: parts of units saved"
        );
        let text = std::fs::read_to_string(&path).expect("the checkpoint");
        assert!(
            text.starts_with(&format!("maxblack checkpoint 2\ngrid {rows} {cols} {k}\n")),
            "{text}"
        );
        let _ = std::fs::remove_file(&path);
        let fresh = Solver::rectangle(rows, cols, k, Speedups::ALL)
            .answer()
            .expect("an answer");
        assert_eq!(resumed, fresh, "{rows}x{cols} k={k}");
    }
}

/// Units split into parts after a few nodes give the answer of units never split, on 1, 2 and 3
/// threads, listing and counting.
#[test]
#[ignore = "slow tier: cargo test -- --ignored"]
fn split_units_change_nothing() {
    for (rows, cols, k) in [(9, 9, 3), (10, 8, 4), (8, 8, 2), (7, 7, 3), (12, 12, 3)] {
        let whole = Solver::rectangle(rows, cols, k, Speedups::ALL)
            .answer()
            .expect("an answer");
        for threads in 1..=3 {
            for nodes in [1, 50, 1000] {
                let run = |solver: Solver| {
                    solver
                        .threads(threads)
                        .splitting_units_after(nodes, std::time::Duration::MAX)
                        .answer()
                        .expect("an answer")
                };
                let solver = || Solver::rectangle(rows, cols, k, Speedups::ALL);
                assert_eq!(
                    run(solver()),
                    whole,
                    "{rows}x{cols} k={k} {threads} {nodes}"
                );
                let counted = run(solver().counting_by_visits());
                assert_eq!((counted.max, counted.orbits), (whole.max, whole.orbits));
            }
        }
    }
}

/// A checkpoint that names a unit the pass does not have (another version of the walk) is
/// refused, naming the file, instead of being read as something else.
#[test]
fn a_checkpoint_from_another_walk_is_refused() {
    let path =
        std::env::temp_dir().join(format!("maxblack-test-{}-units.ckpt", std::process::id()));
    let text = "maxblack checkpoint 2\ngrid 10 10 3\nwalk 2 7 pruned\n\
                maxima 8 14 17 22 28 32 37 42 47\npass 52\ndone 0-99999\n";
    std::fs::write(&path, super::checkpoint::seal(text.to_string())).expect("written");
    let error = Solver::new(10, 3, Speedups::ALL)
        .checkpoint(&path, std::time::Duration::ZERO)
        .answer()
        .expect_err("another walk");
    let _ = std::fs::remove_file(&path);
    let text = error.to_string();
    assert!(
        text.starts_with(&format!(
            "checkpoint {}: the pass at 52 has ",
            path.display()
        )) && text.contains("names unit 99999"),
        "{text}"
    );
}

/// A checkpoint for another puzzle is refused, naming the file.
#[test]
fn a_checkpoint_for_another_puzzle_is_refused() {
    let path =
        std::env::temp_dir().join(format!("maxblack-test-{}-other.ckpt", std::process::id()));
    let text = "maxblack checkpoint 2\ngrid 9 9 4\nwalk 2 6 pruned\n";
    std::fs::write(&path, super::checkpoint::seal(text.to_string())).expect("written");
    let error = Solver::new(8, 4, Speedups::ALL)
        .checkpoint(&path, std::time::Duration::ZERO)
        .answer()
        .expect_err("another puzzle");
    let _ = std::fs::remove_file(&path);
    assert_eq!(
        error.to_string(),
        format!(
            "checkpoint {}: line 2: for another puzzle, not 8 8 4",
            path.display()
        )
    );
}

/// K = N counted in closed form (permutations) agrees with the search, which visits the grids.
#[test]
#[ignore = "slow tier: cargo test -- --ignored"]
fn k_equal_to_n_closed_form_matches_the_search() {
    for n in 3..=8 {
        let closed = Solver::new(n, n, Speedups::ALL)
            .counting_only()
            .answer()
            .expect("counted");
        let visited = Solver::new(n, n, Speedups::ALL)
            .counting_by_visits()
            .answer()
            .expect("counted");
        assert_eq!(closed, visited, "n={n}");
    }
    let a = Solver::new(20, 20, Speedups::ALL)
        .counting_only()
        .answer()
        .expect("counted");
    assert_eq!(a.max, 380);
}

/// The rectangle stage on 1, 2 and 3 threads (each rectangle solved once, through its transpose
/// when it is wider than high) finds the maxima of the stage on one thread, rectangle by
/// rectangle, and tells them in order.
#[test]
#[ignore = "slow tier: cargo test -- --ignored"]
fn threaded_rectangle_stage_matches_the_sequential_one() {
    for n in 1..=11 {
        for rows in [n, n + 1, n + 4] {
            for k in 2..=5 {
                let sequential = Search::new(rows, n, k, Speedups::ALL)
                    .rectangle_maxima()
                    .to_vec();
                for threads in 1..=3 {
                    let told = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
                    let sink = std::sync::Arc::clone(&told);
                    let mut search =
                        Search::new(rows, n, k, Speedups::ALL).reporting(Box::new(move |stage| {
                            if let Stage::Rectangle { rows, max } = stage {
                                sink.lock().unwrap().push((rows, max));
                            }
                        }));
                    let threaded = search.rectangle_maxima_on(threads).to_vec();
                    assert_eq!(threaded, sequential, "{rows}x{n} k={k} on {threads}");
                    let expected: Vec<(usize, u32)> =
                        (1..rows).map(|m| (m, sequential[m])).collect();
                    assert_eq!(*told.lock().unwrap(), expected, "{rows}x{n} k={k}");
                }
            }
        }
    }
}
