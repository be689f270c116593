//! `minesweeper-agent`: plays CodinGame's Minesweeper on stdin and stdout with the exact analyzer
//! and the bot's default guessing strategy (`cp_puzzles::minesweeper::bot::Strategy::REGIONS`).
//!
//! Each turn it reads the board (one line per row, cells separated by spaces: `?` hidden, `.`
//! empty, `1`-`8` a count) and prints `x y` to reveal a cell, followed by the cells it knows to be
//! mines as flag pairs. The board is 30x16 with 99 mines unless `minesweeper-agent HEIGHT MINES`
//! says otherwise (the width is read from the first line). The first reveal is at (3, 3), the
//! bot's under the `opening` rule.
//!
//! Deadline: a turn has [`BUDGET`] (or `--budget-ms N`). The analysis and then the strategy run on a worker thread,
//! which reports the analysis as soon as it has it and the strategy's pick after it. When the
//! budget runs out the agent plays the best it has: the strategy's pick, else the analyzer's own
//! best guess (the lowest mine probability), else a cheap guess that needs no analysis (a hidden
//! cell away from the numbers, see [`cheap_guess`]). The last two are fallbacks, and so is a failed
//! analysis; on EOF it prints `fallbacks N in T turns (no analysis A, strategy cut S)` on stderr and
//! exits. The worker's strategy searches give up at the same deadline
//! (`bot::set_deadline`), so a cut worker ends soon after instead of competing with the next
//! turns for the processor; its late answer is dropped.

use std::collections::BTreeSet;
use std::io::{self, BufRead, Write};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use cp_puzzles::minesweeper::bot::{set_deadline, Calls, Strategy};
use cp_puzzles::minesweeper::{analyze, Board, Cell, Error, Pos, MAX_SIDE};

/// The time the agent allows itself per turn unless `--budget-ms` says otherwise (CodinGame gives
/// 50 ms; the rest is margin for a loaded machine, reading the board and writing the line).
const BUDGET: Duration = Duration::from_millis(30);

/// The version `--version` prints: the package's (a constant, so that `judge bundle` writes it
/// into the bundle).
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// `--help`; its first line is the usage, also printed on a bad argument.
const HELP: &str = "usage: minesweeper-agent [--budget-ms N] [HEIGHT MINES]
Plays CodinGame's Minesweeper on stdin and stdout (a board 16 high with 99 mines unless HEIGHT
MINES say otherwise), N ms a turn (30 by default). -h, --help: this help; -V, --version: the
version. Exit status: 0 at the end of the input, 1 a board of an impossible size, 2 bad arguments
";

/// What the agent remembers between turns.
struct Agent {
    /// The time allowed per turn.
    budget: Duration,
    height: usize,
    mines: usize,
    /// Cells proved mines so far (they stay mines).
    known_mines: BTreeSet<Pos>,
    /// Cells proved safe, not yet revealed.
    safe: Vec<Pos>,
    turns: u32,
    /// Turns played without the strategy's pick: the analysis was cut, failed, or the strategy
    /// was cut.
    fallbacks: u32,
    /// Turns on which the analysis was not done in time, or failed.
    no_analysis: u32,
    /// Turns on which the analysis was done but the strategy was not.
    strategy_cut: u32,
}

/// What the worker thread reports, in this order.
enum Report {
    /// The analysis: safe cells, certain mines and the analyzer's best guess (`None` if it failed).
    Analysis(Option<(Vec<Pos>, Vec<Pos>, Option<Pos>)>),
    /// The strategy's pick, sent only when no cell is safe.
    Pick(Pos),
}
impl Agent {
    /// Reads the board's rows from `lines` (`None` at the end of the game).
    ///
    /// # Errors
    /// A board of an impossible size: no cell in the first row, a side over [`MAX_SIDE`], or
    /// more mines than cells.
    fn read(
        &self,
        lines: &mut impl Iterator<Item = io::Result<String>>,
    ) -> Option<Result<Board, Error>> {
        let mut rows = Vec::new();
        for _ in 0..self.height {
            rows.push(lines.next()?.ok()?);
        }
        let width = rows[0].split_ascii_whitespace().count();
        let mut board = match Board::new(width, self.height, self.mines) {
            Ok(board) => board,
            error => return Some(error),
        };
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
        Some(Ok(board))
    }

    /// The cell to reveal on `board`, chosen within the budget from `start`.
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
        let deadline = start + self.budget;
        let receive = spawn_worker(board.clone(), deadline);
        let mut analysed = false;
        let mut guess = None;
        while let Some(report) = deadline
            .checked_duration_since(Instant::now())
            .and_then(|left| receive.recv_timeout(left).ok())
        {
            match report {
                Report::Analysis(None) => break,
                Report::Analysis(Some((safe, mines, best))) => {
                    analysed = true;
                    self.known_mines.extend(mines);
                    if !safe.is_empty() {
                        self.safe = safe;
                        self.safe.reverse();
                        return self.safe.pop().unwrap_or_else(|| first_hidden(board));
                    }
                    guess = best;
                }
                Report::Pick(p) => return p,
            }
        }
        self.fallbacks += 1;
        if analysed {
            self.strategy_cut += 1;
        } else {
            self.no_analysis += 1;
        }
        guess.unwrap_or_else(|| cheap_guess(board, &self.known_mines))
    }
}

