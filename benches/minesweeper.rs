//! `cargo bench --bench minesweeper`: times `analyze` on expert positions (30x16, 99 mines) taken
//! from games played by the analyzer itself (click every safe cell, else its best guess; the first
//! click at (3, 3) opens an area), against a baseline measured in the same run: one scan of the
//! board that counts each number's hidden and flagged neighbours (a floor for any analyzer).
//!
//! Prints the median and worst time per position, overall and for the positions with the longest
//! frontiers, and the slowest position as a `.mine` board.

use std::hint::black_box;
use std::time::{Duration, Instant};

use cp_puzzles::minesweeper::{analyze, Board, Cell, Pos};

const GAMES: u64 = 40;
const REPEATS: usize = 7;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// A hidden layout and the board the player sees.
struct Game {
    mine: Vec<bool>,
    board: Board,
}

impl Game {
    fn new(seed: u64, first: Pos) -> Game {
        let board = Board::new(30, 16, 99).expect("expert size");
        let mut rng = Rng(seed);
        let near: Vec<Pos> = board.neighbours(first).chain([first]).collect();
        let mut mine = vec![false; 30 * 16];
        let mut placed = 0;
        while placed < 99 {
            let i = rng.below(30 * 16);
            if !mine[i] && !near.contains(&board.pos(i)) {
                mine[i] = true;
                placed += 1;
            }
        }
        Game { mine, board }
    }

    /// Reveals `p` (flooding zeros); false if it was a mine.
    fn click(&mut self, p: Pos) -> bool {
        let mut stack = vec![p];
        while let Some(q) = stack.pop() {
            let i = self.board.index(q);
            if self.mine[i] {
                return false;
            }
            if self.board.get(q) != Cell::Hidden {
                continue;
            }
            let around: Vec<Pos> = self.board.neighbours(q).collect();
            let n = around
                .iter()
                .filter(|&&r| self.mine[self.board.index(r)])
                .count();
            self.board.set(q, Cell::Revealed(n as u8));
            if n == 0 {
                stack.extend(around);
            }
        }
        true
    }
}

/// Every position at which the analyzer was consulted, over `GAMES` games.
fn positions() -> Vec<Board> {
    let mut out = Vec::new();
    for seed in 0..GAMES {
        let mut game = Game::new(seed, Pos::new(3, 3));
        game.click(Pos::new(3, 3));
        while let Ok(a) = analyze(&game.board) {
            if a.probabilities.len() == game.board.mines() - game.board.flags() {
                break; // won: only mines are hidden
            }
            out.push(game.board.clone());
            for &p in &a.mines {
                game.board.set(p, Cell::Flagged);
            }
            let alive = if a.safe.is_empty() {
                game.click(
                    a.best
                        .expect("a game in progress has a cell that can be safe")
                        .0,
                )
            } else {
                a.safe.iter().all(|&p| game.click(p))
            };
            if !alive {
                break;
            }
        }
    }
    out
}

/// The hidden cells next to a number.
fn frontier(board: &Board) -> usize {
    board
        .positions()
        .filter(|&p| {
            board.get(p) == Cell::Hidden
                && board
                    .neighbours(p)
                    .any(|q| matches!(board.get(q), Cell::Revealed(_)))
        })
        .count()
}

/// The baseline: each number's hidden and flagged neighbours, counted once.
fn scan(board: &Board) -> usize {
    let mut sum = 0;
    for p in board.positions() {
        if let Cell::Revealed(_) = board.get(p) {
            for q in board.neighbours(p) {
                sum += match board.get(q) {
                    Cell::Hidden => 1,
                    Cell::Flagged => 100,
                    Cell::Revealed(_) => 0,
                };
            }
        }
    }
    sum
}

/// The median of `REPEATS` runs of `f`.
fn time(mut f: impl FnMut()) -> Duration {
    let mut runs: Vec<Duration> = (0..REPEATS)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    runs.sort();
    runs[REPEATS / 2]
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    let boards = positions();
    let mut rows: Vec<(usize, Duration, Duration, &Board)> = boards
        .iter()
        .map(|b| {
            let analysis = time(|| {
                black_box(analyze(black_box(b)).ok());
            });
            let baseline = time(|| {
                black_box(scan(black_box(b)));
            });
            (frontier(b), analysis, baseline, b)
        })
        .collect();
    rows.sort_by_key(|r| r.0);
    let report = |label: &str, rows: &[(usize, Duration, Duration, &Board)]| {
        let a = median(rows.iter().map(|r| r.1).collect());
        let s = median(rows.iter().map(|r| r.2).collect());
        let worst = rows.iter().map(|r| r.1).max().unwrap_or_default();
        println!(
            "{label:<34} {:>5} positions  analyze median {:>8.1} us  worst {:>9.1} us  baseline scan median {:>6.1} us  ratio {:>6.1}",
            rows.len(),
            micros(a),
            micros(worst),
            micros(s),
            a.as_secs_f64() / s.as_secs_f64()
        );
    };
    println!("expert 30x16/99, {GAMES} games played by the analyzer, median of {REPEATS} runs per position");
    report("all positions", &rows);
    let long = &rows[rows.len() * 3 / 4..];
    report(
        &format!("longest-frontier quarter (>= {})", long[0].0),
        long,
    );
    let slowest = rows.iter().max_by_key(|r| r.1).expect("some positions");
    println!(
        "slowest position ({} frontier cells, {:.1} us):\n{}",
        slowest.0,
        micros(slowest.1),
        slowest.3
    );
}
