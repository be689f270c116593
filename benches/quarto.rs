//! Speed of the `quarto` solver on a fixed set of positions, grouped by pieces placed.
//!
//! `cargo bench --bench quarto [-- [--games N] [--levels A-B] [--baseline]]` (defaults: 5 games,
//! levels 12 down to 4). The positions come from N pseudo-random games (fixed seeds) in which
//! nobody blunders: each placement avoids giving up an immediate win where it can, and each gift is
//! safe. Each level's position is the one with that many pieces placed, piece in hand. For each
//! level it prints the median and worst CPU time and wall time (the machine is shared: wall time
//! includes waiting for a core), the median nodes and the nodes per CPU second; with `--baseline`
//! it also times the same positions without symmetry and without move ordering (the plain
//! alpha-beta with table and safe-piece filter), as a baseline measured in the same run. `--print` prints the positions instead.
//!
//! `--set KNOB=N` (repeatable; `order_from`, `table_from`, `canonical_until`, `stabilizer_until`,
//! `log2_buckets`, `decide_until`) times those settings instead of the defaults, and `--baseline`
//! then times the defaults in the same run.
//!
//! `--cold` evicts the caches before each timed search (it touches 64 MiB first), as in a process
//! that searches once: the figures then include fetching the code, the tables and the
//! transposition table's fresh pages.
//!
//! `--values --book-sample N [--seed S]` times `--values` instead on N positions drawn uniformly
//! (pseudo-randomly, seed S, default 1) from the built-in book's positions with 4 pieces placed
//! (canonical forms, 0000 in hand), drawn and won ones reported apart: every position of that
//! level, not only those of non-blundering games.
//!
//! `--repeat N` searches each position N times in a row and takes the median of its N times as
//! its time: steadier figures for the small searches of many pieces placed (warm caches unless
//! `--cold`, which then evicts only before the first of the N).
//!
//! `--versus DRIVER [--versus-mode distance|wdl] [--each]` compares the search with another solver's on
//! the same positions (see `benches/quarto/versus.rs` and `scripts/quarto_vs_indjev99.sh`).
//!
//! `--values` times `quarto --values` instead (every move's value and distance, with the
//! built-in book) on the same positions: the median and worst CPU and wall time per level, and,
//! measured in the same run on the same positions, the median CPU time of `quarto`'s answer (the
//! best move with the built-in book) and the ratio of the two medians.
//!
//! `--values --threads A,B [--repeat N]` times `quarto --values` on A threads and on B threads
//! instead (`move_values_threaded`, with the book `quarto` decodes for the position), in turns on
//! each position (A then B, then B then A on the next), each position's time the median of its
//! N runs: per level the median and worst wall seconds and the median CPU seconds of each, the
//! ratio of the median wall times (B over A) and the largest ratio of one position's wall times.
//! It checks that both give the same lines.

use std::time::Instant;

use cp_puzzles::quarto::search::Config;
use cp_puzzles::quarto::{
    best_move_with, best_move_with_book, move_values_threaded, move_values_with_book, Board, Book,
    Cell, Piece, Position, Value,
};
use test_support::Rng;