/// Starts the analysis and the strategy of `board` on a thread of their own; the receiver gets
/// their [`Report`]s. Past `deadline` the strategy's searches give up (`set_deadline`), so the
/// thread ends soon after it whether or not anyone still listens.
fn spawn_worker(mut board: Board, deadline: Instant) -> mpsc::Receiver<Report> {
    let (send, receive) = mpsc::channel();
    thread::spawn(move || {
        set_deadline(Some(deadline));
        let Ok(analysis) = analyze(&board) else {
            let _ = send.send(Report::Analysis(None));
            return;
        };
        let best = analysis.best.map(|(p, _)| p);
        let report = (analysis.safe.clone(), analysis.mines.clone(), best);
        let safe_found = !analysis.safe.is_empty();
        if send.send(Report::Analysis(Some(report))).is_err() || safe_found {
            return;
        }
        for &p in &analysis.mines {
            board.set(p, Cell::Flagged);
        }
        let choice = Strategy::REGIONS.choose(&board, &analysis, &mut Calls::default());
        let _ = send.send(Report::Pick(choice.0));
    });
    receive
}

/// A guess that needs no analysis: a hidden cell that is not a known mine, away from every
/// revealed number if there is one, with the fewest hidden neighbours (a corner first: the likeliest
/// to open an area), then the first row-major.
fn cheap_guess(board: &Board, known_mines: &BTreeSet<Pos>) -> Pos {
    let hidden = |p: Pos| board.get(p) == Cell::Hidden && !known_mines.contains(&p);
    let away = |p: Pos| {
        board
            .neighbours(p)
            .all(|q| !matches!(board.get(q), Cell::Revealed(_)))
    };
    let score = |p: Pos| {
        let hidden_neighbours = board.neighbours(p).filter(|&q| hidden(q)).count();
        (!away(p), hidden_neighbours)
    };
    board
        .positions()
        .filter(|&p| hidden(p))
        .min_by_key(|&p| score(p))
        .unwrap_or_else(|| first_hidden(board))
}

/// The first hidden cell, row by row: the last resort.
fn first_hidden(board: &Board) -> Pos {
    board
        .positions()
        .find(|&p| board.get(p) == Cell::Hidden)
        .unwrap_or(Pos::new(0, 0))
}

/// The agent's settings from the command line: `[--budget-ms N] [HEIGHT MINES]`.
///
/// # Errors
/// An unknown option, a value that is not a number, a single positional number, or a height or
/// a number of mines that no board of at most [`MAX_SIDE`] by [`MAX_SIDE`] cells has.
fn parse_args(args: impl Iterator<Item = String>) -> Result<Agent, String> {
    let mut budget = BUDGET;
    let mut numbers = Vec::new();
    let mut args = args;
    while let Some(a) = args.next() {
        if a == "--budget-ms" {
            let ms = args.next().and_then(|v| v.parse().ok());
            budget = Duration::from_millis(ms.ok_or("--budget-ms needs a number of milliseconds")?);
        } else {
            numbers.push(
                a.parse::<usize>()
                    .map_err(|_| format!("unexpected argument {a:?}"))?,
            );
        }
    }
    let (height, mines) = match numbers[..] {
        [] => (16, 99),
        [h, m] if (1..=MAX_SIDE).contains(&h) && m <= MAX_SIDE * h => (h, m),
        [_, _] => {
            return Err(format!(
                "expected HEIGHT from 1 to {MAX_SIDE}, and MINES at most {MAX_SIDE} x HEIGHT"
            ))
        }
        _ => return Err("give both HEIGHT and MINES, or neither".into()),
    };
    Ok(Agent {
        budget,
        height,
        mines,
        known_mines: BTreeSet::new(),
        safe: Vec::new(),
        turns: 0,
        fallbacks: 0,
        no_analysis: 0,
        strategy_cut: 0,
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    for a in &args {
        let text = match a.as_str() {
            "-h" | "--help" => HELP.to_string(),
            "-V" | "--version" => format!("minesweeper-agent {VERSION}\n"),
            _ => continue,
        };
        // A failed write of the help has nowhere to be reported.
        let _ = io::stdout().write_all(text.as_bytes());
        return;
    }
    let mut agent = match parse_args(args.into_iter()) {
        Ok(agent) => agent,
        Err(e) => {
            let usage = HELP.lines().next().unwrap_or_default();
            eprintln!("minesweeper-agent: {e}; {usage}");
            std::process::exit(2);
        }
    };
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = io::stdout().lock();
    while let Some(board) = agent.read(&mut lines) {
        let board = board.unwrap_or_else(|e| {
            eprintln!("minesweeper-agent: {e}");
            std::process::exit(1)
        });
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
    eprintln!(
        "fallbacks {} in {} turns (no analysis {}, strategy cut {})",
        agent.fallbacks, agent.turns, agent.no_analysis, agent.strategy_cut
    );
}
