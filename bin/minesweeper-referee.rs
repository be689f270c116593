//! `minesweeper-referee`: CodinGame's Minesweeper as a testlib-convention interactor.
//!
//! `minesweeper-referee [--turn-ms N] [--first-turn-ms N] <input-file> <output-file>`. The input
//! file holds `width height mines seed`. Each turn the referee writes the board (one line per row,
//! cells separated by spaces: `?` hidden, `.` empty, `1`-`8` a count) and reads one line
//! `x y [fx fy]...`: a reveal, then any number of flag pairs that have no effect. The layout is
//! drawn by `cp_puzzles::minesweeper::game` at the first reveal under the `opening` rule.
//!
//! `minesweeper-referee --cases N [--seed S]` prints the lines of N case files instead, one per
//! line: `30 16 99 game_seed(S, i)` for i from 0 (S is 1 by default), the games of
//! `minesweeper-bot --width 30 --height 16 --mines 99 --first-click opening --seed S`.
//!
//! Exit codes (testlib): 0 a complete game played by the rules (output file `score 1` won or
//! `score 0` lost, then the outcome and the turns), 1 WA (off-board cell, revealed cell, time limit,
//! player gone), 2 PE (malformed line), 3 failure (bad arguments or case file).

use std::fs;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cp_puzzles::minesweeper::game::{game_seed, Config, FirstClick, Game, Status};
use cp_puzzles::minesweeper::{Board, Cell, Pos};

/// The referee's options and files.
struct Args {
    input: String,
    output: String,
    turn: Duration,
    first_turn: Duration,
}

/// One case: the board's size, its mines and the layout's seed.
struct Case {
    config: Config,
    seed: u64,
}

/// How a game ended, with the testlib exit code.
enum Verdict {
    Done { won: bool, turns: u32 },
    Wrong(String),
    Presentation(String),
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut files = Vec::new();
    let mut turn = Duration::from_millis(50);
    let mut first_turn = Duration::from_millis(1000);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let ms = |v: Option<&String>| -> Result<Duration, String> {
            v.and_then(|v| v.parse::<u64>().ok())
                .map(Duration::from_millis)
                .ok_or_else(|| format!("{a} needs a number of milliseconds"))
        };
        match a.as_str() {
            "--turn-ms" => turn = ms(it.next())?,
            "--first-turn-ms" => first_turn = ms(it.next())?,
            _ if a.starts_with("--") => return Err(format!("unknown option {a}")),
            _ => files.push(a.clone()),
        }
    }
    match <[String; 2]>::try_from(files) {
        Ok([input, output]) => Ok(Args {
            input,
            output,
            turn,
            first_turn,
        }),
        Err(_) => Err("usage: minesweeper-referee [--turn-ms N] [--first-turn-ms N] <input-file> <output-file>".into()),
    }
}

fn parse_case(text: &str) -> Result<Case, String> {
    let n: Vec<u64> = text
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("case file: {e}"))?;
    let [w, h, m, seed] = <[u64; 4]>::try_from(n)
        .map_err(|_| "case file: expected `width height mines seed`".to_string())?;
    let size = |v: u64| usize::try_from(v).map_err(|e| e.to_string());
    let config =
        Config::new(size(w)?, size(h)?, size(m)?).map_err(|e| format!("case file: {e}"))?;
    config
        .check_rule(FirstClick::Opening)
        .map_err(|e| format!("case file: {e}"))?;
    Ok(Case { config, seed })
}

/// The board as the player sees it: `?` hidden (flags are the player's own), `.` or a count.
fn render(view: Option<&Board>, config: &Config) -> String {
    let mut s = String::new();
    for y in 0..config.height() {
        for x in 0..config.width() {
            if x > 0 {
                s.push(' ');
            }
            s.push(match view.map(|b| b.get(Pos::new(x, y))) {
                Some(Cell::Revealed(0)) => '.',
                Some(Cell::Revealed(n)) => char::from(b'0' + n),
                _ => '?',
            });
        }
        s.push('\n');
    }
    s
}

/// Reads a line's cells: an even number of non-negative integers, at least one pair.
fn parse_line(line: &str) -> Result<Vec<(usize, usize)>, String> {
    let n: Vec<usize> = line
        .split_ascii_whitespace()
        .map(|t| t.parse().map_err(|_| format!("`{t}` is not a coordinate")))
        .collect::<Result<_, _>>()?;
    if n.is_empty() || n.len() % 2 == 1 {
        return Err(format!("expected `x y` pairs, got {} numbers", n.len()));
    }
    Ok(n.chunks(2).map(|c| (c[0], c[1])).collect())
}