#[path = "quarto/versus.rs"]
mod versus;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut games = 5usize;
    let mut levels = (4u32, 12u32);
    let mut baseline = false;
    let mut print = false;
    let mut values = false;
    let mut versus: Option<String> = None;
    let mut versus_mode = "distance".to_string();
    let mut each = false;
    let mut cold = false;
    let mut repeat = 1usize;
    let mut book_sample: Option<usize> = None;
    let mut threads: Option<(usize, usize)> = None;
    let mut seed = 1u64;
    // With `--set KNOB=N` (repeatable), "ours" uses those settings and `--baseline` the defaults.
    let mut tuned: Option<Config> = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--games" => {
                games = args[i + 1].parse().expect("--games N");
                i += 1;
            }
            "--levels" => {
                let (a, b) = args[i + 1].split_once('-').expect("--levels A-B");
                levels = (a.parse().expect("A"), b.parse().expect("B"));
                i += 1;
            }
            "--baseline" => baseline = true,
            "--print" => print = true,
            "--values" => values = true,
            "--versus" => {
                versus = Some(args[i + 1].clone());
                i += 1;
            }
            "--each" => each = true,
            "--cold" => cold = true,
            "--book-sample" => {
                book_sample = Some(args[i + 1].parse().expect("--book-sample N"));
                i += 1;
            }
            "--threads" => {
                let (a, b) = args[i + 1].split_once(',').expect("--threads A,B");
                threads = Some((a.parse().expect("A"), b.parse().expect("B")));
                i += 1;
            }
            "--seed" => {
                seed = args[i + 1].parse().expect("--seed S");
                i += 1;
            }
            "--repeat" => {
                repeat = args[i + 1].parse().expect("--repeat N, N >= 1");
                assert!(repeat >= 1, "--repeat N, N >= 1");
                i += 1;
            }
            "--versus-mode" => {
                versus_mode = args[i + 1].clone();
                i += 1;
            }
            "--set" => {
                tuned = Some(tune(tuned.unwrap_or_default(), &args[i + 1]));
                i += 1;
            }
            _ => {} // cargo passes --bench
        }
        i += 1;
    }
    let games: Vec<Vec<Position>> = (0..games as u64).map(game).collect();
    if print {
        for (g, positions) in games.iter().enumerate() {
            for (placed, p) in positions.iter().enumerate() {
                println!("# game {g}, {placed} placed\n{}", show(p));
            }
        }
        return;
    }
    if let Some(driver) = versus {
        versus::run(
            std::path::Path::new(&driver),
            &versus_mode,
            &games,
            levels,
            each,
        );
        return;
    }
    if let (true, Some(n)) = (values, book_sample) {
        measure_book_sample(n, seed);
        return;
    }
    if let (true, Some(threads)) = (values, threads) {
        compare_threads(&games, levels, threads, repeat);
        return;
    }
    if values {
        measure_values(&games, levels);
        return;
    }
    println!(
        "{:>6} {:>3} {:>9} {:>9} {:>9} {:>9} {:>10} {:>8}{}",
        "placed",
        "n",
        "med cpu",
        "worst cpu",
        "med wall",
        "worstwall",
        "med nodes",
        "Mnodes/s",
        if baseline {
            "  base med cpu base worst cpu  ratio"
        } else {
            ""
        }
    );
    for placed in (levels.0..=levels.1).rev() {
        let positions: Vec<&Position> = games
            .iter()
            .filter_map(|g| g.get(placed as usize))
            .collect();
        let ours = measure(&positions, tuned.unwrap_or_default(), cold, repeat);
        let mut line = format!(
            "{:>6} {:>3} {:>9.6} {:>9.6} {:>9.6} {:>9.6} {:>10} {:>8.2}",
            placed,
            positions.len(),
            ours.median_cpu,
            ours.worst_cpu,
            ours.median,
            ours.worst,
            ours.median_nodes,
            ours.nodes as f64 / ours.total / 1e6
        );
        if baseline {
            let plain = if tuned.is_some() {
                Config::default()
            } else {
                Config {
                    canonical_until: 0,
                    stabilizer_until: 0,
                    order_from: 17,
                    decide_until: 0,
                    ..Config::default()
                }
            };
            let base = measure(&positions, plain, cold, repeat);
            line += &format!(
                " {:>13.4} {:>14.4} {:>6.2}",
                base.median_cpu,
                base.worst_cpu,
                base.median_cpu / ours.median_cpu
            );
        }
        println!("{line}");
    }
}

/// Times every move's values (with the built-in book) at each level, deepest first.
fn measure_values(games: &[Vec<Position>], levels: (u32, u32)) {
    let book = Book::embedded();
    println!(
        "{:>6} {:>3} {:>9} {:>9} {:>9} {:>9} {:>6} {:>9} {:>6}",
        "placed",
        "n",
        "med cpu",
        "worst cpu",
        "med wall",
        "worstwall",
        "moves",
        "best cpu",
        "ratio"
    );
    for placed in (levels.0..=levels.1).rev() {
        let (mut cpu, mut wall, mut best, mut moves) = (Vec::new(), Vec::new(), Vec::new(), 0);
        for p in games.iter().filter_map(|g| g.get(placed as usize)) {
            let (start, start_cpu) = (Instant::now(), cpu_seconds());
            moves += move_values_with_book(p, &book).len();
            wall.push(start.elapsed().as_secs_f64());
            cpu.push(cpu_seconds() - start_cpu);
            let start_cpu = cpu_seconds();
            std::hint::black_box(best_move_with_book(p, &book));
            best.push(cpu_seconds() - start_cpu);
        }
        if cpu.is_empty() {
            continue;
        }
        for v in [&mut cpu, &mut wall, &mut best] {
            v.sort_by(f64::total_cmp);
        }
        let median = |v: &[f64]| v[v.len() / 2];
        println!(
            "{:>6} {:>3} {:>9.4} {:>9.4} {:>9.4} {:>9.4} {:>6} {:>9.4} {:>6.1}",
            placed,
            cpu.len(),
            median(&cpu),
            cpu[cpu.len() - 1],
            median(&wall),
            wall[wall.len() - 1],
            moves / cpu.len(),
            median(&best),
            median(&cpu) / median(&best).max(1e-6)
        );
    }
}

