//! `minesweeper-agent`: plays CodinGame's Minesweeper on stdin and stdout with the exact analyzer
//! and the bot's default guessing strategy (`cp_puzzles::minesweeper::bot::Strategy::REGIONS`).
//!
//! Each turn it reads the board (one line per row, cells separated by spaces: `?` hidden, `.`
//! empty, `1`-`8` a count) and prints `x y` to reveal a cell, followed by the cells it knows to be
//! mines as flag pairs. The board is 30x16 with 99 mines unless `minesweeper-agent HEIGHT MINES`
//! says otherwise (the width is read from the first line). The first reveal is at (3, 3), the
//! bot's under the `opening` rule.
//!
//! Deadline: a turn has [`BUDGET`]. The strategy runs only if the analysis left more than half of
//! it, on its own thread; if it has not answered when the budget runs out, or did not run, the
//! analyzer's own best guess is played (a fallback). On EOF it prints `fallbacks N in T turns` on
//! stderr and exits.

use std::collections::BTreeSet;
use std::io::{self, BufRead, Write};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use cp_puzzles::minesweeper::bot::{Calls, Strategy};
use cp_puzzles::minesweeper::{analyze, Board, Cell, Pos};

/// The time the agent allows itself per turn (CodinGame gives 50 ms).
const BUDGET: Duration = Duration::from_millis(30);

/// What the agent remembers between turns.
struct Agent {
    height: usize,
    mines: usize,
    /// Cells proved mines so far (they stay mines).
    known_mines: BTreeSet<Pos>,
    /// Cells proved safe, not yet revealed.
    safe: Vec<Pos>,
    turns: u32,
    fallbacks: u32,
}

impl Agent {
    /// Reads the board's rows from `lines` (`None` at the end of the game).
    fn read(&self, lines: &mut impl Iterator<Item = io::Result<String>>) -> Option<Board> {
        let mut rows = Vec::with_capacity(self.height);
        for _ in 0..self.height {
            rows.push(lines.next()?.ok()?);
        }
        let width = rows[0].split_ascii_whitespace().count();
        let mut board = Board::new(width, self.height, self.mines).ok()?;
        for (y, row) in rows.iter().enumerate() {
            for (x, t) in row.split_ascii_whitespace().take(width).enumerate() {
                let cell = match t.as_bytes()[0] {
                    b'.' => Cell::Revealed(0),
                    d @ b'1'..=b'8' => Cell::Revealed(d - b'0'),
                    _ => Cell::Hidden,
                };
                board.set(Pos::new(x, y), cell);
            }
        }
        for &p in &self.known_mines {
            if board.get(p) == Cell::Hidden {
                board.set(p, Cell::Flagged);
            }
        }
        Some(board)
    }

    /// The cell to reveal on `board`.
    fn choose(&mut self, board: &Board, start: Instant) -> Pos {
        if board
            .cells()
            .iter()
            .all(|&c| c != Cell::Hidden && c != Cell::Flagged)
            || !board.cells().iter().any(|c| matches!(c, Cell::Revealed(_)))
        {
            return Pos::new(3.min(board.width() - 1), 3.min(board.height() - 1));
        }
        self.safe.retain(|&p| board.get(p) == Cell::Hidden);
        if let Some(p) = self.safe.pop() {
            return p;
        }
        let Ok(analysis) = analyze(board) else {
            self.fallbacks += 1;
            return first_hidden(board);
        };
        self.known_mines.extend(analysis.mines.iter().copied());
        if !analysis.safe.is_empty() {
            self.safe = analysis.safe;
            self.safe.reverse();
            return self.safe.pop().unwrap_or_else(|| first_hidden(board));
        }
        let fallback = analysis
            .best
            .map_or_else(|| first_hidden(board), |(p, _)| p);
        let Some(left) = BUDGET
            .checked_sub(start.elapsed())
            .filter(|&l| l > BUDGET / 2)
        else {
            self.fallbacks += 1;
            return fallback;
        };
        let mut view = board.clone();
        for &p in &analysis.mines {
            view.set(p, Cell::Flagged);
        }
        // The strategy runs on its own thread; if it misses the deadline its answer is dropped.
        let (send, receive) = mpsc::channel();
        thread::spawn(move || {
            let choice = Strategy::REGIONS.choose(&view, &analysis, &mut Calls::default());
            let _ = send.send(choice.0);
        });
        receive.recv_timeout(left).unwrap_or_else(|_| {
            self.fallbacks += 1;
            fallback
        })
    }
}

/// The first hidden cell, row by row: the last resort.
fn first_hidden(board: &Board) -> Pos {
    board
        .positions()
        .find(|&p| board.get(p) == Cell::Hidden)
        .unwrap_or(Pos::new(0, 0))
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let mut agent = Agent {
        height: args.first().copied().unwrap_or(16),
        mines: args.get(1).copied().unwrap_or(99),
        known_mines: BTreeSet::new(),
        safe: Vec::new(),
        turns: 0,
        fallbacks: 0,
    };
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = io::stdout().lock();
    while let Some(board) = agent.read(&mut lines) {
        let start = Instant::now();
        let p = agent.choose(&board, start);
        agent.turns += 1;
        let mut line = format!("{} {}", p.x, p.y);
        for m in &agent.known_mines {
            line.push_str(&format!(" {} {}", m.x, m.y));
        }
        if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
    eprintln!("fallbacks {} in {} turns", agent.fallbacks, agent.turns);
}
