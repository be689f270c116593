//! `--versus DRIVER`: quarto's search side by side with another solver's, on the same positions.
//!
//! `DRIVER` is a program that reads one position in quarto's input format on stdin and prints
//! `<win|draw|loss> <search CPU s> <search wall s> <nodes>` (scripts/quarto_indjev99_driver.cpp,
//! built by scripts/quarto_vs_indjev99.sh around indjev99's solver). For each position, in an
//! order that alternates from one position to the next (the driver first, then quarto; then
//! quarto first), it runs:
//! - the driver, in a process of its own (its search time alone, as it reports it, and the whole
//!   process: wall time and CPU time of the child);
//! - `quarto --book EMPTY` (an empty book: search alone, cold table), in a process of its own;
//! - quarto's search alone, in this process (`best_move_with`, default settings, a new table).
//!
//! The values must agree (win, draw or loss for the player to move); a disagreement stops the
//! bench. Per pieces placed it prints the medians, the ratio of the medians (the driver's time
//! over quarto's) and the least per-position ratio; with `--each`, each position's figures too.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use cp_puzzles::quarto::search::Config;
use cp_puzzles::quarto::{best_move_with, Position};

use super::{cpu_seconds, show};

/// One program's times on one position, in seconds.
#[derive(Clone, Copy, Default)]
struct Times {
    search_cpu: f64,
    search_wall: f64,
    process_cpu: f64,
    process_wall: f64,
}