/// Times every move's values on `threads.0` and on `threads.1` threads, in turns, at each level,
/// each position `repeat` times a side (its median kept); checks that both give the same lines.
fn compare_threads(
    games: &[Vec<Position>],
    levels: (u32, u32),
    threads: (usize, usize),
    repeat: usize,
) {
    println!(
        "{:>6} {:>3} | T={:<3} {:>9} {:>9} {:>9} | T={:<3} {:>9} {:>9} {:>9} | {:>6} {:>6}",
        "placed",
        "n",
        threads.0,
        "med wall",
        "worstwall",
        "med cpu",
        threads.1,
        "med wall",
        "worstwall",
        "med cpu",
        "ratio",
        "worst"
    );
    let mut turn = 0usize;
    for placed in levels.0..=levels.1 {
        // Per side: each position's median wall and CPU seconds.
        let mut sides: [(Vec<f64>, Vec<f64>); 2] = Default::default();
        for p in games.iter().filter_map(|g| g.get(placed as usize)) {
            let book = Book::embedded_for(p);
            let mut runs: [(Vec<f64>, Vec<f64>); 2] = Default::default();
            let mut lines: [Vec<String>; 2] = Default::default();
            for _ in 0..repeat {
                turn += 1;
                let order = if turn.is_multiple_of(2) {
                    [0, 1]
                } else {
                    [1, 0]
                };
                for side in order {
                    let t = if side == 0 { threads.0 } else { threads.1 };
                    let (start, start_cpu) = (Instant::now(), cpu_seconds());
                    let got = move_values_threaded(p, &book, t);
                    runs[side].0.push(start.elapsed().as_secs_f64());
                    runs[side].1.push(cpu_seconds() - start_cpu);
                    lines[side] = got.iter().map(ToString::to_string).collect();
                }
            }
            assert_eq!(lines[0], lines[1], "{}", show(p));
            for (side, (wall, cpu)) in runs.iter_mut().enumerate() {
                sides[side].0.push(median(wall));
                sides[side].1.push(median(cpu));
            }
        }
        if sides[0].0.is_empty() {
            continue;
        }
        let worst_ratio = sides[1]
            .0
            .iter()
            .zip(&sides[0].0)
            .map(|(b, a)| b / a.max(1e-7))
            .fold(0.0, f64::max);
        let mut line = format!("{placed:>6} {:>3} |", sides[0].0.len());
        let mut medians = [0.0; 2];
        for (side, (wall, cpu)) in sides.iter_mut().enumerate() {
            medians[side] = median(wall);
            line += &format!(
                "       {:>9.4} {:>9.4} {:>9.4} |",
                medians[side],
                wall.iter().copied().fold(0.0, f64::max),
                median(cpu)
            );
        }
        println!(
            "{line} {:>6.2} {:>6.2}",
            medians[1] / medians[0].max(1e-7),
            worst_ratio
        );
    }
}

/// The median of `v` (the upper one of an even count); sorts it.
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// `--values` on `n` positions drawn from the built-in book's level with 4 pieces placed, the
/// drawn and the won ones apart: the median, mean and worst CPU seconds, and how many took over
/// one second.
fn measure_book_sample(n: usize, seed: u64) {
    let book = Book::embedded();
    let level: Vec<_> = book
        .entries()
        .filter(|(c, _)| c.occupied.count_ones() == 4)
        .collect();
    let mut rng = Rng::new(seed);
    println!("value     n   med cpu  mean cpu worst cpu  over 1 s   moves");
    for value in [Value::Draw, Value::Win] {
        let of_value: Vec<_> = level.iter().filter(|(_, e)| e.value() == value).collect();
        let mut cpu = Vec::new();
        let mut moves = 0;
        for _ in 0..n.min(of_value.len()) {
            // Drawn with replacement: a repeat is unlikely among thousands.
            let (c, _) = of_value[rng.below(of_value.len())];
            let position = Position {
                board: c.board(),
                hand: Piece::new(0),
            };
            let start_cpu = cpu_seconds();
            moves += move_values_with_book(&position, &book).len();
            cpu.push(cpu_seconds() - start_cpu);
        }
        if cpu.is_empty() {
            continue;
        }
        let mean = cpu.iter().sum::<f64>() / cpu.len() as f64;
        cpu.sort_by(f64::total_cmp);
        println!(
            "{:<5} {:>5} {:>9.3} {:>9.3} {:>9.3} {:>9} {:>7}",
            value.to_string(),
            cpu.len(),
            cpu[cpu.len() / 2],
            mean,
            cpu[cpu.len() - 1],
            cpu.iter().filter(|&&t| t > 1.0).count(),
            moves / cpu.len()
        );
    }
}

