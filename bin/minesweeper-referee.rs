//! `minesweeper-referee`: CodinGame's Minesweeper as a testlib-convention interactor.
//!
//! `minesweeper-referee [--turn-ms N] [--first-turn-ms N] <input-file> <output-file>` (`--help`
//! says it all, `--version` prints the version). The input
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
use std::io::{self, BufRead, Read, Write};
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use cp_puzzles::minesweeper::game::{self, game_seed, Config, FirstClick, Game, Status};
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

/// The usage line, also printed on bad arguments.
const USAGE: &str =
    "minesweeper-referee [--turn-ms N] [--first-turn-ms N] <input-file> <output-file>";

/// The body of `--help`, after the usage lines.
const HELP: &str = "\
Referees one game of CodinGame's Minesweeper, as a testlib interactor, against the player on
stdin and stdout. The input file holds `width height mines seed`. Each turn the referee writes
the board (one row a line, cells separated by spaces: `?` hidden, `.` empty, `1`-`8` a count)
and reads one line `x y [fx fy]...`: a reveal, then flag pairs that have no effect. The first
reveal opens an area. The output file gets `score 1` (won) or `score 0`, then the outcome.
With --cases, it prints the lines of N case files instead: `30 16 99 SEED` for games 0 to N - 1
of the bot's run seeded with S (1 by default).

Options:
  --turn-ms N        the time limit of each turn after the first, in ms (default 50)
  --first-turn-ms N  the time limit of the first turn, in ms (default 1000)
  --cases N          print N case lines instead
  --seed S           with --cases, the run's seed
  -h, --help         print this help and exit
  -V, --version      print the version and exit

Exit status (testlib): 0 a game played to its end by the rules, 1 wrong answer (off-board or
revealed cell, time limit, player gone), 2 presentation error (malformed line), 3 failure (bad
arguments or case file)
";

/// What the first of `--help`/`-h` and `--version`/`-V` among `args` asks to print, if any.
fn help_or_version(args: &[String]) -> Option<String> {
    args.iter().find_map(|a| match a.as_str() {
        "--help" | "-h" => Some(format!(
            "usage: {USAGE}\n       minesweeper-referee --cases N [--seed S]\n\n{HELP}"
        )),
        "--version" | "-V" => Some(format!(
            "minesweeper-referee {}\n",
            env!("CARGO_PKG_VERSION")
        )),
        _ => None,
    })
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
        Err(_) => Err(format!("usage: {USAGE}")),
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
    // The player may click anywhere first: the case must leave room for the mines around the
    // cell whose opening is the widest (a whole 3x3 block when the board has one).
    let widest = Pos::new(1.min(config.width() - 1), 1.min(config.height() - 1));
    config
        .check_first(FirstClick::Opening, widest)
        .map_err(|e| match e {
            game::Error::TooManyMines { mines, room } => format!(
                "case file: expected at most {room} mines, so that a first click anywhere \
                 opens its block, found {mines}"
            ),
            e => format!("case file: {e}"),
        })?;
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

/// One answer of the player, as the reader thread saw it.
enum Answer {
    /// A line, without its `\n` or `\r\n`; bytes that are not UTF-8 are replaced.
    Line(String),
    /// A line longer than the limit: what was read of it is dropped.
    TooLong,
    /// The end of the input, or a failed read.
    End,
}

/// The longest line the referee reads from the player on `config`, its end included: twice the
/// longest valid line with single spaces (a reveal and a flag on every cell), and 1 KiB more.
fn line_limit(config: &Config) -> usize {
    let digits = config.width().max(config.height()).to_string().len();
    2 * (config.cells() + 1) * 2 * (digits + 1) + 1024
}

/// Reads one line of at most `limit` bytes (its end included) from `input`: memory stays within
/// `limit` and one buffer, however long the line.
fn read_line(input: &mut impl BufRead, limit: usize) -> Answer {
    let mut line = Vec::new();
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return Answer::End,
        };
        if buffer.is_empty() {
            return if line.is_empty() {
                Answer::End
            } else {
                Answer::Line(String::from_utf8_lossy(&line).into_owned())
            };
        }
        let end = buffer.iter().position(|&b| b == b'\n');
        let take = end.map_or(buffer.len(), |i| i + 1);
        if line.len() + take > limit {
            return Answer::TooLong;
        }
        line.extend_from_slice(&buffer[..take]);
        input.consume(take);
        if end.is_some() {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Answer::Line(String::from_utf8_lossy(&line).into_owned());
        }
    }
}

