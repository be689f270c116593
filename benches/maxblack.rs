//! Benchmark: the classic 9x9 grid with no 4 in a row, every optimal grid, median of 20 runs.
use std::time::Instant;

fn main() {
    let mut times: Vec<f64> = (0..20)
        .map(|_| {
            let start = Instant::now();
            let a = cp_puzzles::maxblack::answer(9, 4);
            assert_eq!((a.max, a.total), (56, 2));
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "maxblack 9x9 K=4: median {:.2} ms, min {:.2} ms",
        times[10], times[0]
    );
}
