//! How long `perfect` (the shipped book, then the solver) takes per move, over whole games.
//!
//! `cargo bench -p cp-puzzles-play --bench perfect [-- [--seeds N] [--sample N]]`: perfect plays
//! N games (seeds 1 to N, default 4) as player 1 and as player 2 against each level (random,
//! easy, medium, perfect), and every move of perfect is timed (wall clock, the whole
//! `players::choose` call). It prints, by pieces placed before the move, the number of moves,
//! the median and the worst, then the same over all moves and the worst move's position. With
//! `--sample N` it also times perfect on N positions drawn at random among those with 3 and with
//! 4 pieces placed (random play from the empty board). With `--canonical D` it times perfect on
//! every canonical position with D pieces placed instead (3,382 for D = 3), and nothing else.

use std::time::Instant;

use cp_puzzles::minesweeper::game::Rng;
use cp_puzzles::quarto::{Piece, Position};
use cp_puzzles_play::quarto_play::book;
use cp_puzzles_play::quarto_play::game::Game;
use cp_puzzles_play::quarto_play::players::{choose, Level};

/// One timed move: pieces placed before it, wall and CPU seconds, and the position.
struct Timed {
    placed: u32,
    seconds: f64,
    cpu: f64,
    position: String,
}

/// The CPU time of this thread so far, in seconds (Linux's `/proc/thread-self/schedstat`; 0
/// elsewhere).
fn thread_cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

/// Runs `f`, returning its wall and CPU seconds.
fn timed(f: impl FnOnce()) -> (f64, f64) {
    let (start, cpu) = (Instant::now(), thread_cpu());
    f();
    (start.elapsed().as_secs_f64(), thread_cpu() - cpu)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str, default: u64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map_or(default, |v| v.parse().expect("a number"))
    };
    let (seeds, sample) = (value("--seeds", 4), value("--sample", 0));
    let book = book::shipped();
    if let Some(&d) = args
        .iter()
        .position(|a| a == "--canonical")
        .and_then(|i| args.get(i + 1))
        .map(|d| d.parse::<u32>().expect("a depth"))
        .as_ref()
    {
        let timed = every_canonical(d, &book);
        println!("every canonical position with {d} pieces placed");
        report(&timed);
        return;
    }
    let mut timed = Vec::new();
    let levels = [Level::Random, Level::Easy, Level::Medium, Level::Perfect];
    for seed in 1..=seeds {
        for opponent in levels {
            for side in [0, 1] {
                let mut players = [opponent; 2];
                players[side] = Level::Perfect;
                timed.extend(game(players, seed, &book));
            }
        }
    }
    println!(
        "{} games: perfect against random, easy, medium, perfect, both sides, seeds 1 to {seeds}",
        seeds * 8
    );
    report(&timed);
    if sample > 0 {
        println!("\n{sample} random positions with 3 and with 4 pieces placed");
        report(&random_positions(sample, &book));
    }
}

/// Plays one game and times perfect's moves.
fn game(players: [Level; 2], seed: u64, book: &book::Book) -> Vec<Timed> {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(1);
    let mut moves = Vec::new();
    while game.outcome().is_none() {
        let level = players[usize::from(game.to_move()) - 1];
        let position = game.position();
        let mut mv = None;
        let (seconds, cpu) = timed(|| mv = Some(choose(level, &position, book, &mut rng)));
        let mv = mv.expect("chosen");
        if level == Level::Perfect {
            moves.push(Timed {
                placed: 16 - game.board().empty().len(),
                seconds,
                cpu,
                position: game.to_quarto_input(),
            });
        }
        game.play(mv).expect("a legal move");
    }
    moves
}

/// Times perfect on `n` positions with 3 and `n` with 4 pieces placed, from random play.
fn random_positions(n: u64, book: &book::Book) -> Vec<Timed> {
    let mut found = Vec::new();
    let mut rng = Rng::new(7);
    for placed in [3, 4] {
        let mut done = 0;
        while done < n {
            let mut game = Game::new(1);
            while game.outcome().is_none() && game.moves().len() < placed + 1 {
                let mv = choose(Level::Random, &game.position(), book, &mut rng);
                game.play(mv).expect("a legal move");
            }
            if game.outcome().is_some() {
                continue;
            }
            let (seconds, cpu) = timed(|| {
                let _ = choose(Level::Perfect, &game.position(), book, &mut rng);
            });
            found.push(Timed {
                placed: placed as u32,
                seconds,
                cpu,
                position: game.to_quarto_input(),
            });
            done += 1;
        }
    }
    found
}

/// Times perfect on every canonical position with `placed` pieces placed.
fn every_canonical(placed: u32, book: &book::Book) -> Vec<Timed> {
    let mut rng = Rng::new(1);
    book::canonical_positions(placed)
        .iter()
        .map(|c| {
            let position = Position {
                board: c.board(),
                hand: Piece::new(0),
            };
            let (seconds, cpu) = timed(|| {
                let _ = choose(Level::Perfect, &position, book, &mut rng);
            });
            Timed {
                placed,
                seconds,
                cpu,
                position: format!("{:04x} {:016x}", c.occupied, c.pieces),
            }
        })
        .collect()
}

/// Prints the median and worst time (wall and CPU) by pieces placed, then over all moves.
fn report(timed: &[Timed]) {
    println!(
        "{:>6} {:>6} {:>10} {:>10} {:>10} {:>10}",
        "placed", "moves", "med wall s", "worst wall", "med cpu s", "worst cpu"
    );
    for placed in 0..16 {
        let some: Vec<&Timed> = timed.iter().filter(|t| t.placed == placed).collect();
        if !some.is_empty() {
            line(&placed.to_string(), &some);
        }
    }
    line("all", &timed.iter().collect::<Vec<_>>());
    if let Some(worst) = timed.iter().max_by(|a, b| a.seconds.total_cmp(&b.seconds)) {
        println!("slowest move (wall), its position:\n{}", worst.position);
    }
}

fn line(label: &str, timed: &[&Timed]) {
    let stats = |f: fn(&Timed) -> f64| {
        let mut v: Vec<f64> = timed.iter().map(|t| f(t)).collect();
        v.sort_by(f64::total_cmp);
        (v[v.len() / 2], v[v.len() - 1])
    };
    let (wall, cpu) = (stats(|t| t.seconds), stats(|t| t.cpu));
    println!(
        "{label:>6} {:>6} {:>10.4} {:>10.4} {:>10.4} {:>10.4}",
        timed.len(),
        wall.0,
        wall.1,
        cpu.0,
        cpu.1
    );
}
