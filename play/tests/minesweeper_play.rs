//! `minesweeper-play`: the line mode driven through stdin (a game won with the hints, the saved
//! view, the bot against `minesweeper-bot`, flags, chords and the flood fill, bad commands), the
//! statistics, and the full screen's drawings.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::time::Duration;

use cp_puzzles::minesweeper::game::{Config, FirstClick, Level, Status};
use cp_puzzles::minesweeper::{Board, Cell, Pos};
use cp_puzzles_play::minesweeper_play::screen::{self, Action, State};
use cp_puzzles_play::minesweeper_play::{Clock, Play, Setup};
use crossterm::event::KeyModifiers;
use crossterm::event::{Event, KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::Terminal;

use crate::util::bin;

/// A running `minesweeper-play --plain`, answering one command at a time.
struct Driver {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

/// What one command printed: its own lines, then the board and the status line.
#[derive(Debug)]
struct Reply {
    said: Vec<String>,
    board: Board,
    status: String,
}

impl Driver {
    /// Starts the game with `args`; returns the driver and the first board.
    fn start(args: &[&str]) -> (Driver, Reply) {
        let path = env!("CARGO_BIN_EXE_minesweeper-play");
        let mut child = std::process::Command::new(path)
            .arg("--plain")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut driver = Driver {
            child,
            stdin,
            stdout,
        };
        let first = driver.reply();
        (driver, first)
    }

    /// Sends `command` and reads its reply.
    fn send(&mut self, command: &str) -> Reply {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{command}").unwrap();
        stdin.flush().unwrap();
        self.reply()
    }

    /// Reads lines up to the status line; the board is the lines from its header on.
    fn reply(&mut self) -> Reply {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "{lines:?}");
            let line = line.trim_end().to_string();
            if line.starts_with("mines left ") {
                let header = lines
                    .iter()
                    .rposition(|l: &String| {
                        l.split('x').count() == 3 && l.starts_with(|c: char| c.is_ascii_digit())
                    })
                    .expect("a board header");
                let board = Board::parse(&lines[header..].join("\n")).unwrap();
                lines.truncate(header);
                return Reply {
                    said: lines,
                    board,
                    status: line,
                };
            }
            lines.push(line);
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

/// The cells listed under `label` (`safe` or `mines`) in a hint.
fn listed(hint: &[String], label: &str) -> Vec<Pos> {
    let start = hint.iter().position(|l| l.starts_with(label)).unwrap();
    let count: usize = hint[start][label.len() + 1..].parse().unwrap();
    hint[start + 1..=start + count]
        .iter()
        .map(|l| cell(l))
        .collect()
}

/// `x y ...` as a cell.
fn cell(line: &str) -> Pos {
    let mut w = line.split_whitespace().map(|w| w.parse().unwrap());
    Pos::new(w.next().unwrap(), w.next().unwrap())
}

#[test]
fn a_game_is_won_by_revealing_what_the_hint_proves_and_guessing_its_best() {
    let (mut d, mut reply) = Driver::start(&["--level", "beginner", "--seed", "2"]);
    let mut guesses = 0;
    while reply.status.ends_with("playing") {
        let hint = d.send("hint").said;
        let safe = listed(&hint, "safe");
        if safe.is_empty() {
            let best = hint.iter().find(|l| l.starts_with("best ")).unwrap();
            let p = cell(&best[5..]);
            guesses += 1;
            reply = d.send(&format!("reveal {} {}", p.x, p.y));
        } else {
            for p in safe {
                reply = d.send(&format!("reveal {} {}", p.x, p.y));
                assert_eq!(
                    reply.board.get(p),
                    Cell::Revealed(reply.board.get(p).count())
                );
            }
        }
    }
    assert!(reply.status.ends_with(", won"), "{reply:?}");
    assert!(
        reply.said.last().unwrap().starts_with("won in "),
        "{reply:?}"
    );
    // No flag was placed, yet a won game has no mine left.
    assert!(reply.status.starts_with("mines left 0,"), "{reply:?}");
    assert!(guesses < 10);
}

/// The count a revealed cell shows (for the assertion above).
trait Count {
    fn count(self) -> u8;
}

impl Count for Cell {
    fn count(self) -> u8 {
        match self {
            Cell::Revealed(n) => n,
            other => panic!("{other:?} is not revealed"),
        }
    }
}

#[test]
fn a_saved_view_gives_the_same_hint_as_minesweeper() {
    let dir = tempfile::tempdir().unwrap();
    let (mut d, _) = Driver::start(&["--level", "intermediate", "--seed", "4"]);
    let hint = d.send("hint").said;
    for p in listed(&hint, "safe").into_iter().take(3) {
        d.send(&format!("reveal {} {}", p.x, p.y));
    }
    let hint = d.send("hint").said;
    if let Some(p) = listed(&hint, "mines").first() {
        d.send(&format!("flag {} {}", p.x, p.y));
    }
    let file = dir.path().join("view.mine");
    let saved = d.send(&format!("save {}", file.display()));
    assert_eq!(saved.said, [format!("saved to {}", file.display())]);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        saved.board.to_string()
    );
    let ours = d.send("hint").said.join("\n") + "\n";
    let mut theirs = Vec::new();
    cp_puzzles::minesweeper::run(std::fs::File::open(&file).unwrap(), &mut theirs).unwrap();
    assert_eq!(ours, String::from_utf8(theirs).unwrap());
}

/// The words of each bot move and the final line of `minesweeper-bot --show` on `args`.
fn bot_game(args: &[&str]) -> (Vec<String>, String) {
    let out = bin("minesweeper-bot")
        .args(args)
        .args(["--show", "--game", "0"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let moves = text
        .lines()
        .filter_map(|l| l.strip_prefix("move "))
        .map(|l| l.split_once(": ").unwrap().1.to_string())
        .filter(|w| !w.starts_with("first click"))
        .collect();
    let end = text.lines().last().unwrap();
    (moves, end.strip_prefix("game 0: ").unwrap().to_string())
}

#[test]
fn auto_all_plays_the_game_minesweeper_bot_plays() {
    let runs: [&[&str]; 5] = [
        &["--level", "beginner", "--seed", "11"],
        &["--level", "beginner", "--seed", "12"],
        &[
            "--level",
            "beginner",
            "--seed",
            "5",
            "--first-click",
            "opening",
        ],
        &[
            "--width", "8", "--height", "6", "--mines", "10", "--seed", "1",
        ],
        &["--level", "intermediate", "--seed", "2"],
    ];
    let mut results = Vec::new();
    for args in runs {
        let (moves, end) = bot_game(args);
        let (mut d, _) = Driver::start(args);
        let reply = d.send("auto all");
        let (words, last) = reply.said.split_at(reply.said.len() - 1);
        assert_eq!(words, &moves[..], "{args:?}");
        let ours = &last[0];
        if end == "won" {
            assert!(ours.starts_with("won in "), "{args:?}: {ours}");
            assert!(reply.status.ends_with(", won"));
        } else {
            assert_eq!(*ours, end, "{args:?}");
            assert!(reply.status.ends_with(", lost"));
        }
        results.push(end);
    }
    // Both endings are covered.
    assert!(results.iter().any(|r| r == "won"), "{results:?}");
    assert!(results.iter().any(|r| r.starts_with("lost")), "{results:?}");
}

#[test]
fn flags_count_down_the_mines_and_stop_reveals() {
    let (mut d, first) = Driver::start(&["--level", "beginner", "--seed", "3"]);
    assert_eq!(first.status, "mines left 10, time 0 s, playing");
    let hidden = first
        .board
        .positions()
        .find(|&p| first.board.get(p) == Cell::Hidden)
        .unwrap();
    let flag = format!("flag {} {}", hidden.x, hidden.y);
    let r = d.send(&flag);
    assert_eq!(r.board.get(hidden), Cell::Flagged);
    assert!(r.status.starts_with("mines left 9,"));
    let r = d.send(&format!("reveal {} {}", hidden.x, hidden.y));
    assert_eq!(
        r.said,
        ["nothing happened: the cell is revealed or flagged"]
    );
    assert_eq!(r.board.get(hidden), Cell::Flagged);
    let r = d.send(&flag);
    assert_eq!(r.board.get(hidden), Cell::Hidden);
    assert!(r.status.starts_with("mines left 10,"));
    let r = d.send("flag 0 0");
    assert_eq!(r.said, ["nothing happened: the cell is revealed"]);
    // Eleven flags: the counter goes below zero.
    let mut last = r;
    for p in first
        .board
        .positions()
        .filter(|&p| first.board.get(p) == Cell::Hidden)
        .take(11)
    {
        last = d.send(&format!("flag {} {}", p.x, p.y));
    }
    assert!(last.status.starts_with("mines left -1,"), "{}", last.status);
}

#[test]
fn the_first_click_floods_the_area_of_zeros() {
    // Under `opening` the first click at (3, 3) shows 0, so its whole area of zeros and their
    // borders open: every revealed cell is a zero or next to a revealed zero.
    let (_d, first) = Driver::start(&[
        "--level",
        "expert",
        "--first-click",
        "opening",
        "--seed",
        "9",
    ]);
    let b = &first.board;
    assert_eq!(b.get(Pos::new(3, 3)), Cell::Revealed(0));
    let revealed: Vec<Pos> = b
        .positions()
        .filter(|&p| b.get(p) != Cell::Hidden)
        .collect();
    assert!(revealed.len() >= 9, "{b}");
    for &p in &revealed {
        let zero_next = b.neighbours(p).any(|q| b.get(q) == Cell::Revealed(0));
        assert!(b.get(p) == Cell::Revealed(0) || zero_next, "{p:?}\n{b}");
        if b.get(p) == Cell::Revealed(0) {
            assert!(
                b.neighbours(p).all(|q| b.get(q) != Cell::Hidden),
                "{p:?}\n{b}"
            );
        }
    }
}

#[test]
fn a_chord_reveals_around_a_number_whose_mines_are_flagged() {
    let mut chorded = 0;
    for seed in 1..=6 {
        let seed = seed.to_string();
        let (mut d, _) = Driver::start(&["--level", "beginner", "--seed", &seed]);
        let hint = d.send("hint").said;
        let mut board = d.send("board").board;
        for p in listed(&hint, "mines") {
            board = d.send(&format!("flag {} {}", p.x, p.y)).board;
        }
        let around = |p: Pos, c: Cell| board.neighbours(p).filter(|&q| board.get(q) == c).count();
        let Some(p) = board.positions().find(|&p| {
            matches!(board.get(p), Cell::Revealed(n) if n > 0 && around(p, Cell::Flagged) == usize::from(n))
                && around(p, Cell::Hidden) > 0
        }) else {
            continue;
        };
        let r = d.send(&format!("chord {} {}", p.x, p.y));
        assert!(
            r.said.is_empty() || r.said[0].starts_with("won in"),
            "{r:?}"
        );
        assert!(
            r.board
                .neighbours(p)
                .all(|q| r.board.get(q) != Cell::Hidden),
            "{}",
            r.board
        );
        // A chord on a hidden cell does nothing.
        if let Some(h) = r
            .board
            .positions()
            .find(|&q| r.board.get(q) == Cell::Hidden)
        {
            let again = d.send(&format!("chord {} {}", h.x, h.y));
            assert!(
                again.said[0].starts_with("nothing happened: a chord needs"),
                "{again:?}"
            );
        }
        chorded += 1;
    }
    assert!(chorded >= 2, "{chorded}");
}

#[test]
fn bad_commands_get_one_line_and_end_of_input_ends_quietly() {
    let script =
        "dig 1 1\nreveal 1\nreveal 9 0\nflag a b\nhint please\nsave\n\n# a comment\nboard\n";
    let mut bytes = script.as_bytes().to_vec();
    // A line that is not UTF-8 is a bad command too.
    bytes.extend_from_slice(b"fl\xffag 1 1\n");
    let out = bin("minesweeper-play")
        .args(["--plain", "--level", "beginner", "--seed", "3"])
        .write_stdin(bytes)
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(
        errors,
        [
            "error: expected reveal X Y, flag X Y, chord X Y, hint, auto, auto all, save FILE, board, restart or quit, found \"dig\"",
            "error: expected reveal X Y, X the column and Y the row from 0, found \"1\"",
            "error: (9, 0) is off the 9x9 board",
            "error: expected flag X Y, X the column and Y the row from 0, found \"a b\"",
            "error: expected nothing after hint, found \"please\"",
            "error: expected a file name after save",
            "error: expected reveal X Y, flag X Y, chord X Y, hint, auto, auto all, save FILE, board, restart or quit, found \"fl\u{fffd}ag\"",
        ]
    );
    // The first board, and the one `board` printed: nothing else.
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("mines left "))
            .count(),
        2
    );
    assert!(out.get_output().stderr.is_empty());
}

#[test]
fn restart_plays_the_next_game_of_the_seed() {
    let (mut d, _) = Driver::start(&["--level", "beginner", "--seed", "12"]);
    let r = d.send("restart");
    assert_eq!(r.said, ["game 1, seed 12"]);
    // The board after the first click is the bot's first view of its game 1.
    let out = bin("minesweeper-bot")
        .args([
            "--level", "beginner", "--seed", "12", "--show", "--game", "1",
        ])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let first = text.split("\n\n").next().unwrap();
    assert_eq!(
        first.split_once('\n').unwrap().1,
        r.board.to_string().trim_end()
    );
}

#[test]
fn bad_arguments_are_one_line_and_exit_2() {
    for args in [
        &["--width", "3", "--height", "3", "--mines", "9"][..],
        &[
            "--width",
            "5",
            "--height",
            "5",
            "--mines",
            "20",
            "--first-click",
            "opening",
        ],
        &["--width", "0", "--height", "5", "--mines", "1"],
        &["--level", "huge"],
        &["--width", "10"],
        &["--seed", "-1"],
        &["--stats", "--plain"],
    ] {
        let out = bin("minesweeper-play").args(args).assert().code(2);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(err.starts_with("minesweeper-play: "), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn stats_print_from_the_data_directory() {
    let dir = tempfile::tempdir().unwrap();
    let stats = |dir: &std::path::Path| {
        let out = bin("minesweeper-play")
            .arg("--stats")
            .env("XDG_DATA_HOME", dir)
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    assert_eq!(stats(dir.path()), "no games yet\n");
    let file = dir.path().join("cp-puzzles/minesweeper-play.stats");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "expert safe 4 1 93200\nbeginner opening 2 0 -\n").unwrap();
    insta::assert_snapshot!("stats", stats(dir.path()));
}

// The full screen, drawn on ratatui's TestBackend.

/// Game 0 of beginner with seed 3 (won by the bot; the mine at (2, 2) next to the first area),
/// its clock frozen at 42 s.
fn state() -> State {
    state_of_seed(3)
}

/// Game 0 of beginner with `seed`, its clock frozen at 42 s.
fn state_of_seed(seed: u64) -> State {
    let setup = Setup {
        config: Config::level(Level::Beginner),
        rule: FirstClick::Safe,
        seed,
    };
    let mut play = Play::new(setup).unwrap();
    play.set_clock(Clock::frozen(Duration::from_secs(42)));
    State::new(play)
}

/// The screen of `state` on a terminal of 80 x 16.
fn screen(state: &State) -> TestBackend {
    let mut terminal = Terminal::new(TestBackend::new(80, 16)).unwrap();
    terminal.draw(|f| screen::draw(state, f)).unwrap();
    terminal.backend().clone()
}

fn key(c: KeyCode) -> Event {
    Event::Key(KeyEvent::new(c, KeyModifiers::NONE))
}

/// Applies the actions of `events` (on a 80 x 16 screen).
fn press(state: &mut State, events: &[Event]) {
    let setup = state.play.setup();
    for e in events {
        if let Some(a) = screen::action(e, Rect::new(0, 0, 80, 16), &setup) {
            state.apply(a);
        }
    }
}

#[test]
fn snapshot_of_the_start_and_a_flag() {
    let mut s = state();
    insta::assert_snapshot!("screen_start", screen(&s));
    press(
        &mut s,
        &[
            key(KeyCode::Down),
            key(KeyCode::Char('j')),
            key(KeyCode::Right),
            key(KeyCode::Char('l')),
            key(KeyCode::Char('f')),
        ],
    );
    assert_eq!(s.cursor, Pos::new(2, 2));
    assert_eq!(s.play.view().get(Pos::new(2, 2)), Cell::Flagged);
    insta::assert_snapshot!("screen_flag", screen(&s));
}

#[test]
fn snapshot_of_the_hint_overlay() {
    let mut s = state();
    press(
        &mut s,
        &[
            key(KeyCode::Char('H')),
            key(KeyCode::Char('j')),
            key(KeyCode::Char('j')),
            key(KeyCode::Char('l')),
            key(KeyCode::Char('l')),
            key(KeyCode::Char('l')),
        ],
    );
    let overlay = s.overlay.as_ref().unwrap();
    assert_eq!(overlay.probability(Pos::new(2, 2)), Some(1.0));
    assert_eq!(overlay.probability(Pos::new(3, 2)), Some(0.0));
    let back = screen(&s);
    // The heat map: the certain mine red, the safe cell green.
    let bg = |x: u16, y: u16| back.buffer()[(x, y)].bg;
    let origin = screen::board_rect(Rect::new(0, 0, 80, 16), &s.play.setup());
    let at = |p: Pos| (origin.x + 2 + 2 * p.x as u16, origin.y + 1 + p.y as u16);
    let (x, y) = at(Pos::new(2, 2));
    assert_eq!(bg(x, y), screen::heat(1.0));
    let (x, y) = at(Pos::new(3, 2));
    assert_eq!(bg(x, y), screen::heat(0.0));
    insta::assert_snapshot!("screen_hint", back);
}

#[test]
fn snapshot_of_the_help() {
    let mut s = state();
    press(&mut s, &[key(KeyCode::Char('?'))]);
    insta::assert_snapshot!("screen_help", screen(&s));
    press(&mut s, &[key(KeyCode::Char('x'))]);
    assert!(!s.help);
}

#[test]
fn snapshot_of_a_lost_game() {
    let mut s = state();
    let layout = s.play.game().layout().clone();
    let safe_hidden = s
        .play
        .view()
        .positions()
        .find(|&p| s.play.view().get(p) == Cell::Hidden && !layout.is_mine(p))
        .unwrap();
    // A wrong flag, then a click on the mine at (2, 2) with the mouse.
    s.apply(Action::FlagAt(safe_hidden));
    let area = Rect::new(0, 0, 80, 16);
    let origin = screen::board_rect(area, &s.play.setup());
    let click = Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: origin.x + 2 + 2 * 2,
        row: origin.y + 1 + 2,
        modifiers: KeyModifiers::NONE,
    });
    press(&mut s, &[click]);
    assert_eq!(s.play.status(), Status::Lost);
    assert_eq!(s.play.game().hit(), Some(Pos::new(2, 2)));
    let finished = s.finished.take().unwrap();
    assert_eq!((finished.won, finished.botted), (None, false));
    insta::assert_snapshot!("screen_lost", screen(&s));
}

#[test]
fn snapshot_of_a_game_the_bot_won() {
    let mut s = state();
    s.apply(Action::BotAll);
    assert!(s.auto);
    while s.play.status() == Status::Playing {
        s.apply(Action::Tick);
    }
    assert!(!s.auto);
    let finished = s.finished.take().unwrap();
    assert_eq!(
        (finished.won, finished.botted),
        (Some(Duration::from_secs(42)), true)
    );
    insta::assert_snapshot!("screen_won", screen(&s));
}

#[test]
fn snapshot_of_a_game_the_bot_lost_on_a_guess() {
    // Seed 11: `minesweeper-bot` loses its game 0 on the mine at (8, 0).
    let mut s = state_of_seed(11);
    press(&mut s, &[key(KeyCode::Char('A'))]);
    while s.play.status() == Status::Playing {
        s.apply(Action::Tick);
    }
    assert_eq!(s.play.game().hit(), Some(Pos::new(8, 0)));
    assert_eq!(s.last_guess.map(|(p, _)| p), Some(Pos::new(8, 0)));
    insta::assert_snapshot!("screen_bot_lost", screen(&s));
}

#[test]
fn a_right_click_flags_and_a_left_click_on_a_number_chords() {
    let mut s = state();
    let area = Rect::new(0, 0, 80, 16);
    let setup = s.play.setup();
    let origin = screen::board_rect(area, &setup);
    let mouse = |kind, p: Pos| {
        Event::Mouse(MouseEvent {
            kind,
            column: origin.x + 1 + 2 * p.x as u16,
            row: origin.y + 1 + p.y as u16,
            modifiers: KeyModifiers::NONE,
        })
    };
    // (1, 1) shows 1 and its only hidden mine is (2, 2).
    assert_eq!(s.play.view().get(Pos::new(1, 1)), Cell::Revealed(1));
    press(
        &mut s,
        &[mouse(
            MouseEventKind::Down(MouseButton::Right),
            Pos::new(2, 2),
        )],
    );
    assert_eq!(s.play.view().get(Pos::new(2, 2)), Cell::Flagged);
    press(
        &mut s,
        &[mouse(
            MouseEventKind::Down(MouseButton::Left),
            Pos::new(1, 1),
        )],
    );
    assert_eq!(s.play.status(), Status::Playing);
    let view = s.play.view();
    assert!(view
        .neighbours(Pos::new(1, 1))
        .all(|q| view.get(q) != Cell::Hidden));
    // A click off the board does nothing.
    assert_eq!(screen::cell_at(area, &setup, 0, 0), None);
    assert_eq!(screen::cell_at(area, &setup, origin.x, origin.y + 1), None);
}

#[test]
fn snapshot_of_a_terminal_too_small() {
    let s = state();
    let mut terminal = Terminal::new(TestBackend::new(30, 8)).unwrap();
    terminal.draw(|f| screen::draw(&s, f)).unwrap();
    insta::assert_snapshot!("screen_small", terminal.backend());
}

#[test]
fn the_cursor_stays_on_the_board_and_keys_stop_the_bot_and_close_the_help() {
    let mut s = state();
    assert_eq!(s.cursor, Pos::new(0, 0));
    press(&mut s, &[key(KeyCode::Left), key(KeyCode::Up)]);
    assert_eq!(s.cursor, Pos::new(0, 0));
    for _ in 0..12 {
        press(&mut s, &[key(KeyCode::Char('l')), key(KeyCode::Char('j'))]);
    }
    assert_eq!(s.cursor, Pos::new(8, 8));
    press(&mut s, &[key(KeyCode::Char('A'))]);
    assert!(s.auto);
    press(&mut s, &[key(KeyCode::Char('x'))]);
    assert!(!s.auto);
    press(&mut s, &[key(KeyCode::Char('?'))]);
    assert!(s.help);
    // The key that closes the help does nothing else.
    press(&mut s, &[key(KeyCode::Char('f'))]);
    assert!(!s.help);
    assert_eq!(s.play.view().get(Pos::new(8, 8)), Cell::Hidden);
    press(&mut s, &[key(KeyCode::Char('a')), key(KeyCode::Char('r'))]);
    assert_eq!(s.play.index(), 1);
    assert_eq!(s.message, "game 1 of seed 3");
    assert!(!s.play.botted());
    press(&mut s, &[key(KeyCode::Char('q'))]);
    assert!(s.quit);
}

#[test]
fn s_saves_the_view_where_minesweeper_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = state();
    s.save_dir = dir.path().to_path_buf();
    press(&mut s, &[key(KeyCode::Char('s'))]);
    let file = dir.path().join("minesweeper-3-0.mine");
    assert_eq!(s.message, format!("saved to {}", file.display()));
    let text = std::fs::read_to_string(file).unwrap();
    assert_eq!(Board::parse(&text).unwrap(), *s.play.view());
}