/// Reads the player's lines on a thread of its own, so that a turn's time limit holds even
/// when the player never answers; stops after the first answer that is not a line. At most one
/// line waits to be taken: a player that writes ahead is not read ahead without bound.
fn spawn_reader(mut input: impl BufRead + Send + 'static, limit: usize) -> Receiver<Answer> {
    let (send, receive) = mpsc::sync_channel(1);
    thread::spawn(move || loop {
        let answer = read_line(&mut input, limit);
        let last = !matches!(answer, Answer::Line(_));
        if send.send(answer).is_err() || last {
            return;
        }
    });
    receive
}

/// At most this many characters of a malformed line are quoted in the report.
const QUOTED: usize = 80;

/// `line` as the report quotes it: its first [`QUOTED`] characters, then `...` if it is longer.
fn quoted(line: &str) -> String {
    match line.char_indices().nth(QUOTED) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line.to_string(),
    }
}

fn referee(
    case: &Case,
    args: &Args,
    answers: &Receiver<Answer>,
    mut output: impl Write,
) -> Verdict {
    let config = case.config;
    let mut game: Option<Game> = None;
    let limit_bytes = line_limit(&config);
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
        let limit = if turn == 1 {
            args.first_turn
        } else {
            args.turn
        };
        let line = match answers.recv_timeout(limit) {
            Ok(Answer::Line(line)) => line,
            Ok(Answer::TooLong) => {
                return Verdict::Presentation(format!(
                    "turn {turn}: a line longer than {limit_bytes} bytes"
                ))
            }
            Err(RecvTimeoutError::Timeout) => {
                return Verdict::Wrong(format!(
                    "turn {turn}: no answer within the limit of {} ms",
                    limit.as_millis()
                ))
            }
            Ok(Answer::End) | Err(RecvTimeoutError::Disconnected) => {
                return Verdict::Wrong(format!("turn {turn}: the player ended before the game did"))
            }
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
            Err(e) => {
                let line = quoted(&line);
                return Verdict::Presentation(format!("turn {turn}: {e}: `{line}`"));
            }
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

/// Reads and checks the case file at `path`.
///
/// # Errors
/// An unreadable file, a line that is not four numbers, or a case the referee cannot play.
fn read_case(path: &str) -> Result<Case, String> {
    let file = fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut text = String::new();
    // A case is one short line: more than 1 KiB is not a case, and is not read whole.
    file.take(CASE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| format!("{path}: {e}"))?;
    if text.len() as u64 > CASE_BYTES {
        return Err(format!(
            "{path}: expected a case of at most {CASE_BYTES} bytes"
        ));
    }
    parse_case(&text)
}

/// The largest case file read.
const CASE_BYTES: u64 = 1024;

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
    if let Some(text) = help_or_version(&args) {
        return match io::stdout().lock().write_all(text.as_bytes()) {
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                eprintln!("minesweeper-referee: cannot write the output: {e}");
                ExitCode::from(1)
            }
            _ => ExitCode::SUCCESS,
        };
    }
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
    let case = match read_case(&args.input) {
        Ok(case) => case,
        Err(e) => {
            // No stale report is left behind: the output file says why there is no game.
            let _ = fs::write(&args.output, format!("failure: {e}\n"));
            return fail(e);
        }
    };
    let answers = spawn_reader(io::BufReader::new(io::stdin()), line_limit(&case.config));
    let verdict = referee(&case, &args, &answers, io::stdout().lock());
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
