//! `cargo bench --bench no_guess [-- SEEDS [WxH/M ...]]`: times no-guess generation
//! (`cp_puzzles::minesweeper::no_guess::generate`) on one core, over SEEDS seeds (default 1000) per
//! board: the boards given, else beginner, intermediate, expert and denser 30x16 boards (seeds 0 to
//! SEEDS - 1, the default effort), the first click opening an area
//! in the middle of the board (as ms_toollib's `laymine_solvable(rows, columns, mines, rows / 2 - 1,
//! columns / 2 - 1, ...)`).
//!
//! Prints, per board, the median, 90th percentile and worst time per board, the share of seeds that
//! gave a board, and the mean layouts drawn and repairs made; and, as a baseline measured in the
//! same run, the median time to draw a plain uniform layout. Times are the thread's CPU time
//! (`CLOCK_THREAD_CPUTIME_ID`), which other programs on a busy machine do not inflate; the wall
//! clock's median is shown beside them.

use std::hint::black_box;
use std::time::{Duration, Instant};

use cp_puzzles::minesweeper::game::{Config, FirstClick, Layout, Rng};
use cp_puzzles::minesweeper::no_guess::{generate, Effort};
use cp_puzzles::minesweeper::Pos;

const BOARDS: [(usize, usize, usize); 6] = [
    (9, 9, 10),
    (16, 16, 40),
    (30, 16, 99),
    (30, 16, 115),
    (30, 16, 130),
    (30, 16, 150),
];

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let seeds: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let mut boards: Vec<(usize, usize, usize)> = args.iter().skip(1).map(|a| board(a)).collect();
    if boards.is_empty() {
        boards = BOARDS.to_vec();
    }
    println!("no-guess generation, {seeds} seeds per board, first click opening at the middle");
    println!(
        "{:<14} {:>10} {:>10} {:>10} {:>8} {:>8} {:>8} {:>12} {:>12}",
        "board",
        "median",
        "p90",
        "worst",
        "made",
        "layouts",
        "repairs",
        "plain layout",
        "wall median"
    );
    for (w, h, m) in boards {
        let config = Config::new(w, h, m).expect("a valid board");
        let first = Pos::new(w / 2 - 1, h / 2 - 1);
        let mut times = Vec::with_capacity(seeds as usize);
        let mut walls = Vec::with_capacity(seeds as usize);
        let (mut made, mut layouts, mut repairs) = (0, 0, 0);
        for seed in 0..seeds {
            let start = Instant::now();
            let cpu = cpu_time();
            let result = generate(
                config,
                FirstClick::Opening,
                first,
                seed,
                Effort::default_for(config),
            );
            times.push(cpu_time() - cpu);
            walls.push(start.elapsed());
            if let Ok(board) = black_box(result) {
                made += 1;
                layouts += board.layouts;
                repairs += board.repairs;
            }
        }
        let plain = plain_layout(config, first);
        times.sort();
        walls.sort();
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        println!(
            "{:<14} {:>10} {:>10} {:>10} {:>7.1}% {:>8.2} {:>8.1} {:>12} {:>12}",
            config.to_string(),
            ms(at(0.5)),
            ms(at(0.9)),
            ms(at(1.0)),
            100.0 * made as f64 / seeds as f64,
            layouts as f64 / made.max(1) as f64,
            repairs as f64 / made.max(1) as f64,
            ms(plain),
            ms(walls[walls.len() / 2]),
        );
    }
}

/// `WxH/M` as its three numbers.
fn board(text: &str) -> (usize, usize, usize) {
    let parsed = text.split_once('x').and_then(|(w, rest)| {
        let (h, m) = rest.split_once('/')?;
        Some((w.parse().ok()?, h.parse().ok()?, m.parse().ok()?))
    });
    parsed.unwrap_or_else(|| panic!("expected a board as WxH/M, found {text:?}"))
}

/// The median time to draw one uniform layout (the baseline).
fn plain_layout(config: Config, first: Pos) -> Duration {
    let mut times: Vec<Duration> = (0..201)
        .map(|seed| {
            let start = Instant::now();
            let layout = Layout::generate(config, FirstClick::Opening, first, &mut Rng::new(seed));
            black_box(layout).expect("room for the mines");
            start.elapsed()
        })
        .collect();
    times.sort();
    times[100]
}

/// The CPU time this thread has used.
fn cpu_time() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec, and the clock id is a constant of the platform.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}
