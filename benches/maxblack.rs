//! Benchmark: the classic 9x9 grid with no 4 in a row, every optimal grid, median of 21 runs.
//!
//! Besides wall time it reports the process CPU time of each run, which stays honest on a
//! machine shared with other work. The baseline, measured in the same run, is the same solver
//! with its speedups turned off (`Speedups::NONE`: no image pruning in the final walk, no table
//! of proved failures), i.e. plain branch and bound with Russian-doll bounds.
use std::time::Instant;

use cp_puzzles::maxblack::{Solver, Speedups};

/// The CPU time this process has used so far, in milliseconds.
fn cpu_ms() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec and the clock id is a constant libc defines.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

/// Median wall and CPU milliseconds of `runs` calls of `f`.
fn measure(runs: usize, f: impl Fn()) -> (f64, f64) {
    let mut wall = Vec::with_capacity(runs);
    let mut cpu = Vec::with_capacity(runs);
    for _ in 0..runs {
        let (w0, c0) = (Instant::now(), cpu_ms());
        f();
        cpu.push(cpu_ms() - c0);
        wall.push(w0.elapsed().as_secs_f64() * 1e3);
    }
    wall.sort_by(f64::total_cmp);
    cpu.sort_by(f64::total_cmp);
    (wall[runs / 2], cpu[runs / 2])
}

fn main() {
    let check = |speedups| {
        let a = Solver::new(9, 4, speedups)
            .answer()
            .expect("within the limit");
        assert_eq!((a.max, a.total), (56, 2));
    };
    let (wall, cpu) = measure(21, || check(Speedups::ALL));
    let (base_wall, base_cpu) = measure(21, || check(Speedups::NONE));
    println!("maxblack 9x9 K=4, median of 21 runs:");
    println!("  solver:                     wall {wall:7.2} ms   cpu {cpu:7.2} ms");
    println!("  baseline (no speedups):     wall {base_wall:7.2} ms   cpu {base_cpu:7.2} ms");
    println!(
        "  speedup {:.2}x (cpu); vs the 1999 winner's 0.85 s: {:.0}x",
        base_cpu / cpu,
        850.0 / cpu
    );
}
