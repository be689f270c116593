//! How long the values panel (`a`) takes: every legal move's exact outcome
//! ([`players::annotate`], the lines of `quarto --values`, with the built-in book), next to
//! the hint ([`players::hint`]: perfect's move and its distance) and perfect's move alone
//! ([`players::perfect`]) on the same position as baselines.
//!
//! `cargo bench -p cp-puzzles-play --bench values [-- [--positions N] [--placed A,B,…]]`: for each
//! number of pieces placed (default 3, 4, 5), N positions (default 4) reached by random play from
//! the empty board (seeds 1, 2, …; a game won before is skipped), each timed once. It prints
//! one line per position (CPU and wall seconds of the panel, CPU of perfect's move, the best
//! line, the position on one line), then per number placed the median and the worst.
//!
//! `-- --canonical D --sample N [--seed S]` times the panel instead on N positions drawn
//! uniformly (with replacement; seed S, default 1) among all canonical positions with D pieces
//! placed (2,125,230 for D = 5; listing them takes seconds), with 0000 in hand, and prints, by
//! the position's value, the median, mean, 99th percentile and worst CPU seconds and how many
//! took over 1 s, then the slowest position. With `--exceptions` it draws them among the book's
//! entries with D placed instead (for D = 5, the level's wins and losses other than the wins in
//! 1, which the built-in book holds).

use std::time::Instant;

use cp_puzzles::minesweeper::game::Rng;
use cp_puzzles::quarto::{Piece, Position, Value};
use cp_puzzles_play::quarto_play::book;
use cp_puzzles_play::quarto_play::game::Game;
use cp_puzzles_play::quarto_play::players::{annotate, choose, hint, perfect, Level};

/// The CPU time of this thread so far, in seconds (Linux's `/proc/thread-self/schedstat`; 0
/// elsewhere).
fn thread_cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

/// Runs `f`, returning its result with its wall and CPU seconds.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let (start, cpu) = (Instant::now(), thread_cpu());
    let out = f();
    (out, start.elapsed().as_secs_f64(), thread_cpu() - cpu)
}

/// A position with `placed` pieces placed and a piece in hand, by random play from `seed`.
fn position(placed: usize, seed: u64, book: &book::Book) -> Option<Game> {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(1);
    while game.moves().len() <= placed {
        let mv = choose(Level::Random, &game.position(), book, &mut rng);
        game.play(mv).expect("legal");
        if game.outcome().is_some() {
            return None;
        }
    }
    // A piece in hand that wins at once makes a trivial position: skipped.
    let hand = game.hand()?;
    let board = game.board();
    (!board.empty().into_iter().any(|c| board.wins_at(c, hand))).then_some(game)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let n: u64 = arg("--positions").map_or(4, |v| v.parse().expect("a number"));
    let levels: Vec<usize> = arg("--placed").map_or(vec![3, 4, 5], |v| {
        v.split(',').map(|x| x.parse().expect("a number")).collect()
    });
    let book = book::shipped();
    if let Some(placed) = arg("--canonical") {
        let placed: u32 = placed.parse().expect("--canonical D: a number");
        let n: usize = arg("--sample").map_or(100, |v| v.parse().expect("--sample N: a number"));
        let seed: u64 = arg("--seed").map_or(1, |v| v.parse().expect("--seed S: a number"));
        let exceptions = args.iter().any(|a| a == "--exceptions");
        canonical_sample(placed, n, seed, exceptions, &book);
        return;
    }
    println!("placed  panel-cpu  panel-wall  hint-cpu  perfect-cpu  best line  position");
    for placed in levels {
        let (mut cpus, mut walls) = (Vec::new(), Vec::new());
        let (mut hints, mut perfects) = (Vec::new(), Vec::new());
        let mut seed = 0;
        while (cpus.len() as u64) < n {
            seed += 1;
            let Some(game) = position(placed, seed, &book) else {
                continue;
            };
            let p = game.position();
            let (values, wall, cpu) = timed(|| annotate(&p, &book));
            let (h, _, hint_cpu) = timed(|| hint(&p, &book));
            assert_eq!(
                h,
                (values[0].mv, values[0].outcome),
                "the hint is the first line"
            );
            let (_, _, perfect_cpu) = timed(|| perfect(&p, &book));
            println!(
                "{placed:>6}  {cpu:>8.3}s  {wall:>9.3}s  {hint_cpu:>7.3}s  {perfect_cpu:>10.3}s  {}  {}",
                values[0],
                game.to_quarto_input().replace('\n', " / ").trim_end_matches(" / ")
            );
            cpus.push(cpu);
            walls.push(wall);
            hints.push(hint_cpu);
            perfects.push(perfect_cpu);
        }
        let worst = cpus.iter().copied().fold(0.0, f64::max);
        println!(
            "{placed} placed, {n} positions: panel CPU median {:.3} s, worst {worst:.3} s (wall median {:.3} s); hint CPU median {:.3} s; perfect's move CPU median {:.3} s",
            median(cpus),
            median(walls),
            median(hints),
            median(perfects)
        );
    }
}

/// Times the panel on `n` positions drawn uniformly among the canonical positions with `placed`
/// pieces placed (or, with `exceptions`, among the book's entries with `placed` placed), and
/// prints the figures by the position's value.
fn canonical_sample(placed: u32, n: usize, seed: u64, exceptions: bool, book: &book::Book) {
    let level: Vec<_> = if exceptions {
        (book.entries())
            .map(|(c, _)| c)
            .filter(|c| c.occupied.count_ones() == placed)
            .collect()
    } else {
        book::canonical_positions(placed).into_iter().collect()
    };
    let kind = if exceptions {
        "book entries"
    } else {
        "canonical positions"
    };
    println!(
        "{} {kind} with {placed} placed; {n} drawn (seed {seed})",
        level.len()
    );
    assert!(!level.is_empty(), "no position to draw from");
    let mut rng = Rng::new(seed);
    let (mut by_value, mut slowest) = (Vec::<(Value, f64)>::new(), (0.0, String::new()));
    for _ in 0..n {
        let c = &level[rng.below(level.len() as u64) as usize];
        let p = Position {
            board: c.board(),
            hand: Piece::new(0),
        };
        let (values, _, cpu) = timed(|| annotate(&p, book));
        by_value.push((values[0].outcome.value(), cpu));
        if cpu > slowest.0 {
            slowest = (cpu, format!("{:04x} {:016x}", c.occupied, c.pieces));
        }
    }
    println!("value     n   median     mean      p99    worst  over 1 s");
    for value in [Value::Win, Value::Draw, Value::Loss] {
        let mut cpu: Vec<f64> = by_value
            .iter()
            .filter(|(v, _)| *v == value)
            .map(|&(_, t)| t)
            .collect();
        if cpu.is_empty() {
            continue;
        }
        cpu.sort_by(f64::total_cmp);
        let mean = cpu.iter().sum::<f64>() / cpu.len() as f64;
        println!(
            "{:<5} {:>5} {:>8.3} {:>8.3} {:>8.3} {:>8.3} {:>9}",
            value.to_string(),
            cpu.len(),
            median(cpu.clone()),
            mean,
            cpu[cpu.len() * 99 / 100],
            cpu[cpu.len() - 1],
            cpu.iter().filter(|&&t| t > 1.0).count()
        );
    }
    println!("slowest: {:.3} s, {}", slowest.0, slowest.1);
}