fn referee(case: &Case, args: &Args, input: impl BufRead, mut output: impl Write) -> Verdict {
    let config = case.config;
    let mut game: Option<Game> = None;
    let mut lines = input.lines();
    for turn in 1u32.. {
        let board = render(game.as_ref().map(Game::view), &config);
        if output
            .write_all(board.as_bytes())
            .and_then(|()| output.flush())
            .is_err()
        {
            return Verdict::Wrong(format!("turn {turn}: the player stopped reading"));
        }
        let start = Instant::now();
        let line = match lines.next() {
            Some(Ok(line)) => line,
            _ => {
                return Verdict::Wrong(format!("turn {turn}: the player ended before the game did"))
            }
        };
        let limit = if turn == 1 {
            args.first_turn
        } else {
            args.turn
        };
        let took = start.elapsed();
        if took > limit {
            return Verdict::Wrong(format!(
                "turn {turn}: answered in {} ms, over the limit of {} ms",
                took.as_millis(),
                limit.as_millis()
            ));
        }
        let cells = match parse_line(&line) {
            Ok(cells) => cells,
            Err(e) => return Verdict::Presentation(format!("turn {turn}: {e}: `{line}`")),
        };
        if let Some(&(x, y)) = cells
            .iter()
            .find(|&&(x, y)| x >= config.width() || y >= config.height())
        {
            return Verdict::Wrong(format!("turn {turn}: ({x}, {y}) is off the board"));
        }
        let p = Pos::new(cells[0].0, cells[0].1);
        let game = match &mut game {
            Some(game) => game,
            None => match Game::new(config, FirstClick::Opening, p, case.seed) {
                Ok(g) => game.insert(g),
                Err(e) => return Verdict::Wrong(format!("turn {turn}: {e}")),
            },
        };
        if let Cell::Revealed(_) = game.view().get(p) {
            return Verdict::Wrong(format!(
                "turn {turn}: ({}, {}) is already revealed",
                p.x, p.y
            ));
        }
        game.reveal(p);
        match game.status() {
            Status::Playing => {}
            Status::Won => {
                return Verdict::Done {
                    won: true,
                    turns: turn,
                }
            }
            Status::Lost => {
                return Verdict::Done {
                    won: false,
                    turns: turn,
                }
            }
        }
    }
    unreachable!("the turn counter does not run out before the board")
}

/// `--cases N [--seed S]`: the case lines of games 0 to N - 1 of the bot's run seeded with `S`.
///
/// # Errors
/// An option that is not `--cases` or `--seed`, or a value that is not a number.
fn case_lines(args: &[String]) -> Result<String, String> {
    let (mut count, mut seed) = (None, 1);
    for pair in args.chunks(2) {
        let value = |v: Option<&String>| {
            v.and_then(|v| v.parse::<u64>().ok())
                .ok_or_else(|| format!("{} needs a number", pair[0]))
        };
        match pair[0].as_str() {
            "--cases" => count = Some(value(pair.get(1))?),
            "--seed" => seed = value(pair.get(1))?,
            other => return Err(format!("unexpected argument {other} with --cases")),
        }
    }
    let count = count.ok_or("--cases needs a number")?;
    Ok((0..count)
        .map(|i| format!("30 16 99 {}\n", game_seed(seed, i)))
        .collect())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fail = |msg: String| {
        eprintln!("minesweeper-referee: {msg}");
        ExitCode::from(3)
    };
    if args.iter().any(|a| a == "--cases") {
        return match case_lines(&args) {
            Ok(lines) => match io::stdout().lock().write_all(lines.as_bytes()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(format!("cannot write the cases: {e}")),
            },
            Err(e) => fail(e),
        };
    }
    let args = match parse_args(&args) {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    let case = match fs::read_to_string(&args.input).map_err(|e| format!("{}: {e}", args.input)) {
        Ok(text) => match parse_case(&text) {
            Ok(c) => c,
            Err(e) => return fail(e),
        },
        Err(e) => return fail(e),
    };
    let verdict = referee(&case, &args, io::stdin().lock(), io::stdout().lock());
    let (report, code) = match verdict {
        Verdict::Done { won, turns } => {
            let outcome = if won { "won" } else { "lost" };
            (
                format!("score {}\n{outcome} in {turns} turns\n", u8::from(won)),
                0,
            )
        }
        Verdict::Wrong(e) => (format!("score 0\nwrong answer: {e}\n"), 1),
        Verdict::Presentation(e) => (format!("score 0\npresentation error: {e}\n"), 2),
    };
    eprint!(
        "{}",
        report
            .lines()
            .nth(1)
            .map(|l| format!("{l}\n"))
            .unwrap_or_default()
    );
    if let Err(e) = fs::write(&args.output, &report) {
        return fail(format!("{}: {e}", args.output));
    }
    ExitCode::from(code)
}