/// `config` with one knob set from `KNOB=N`.
fn tune(mut config: Config, setting: &str) -> Config {
    let (knob, n) = setting.split_once('=').expect("--set KNOB=N");
    let n: u32 = n.parse().expect("--set KNOB=N with N a number");
    match knob {
        "order_from" => config.order_from = n,
        "table_from" => config.table_from = n,
        "canonical_until" => config.canonical_until = n,
        "stabilizer_until" => config.stabilizer_until = n,
        "log2_buckets" => config.log2_buckets = Some(n),
        "decide_until" => config.decide_until = n,
        _ => panic!("unknown knob {knob}"),
    }
    config
}

struct Figures {
    median: f64,
    worst: f64,
    median_cpu: f64,
    worst_cpu: f64,
    total: f64,
    nodes: u64,
    median_nodes: u64,
}

fn measure(positions: &[&Position], config: Config, cold: bool, repeat: usize) -> Figures {
    let mut times = Vec::new();
    let mut cpu = Vec::new();
    let mut nodes = Vec::new();
    for p in positions {
        if cold {
            evict_caches();
        }
        // Each position's time: the median of its `repeat` searches.
        let (mut wall, mut used) = (Vec::new(), Vec::new());
        let mut a = None;
        for _ in 0..repeat {
            let (start, start_cpu) = (Instant::now(), cpu_seconds());
            a = Some(best_move_with(p, config));
            wall.push(start.elapsed().as_secs_f64());
            used.push(cpu_seconds() - start_cpu);
        }
        wall.sort_by(f64::total_cmp);
        used.sort_by(f64::total_cmp);
        times.push(wall[wall.len() / 2]);
        cpu.push(used[used.len() / 2]);
        nodes.push(a.expect("at least one search").nodes);
    }
    let total = cpu.iter().sum();
    let all_nodes = nodes.iter().sum();
    times.sort_by(f64::total_cmp);
    cpu.sort_by(f64::total_cmp);
    nodes.sort_unstable();
    Figures {
        median: times[times.len() / 2],
        worst: times[times.len() - 1],
        median_cpu: cpu[cpu.len() / 2],
        worst_cpu: cpu[cpu.len() - 1],
        total,
        nodes: all_nodes,
        median_nodes: nodes[nodes.len() / 2],
    }
}

/// Touches 64 MiB, more than any cache of the machines measured, so that the next search starts
/// cold.
fn evict_caches() {
    let junk = vec![1u8; 64 << 20];
    let sum: u64 = junk.iter().step_by(64).map(|&b| u64::from(b)).sum();
    std::hint::black_box(sum);
}

/// This process's CPU time (user + system), in seconds: the machine is shared, so wall time
/// includes waiting for a core.
fn cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// The positions of one game, indexed by pieces placed (the piece in hand is set).
fn game(seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut next = move |n: usize| rng.below(n);
    let mut board = Board::EMPTY;
    let mut hand = Piece::new(next(16) as u8).expect("below 16");
    let mut positions = vec![Position {
        board,
        hand: Some(hand),
    }];
    while board.empty().len() > 2 {
        let cells: Vec<Cell> = board.empty().collect();
        // Placements that leave a safe gift, else any.
        let good: Vec<(Cell, Vec<Piece>)> = cells
            .iter()
            .map(|&c| {
                let b = board.place(c, hand);
                let safe = b
                    .threats()
                    .safe_pieces()
                    .and(b.unused())
                    .collect::<Vec<_>>();
                (c, safe)
            })
            .filter(|(c, safe)| !safe.is_empty() && !board.wins_at(*c, hand))
            .collect();
        if good.is_empty() {
            break;
        }
        let (cell, safe) = &good[next(good.len())];
        board = board.place(*cell, hand);
        hand = safe[next(safe.len())];
        positions.push(Position {
            board,
            hand: Some(hand),
        });
    }
    positions
}

/// A position in the solver's input format.
fn show(p: &Position) -> String {
    let mut text = String::new();
    for r in 0..4 {
        let cells: Vec<String> = (0..4)
            .map(|c| {
                let cell = Cell::new(r, c).expect("in range");
                p.board.get(cell).map_or(".".to_string(), |x| x.to_string())
            })
            .collect();
        text += &cells.join(" ");
        text.push('\n');
    }
    text + &p.hand.map_or("-".to_string(), |h| h.to_string())
}
