//! Throughput of the `minimax` binary on trees of 10^7 and 10^8 leaves, against `cat FILE >
//! /dev/null` (the speed of just reading the file) as the baseline.
//!
//! `cargo bench --bench minimax [-- LEAVES_EXPONENT... ]` (default 7 8). Trees are B = 10,
//! D = exponent, with pseudo-random leaves in -999..=999, written once to `bench-data/`.
//! Prints the median wall time of 5 runs of each, in MB/s.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use test_support::Rng;

const RUNS: usize = 5;

fn main() {
    let exponents: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let exponents = if exponents.is_empty() {
        vec![7, 8]
    } else {
        exponents
    };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench-data");
    std::fs::create_dir_all(&dir).expect("create bench-data/");
    println!(
        "{:>8} {:>9} {:>12} {:>12} {:>10} {:>10} {:>7}",
        "leaves", "MB", "minimax ms", "cat ms", "minimax MB/s", "cat MB/s", "ratio"
    );
    for exp in exponents {
        let path = dir.join(format!("minimax-1e{exp}.in"));
        if !path.exists() {
            generate(&path, exp);
        }
        let mb = std::fs::metadata(&path).expect("stat").len() as f64 / 1e6;
        let solver = median(|| run(Command::new(env!("CARGO_BIN_EXE_minimax")), &path));
        let cat = median(|| run(Command::new("cat"), &path));
        let (s, c) = (solver.as_secs_f64(), cat.as_secs_f64());
        println!(
            "{:>8} {:>9.1} {:>12.1} {:>12.1} {:>10.0} {:>10.0} {:>7.2}",
            format!("1e{exp}"),
            mb,
            s * 1e3,
            c * 1e3,
            mb / s,
            mb / c,
            s / c
        );
    }
}

/// Writes `exp 10` and 10^exp leaves.
fn generate(path: &Path, exp: u32) {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path).expect("create"));
    writeln!(out, "{exp} 10").unwrap();
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    for i in 0..10u64.pow(exp) {
        let leaf = rng.below(1999) as i64 - 999;
        let sep = if i % 20 == 19 { '\n' } else { ' ' };
        write!(out, "{leaf}{sep}").unwrap();
    }
    out.flush().unwrap();
}

/// Runs `command < path > /dev/null` once and returns the wall time.
fn run(mut command: Command, path: &Path) -> Duration {
    let input = File::open(path).expect("open");
    let start = Instant::now();
    let status = command
        .stdin(input)
        .stdout(Stdio::null())
        .status()
        .expect("spawn");
    let elapsed = start.elapsed();
    assert!(status.success(), "{command:?} failed");
    elapsed
}

fn median(mut f: impl FnMut() -> Duration) -> Duration {
    let mut times: Vec<Duration> = (0..RUNS).map(|_| f()).collect();
    times.sort();
    times[RUNS / 2]
}