/// Runs the comparison at each number of pieces placed in `levels`, the most first.
pub fn run(driver: &Path, mode: &str, games: &[Vec<Position>], levels: (u32, u32), each: bool) {
    if !driver.is_file() {
        eprintln!(
            "no driver at {} (build it with scripts/quarto_vs_indjev99.sh)",
            driver.display()
        );
        std::process::exit(1);
    }
    let empty_book = std::env::temp_dir().join(format!("quarto-empty-book-{}", std::process::id()));
    std::fs::write(&empty_book, b"").expect("write an empty book");
    let quarto = Path::new(env!("CARGO_BIN_EXE_quarto"));
    println!(
        "driver {} ({mode}); quarto {} --book EMPTY; times in seconds (CPU unless said)",
        driver.display(),
        quarto.display()
    );
    println!(
        "{:>6} {:>3} | {:>9} {:>9} {:>7} {:>7} | {:>9} {:>9} {:>7} | {:>9} {:>9} {:>7} {:>7}",
        "placed",
        "n",
        "them srch",
        "us srch",
        "ratio",
        "least",
        "them wall",
        "us wall",
        "ratio",
        "them proc",
        "us proc",
        "ratio",
        "least"
    );
    let mut index = 0usize;
    for placed in (levels.0..=levels.1).rev() {
        let (mut them, mut us) = (Vec::new(), Vec::new());
        for (g, p) in games
            .iter()
            .enumerate()
            .filter_map(|(g, game)| Some((g, game.get(placed as usize)?)))
        {
            let text = show(p) + "\n";
            let ((their_value, t), (our_value, u)) = if index.is_multiple_of(2) {
                let t = driver_times(driver, mode, &text);
                (t, quarto_times(quarto, &empty_book, &text, p))
            } else {
                let u = quarto_times(quarto, &empty_book, &text, p);
                (driver_times(driver, mode, &text), u)
            };
            assert_eq!(
                their_value, our_value,
                "the driver and quarto disagree on\n{text}"
            );
            if each {
                println!(
                    "{placed:>6} game {g:>2}: {our_value:>4}, search them {:.6} us {:.6}, process them {:.4} us {:.4}",
                    t.search_cpu, u.search_cpu, t.process_cpu, u.process_cpu
                );
            }
            index += 1;
            them.push(t);
            us.push(u);
        }
        if them.is_empty() {
            continue;
        }
        let med = |v: &[Times], f: fn(&Times) -> f64| median(v.iter().map(f).collect());
        let least = |f: fn(&Times) -> f64| {
            them.iter()
                .zip(&us)
                .map(|(a, b)| f(a) / f(b).max(1e-6))
                .fold(f64::INFINITY, f64::min)
        };
        let (ts, us_s) = (med(&them, |t| t.search_cpu), med(&us, |t| t.search_cpu));
        let (tw, uw) = (med(&them, |t| t.search_wall), med(&us, |t| t.search_wall));
        let (tp, up) = (med(&them, |t| t.process_cpu), med(&us, |t| t.process_cpu));
        println!(
            "{:>6} {:>3} | {:>9.4} {:>9.4} {:>7.1} {:>7.1} | {:>9.4} {:>9.4} {:>7.1} | {:>9.4} {:>9.4} {:>7.1} {:>7.1}",
            placed,
            them.len(),
            ts,
            us_s,
            ts / us_s.max(1e-6),
            least(|t| t.search_cpu),
            tw,
            uw,
            tw / uw.max(1e-6),
            tp,
            up,
            tp / up.max(1e-6),
            least(|t| t.process_cpu),
        );
        let (pw, qw) = (med(&them, |t| t.process_wall), med(&us, |t| t.process_wall));
        println!(
            "{:>6}       whole process wall: them {pw:.4}, us {qw:.4}, ratio {:.1}",
            "",
            pw / qw.max(1e-6)
        );
    }
    let _ = std::fs::remove_file(&empty_book);
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// quarto's value of `p` (`win`, `draw` or `loss`) and its times: the search in this process,
/// then the whole `quarto` process.
fn quarto_times(quarto: &Path, empty_book: &Path, text: &str, p: &Position) -> (String, Times) {
    let (start, start_cpu) = (Instant::now(), cpu_seconds());
    let value = best_move_with(p, Config::default()).value.to_string();
    let (search_cpu, search_wall) = (cpu_seconds() - start_cpu, start.elapsed().as_secs_f64());
    let mut cmd = Command::new(quarto);
    cmd.arg("--book").arg(empty_book);
    let (out, process_cpu, process_wall) = child(cmd, text);
    let printed = out.lines().nth(1).unwrap_or("").to_string();
    assert_eq!(
        printed, value,
        "quarto's process and search disagree on\n{text}"
    );
    let times = Times {
        search_cpu,
        search_wall,
        process_cpu,
        process_wall,
    };
    (value, times)
}

/// The driver's value of the position `text` and its times.
fn driver_times(driver: &Path, mode: &str, text: &str) -> (String, Times) {
    let mut cmd = Command::new(driver);
    cmd.arg(mode);
    let (out, process_cpu, process_wall) = child(cmd, text);
    let fields: Vec<&str> = out.split_whitespace().collect();
    assert!(fields.len() >= 3, "the driver printed {out:?} on\n{text}");
    let times = Times {
        search_cpu: fields[1].parse().expect("search CPU seconds"),
        search_wall: fields[2].parse().expect("search wall seconds"),
        process_cpu,
        process_wall,
    };
    (fields[0].to_string(), times)
}

/// Runs `cmd` with `input` on stdin: its stdout, its CPU time (user + system, of the waited-for
/// child) and its wall time.
fn child(mut cmd: Command, input: &str) -> (String, f64, f64) {
    let before = children_cpu();
    let start = Instant::now();
    let mut proc = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the program");
    proc.stdin
        .take()
        .expect("piped")
        .write_all(input.as_bytes())
        .expect("write the position");
    let out = proc.wait_with_output().expect("wait for the program");
    let wall = start.elapsed().as_secs_f64();
    assert!(out.status.success(), "{cmd:?} failed: {}", out.status);
    let cpu = children_cpu() - before;
    (String::from_utf8_lossy(&out.stdout).into_owned(), cpu, wall)
}

/// The CPU time (user + system) of every waited-for child so far, in seconds.
fn children_cpu() -> f64 {
    // SAFETY: an all-zero rusage is a valid value; getrusage only writes into it.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `u` is a valid, writable rusage.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(u.ru_utime) + secs(u.ru_stime)
}
