//! `minesweeper-play` on the command line: the line mode driven through stdin (the first click
//! anywhere, a game won with the hints, the saved view, the bot against `minesweeper-bot`, flags,
//! chords and the flood fill, bad commands), bad arguments and the statistics. The full screen is in `minesweeper_play_screen`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use cp_puzzles::minesweeper::game::{Config, Layout, Level};
use cp_puzzles::minesweeper::{three_bv, Board, Cell, Pos};

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
    // The first guess, on the all-hidden board, is the first click.
    let (mut d, mut reply) = Driver::start(&["--level", "beginner", "--seed", "2"]);
    let (mut guesses, mut clicks) = (0, 0);
    while reply.status.ends_with("playing") {
        let hint = d.send("hint").said;
        let safe = listed(&hint, "safe");
        if safe.is_empty() {
            let best = hint.iter().find(|l| l.starts_with("best ")).unwrap();
            let p = cell(&best[5..]);
            guesses += 1;
            clicks += 1;
            reply = d.send(&format!("reveal {} {}", p.x, p.y));
        } else {
            for p in safe {
                reply = d.send(&format!("reveal {} {}", p.x, p.y));
                clicks += 1;
                assert!(matches!(reply.board.get(p), Cell::Revealed(_)), "{p:?}");
            }
        }
    }
    assert!(reply.status.contains(", won, 3BV "), "{reply:?}");
    // The score: the 3BV of the layout (the won board's hidden cells are its mines), and the
    // efficiency, 3BV per click (every reveal sent counts, those that changed nothing too).
    let mines = reply
        .board
        .cells()
        .iter()
        .map(|&c| c == Cell::Hidden)
        .collect();
    let layout = Layout::from_mines(Config::level(Level::Beginner), mines);
    let bv = three_bv(&layout);
    let efficiency = format!("efficiency {:.0}%", 100.0 * bv as f64 / clicks as f64);
    // A rate only over a second or more (the status line's time counts whole seconds).
    let rated = !reply.status.contains(", time 0 s,");
    assert!(
        reply.status.contains(&format!(", 3BV {bv}, 3BV/s ")) == rated
            && reply.status.contains(&format!(", 3BV {bv}, efficiency ")) != rated,
        "{reply:?}"
    );
    assert!(
        reply.status.ends_with(&efficiency),
        "{reply:?} {efficiency}"
    );
    assert!(
        reply.said.last().unwrap().starts_with("won in "),
        "{reply:?}"
    );
    // No flag was placed, yet a won game has no mine left.
    assert!(reply.status.starts_with("mines left 0,"), "{reply:?}");
    assert!(guesses < 10);
}

#[test]
fn a_saved_view_gives_the_same_hint_as_minesweeper() {
    let dir = tempfile::tempdir().unwrap();
    let (mut d, _) = Driver::start(&["--level", "intermediate", "--seed", "4"]);
    d.send("reveal 8 8");
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

/// Game 0 of `minesweeper-bot --show` on `args`: the words of each move, the board after the
/// first click, and the final line.
struct BotGame {
    moves: Vec<String>,
    first: Board,
    end: String,
}

fn bot_game(args: &[&str]) -> BotGame {
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
        .collect();
    let first = text
        .split("\n\n")
        .next()
        .unwrap()
        .split_once('\n')
        .unwrap()
        .1;
    let end = text.lines().last().unwrap();
    BotGame {
        moves,
        first: Board::parse(first).unwrap(),
        end: end.strip_prefix("game 0: ").unwrap().to_string(),
    }
}

/// Checks that the bot's moves of `reply` (to `auto all`) and its last line are `bot`'s.
fn assert_same_game(reply: &Reply, bot: &BotGame, moves: &[String], context: &str) {
    let (words, last) = reply.said.split_at(reply.said.len() - 1);
    assert_eq!(words, moves, "{context}");
    let ours = &last[0];
    if bot.end == "won" {
        assert!(ours.starts_with("won in "), "{context}: {ours}");
        // The bot moved: the score has no efficiency.
        assert!(reply.status.contains(", won, 3BV "), "{context}");
        assert!(!reply.status.contains("efficiency"), "{context}");
    } else {
        assert_eq!(*ours, bot.end, "{context}");
        assert!(reply.status.ends_with(", lost"), "{context}");
    }
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
        let bot = bot_game(args);
        let (mut d, _) = Driver::start(args);
        // `auto all` on the all-hidden board: the bot's first click too, at the rule's cell.
        let reply = d.send("auto all");
        assert_same_game(&reply, &bot, &bot.moves, &format!("{args:?}"));
        results.push(bot.end);
    }
    // Both endings are covered.
    assert!(results.iter().any(|r| r == "won"), "{results:?}");
    assert!(results.iter().any(|r| r.starts_with("lost")), "{results:?}");
}

#[test]
fn a_first_click_anywhere_plays_the_game_minesweeper_bot_plays_from_that_cell() {
    // The layout of a game first clicked at (X, Y) is the one `minesweeper-bot --first-cell X,Y`
    // draws: the same board after the first click, and the same bot game from there on.
    let runs: [(&[&str], &str); 4] = [
        (&["--level", "beginner", "--seed", "3"], "4,4"),
        (&["--level", "beginner", "--seed", "11"], "8,8"),
        (
            &[
                "--level",
                "intermediate",
                "--seed",
                "6",
                "--first-click",
                "opening",
            ],
            "12,3",
        ),
        (&["--level", "expert", "--seed", "9"], "29,0"),
    ];
    let mut results = Vec::new();
    for (args, cell) in runs {
        let bot = bot_game(&[args, &["--first-cell", cell]].concat());
        let (mut d, start) = Driver::start(args);
        assert!(start
            .board
            .positions()
            .all(|p| start.board.get(p) == Cell::Hidden));
        let opened = d.send(&format!("reveal {}", cell.replace(',', " ")));
        assert_eq!(opened.board, bot.first, "{args:?} {cell}");
        assert_eq!(
            bot.moves[0],
            format!("first click ({})", cell.replace(',', ", "))
        );
        let reply = d.send("auto all");
        assert_same_game(&reply, &bot, &bot.moves[1..], &format!("{args:?} {cell}"));
        results.push(bot.end);
    }
    assert!(results.iter().any(|r| r == "won"), "{results:?}");
    assert!(results.iter().any(|r| r.starts_with("lost")), "{results:?}");
}

#[test]
fn the_board_starts_hidden_and_only_a_reveal_makes_the_first_click() {
    let (mut d, start) = Driver::start(&["--level", "beginner", "--seed", "3"]);
    assert_eq!(start.board, Board::new(9, 9, 10).unwrap());
    assert_eq!(start.status, "mines left 10, time 0 s, playing");
    let r = d.send("flag 4 4");
    assert_eq!(
        r.said,
        ["nothing happened: flags come after the first click, which places the mines"]
    );
    assert_eq!(r.board, start.board);
    let r = d.send("chord 4 4");
    assert!(
        r.said[0].starts_with("nothing happened: a chord needs"),
        "{r:?}"
    );
    assert_eq!(r.board, start.board);
    // The hint on the all-hidden board is `minesweeper`'s.
    let ours = d.send("hint").said.join("\n") + "\n";
    let mut theirs = Vec::new();
    cp_puzzles::minesweeper::run(start.board.to_string().as_bytes(), &mut theirs).unwrap();
    assert_eq!(ours, String::from_utf8(theirs).unwrap());
    let r = d.send("reveal 4 4");
    assert_eq!(r.board.get(Pos::new(4, 4)), Cell::Revealed(2));
    assert!(r.said.is_empty(), "{r:?}");
}

#[test]
fn flags_count_down_the_mines_and_stop_reveals() {
    let (mut d, _) = Driver::start(&["--level", "beginner", "--seed", "3"]);
    let first = d.send("reveal 0 0");
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
    // Under `opening` the first click, here at (15, 8), shows 0, so its whole area of zeros and
    // their borders open: every revealed cell is a zero or next to a revealed zero.
    let (mut d, _) = Driver::start(&[
        "--level",
        "expert",
        "--first-click",
        "opening",
        "--seed",
        "9",
    ]);
    let first = d.send("reveal 15 8");
    let b = &first.board;
    assert_eq!(b.get(Pos::new(15, 8)), Cell::Revealed(0));
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
        d.send("reveal 0 0");
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
            "error: expected reveal X Y, flag X Y, chord X Y, hint, auto, auto all, save FILE, replay FILE, board, restart or quit, found \"dig\"",
            "error: expected reveal X Y, X the column and Y the row from 0, found \"1\"",
            "error: (9, 0) is off the 9x9 board",
            "error: expected flag X Y, X the column and Y the row from 0, found \"a b\"",
            "error: expected nothing after hint, found \"please\"",
            "error: expected a file name after save",
            "error: expected reveal X Y, flag X Y, chord X Y, hint, auto, auto all, save FILE, replay FILE, board, restart or quit, found \"fl\u{fffd}ag\"",
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
    d.send("reveal 4 4");
    let r = d.send("restart");
    assert_eq!(r.said, ["game 1, seed 12"]);
    assert_eq!(r.board, Board::new(9, 9, 10).unwrap());
    assert_eq!(r.status, "mines left 10, time 0 s, playing");
    // After a first click at (0, 0), the board is the bot's first view of its game 1.
    let r = d.send("reveal 0 0");
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
        // Room for 9 mines with the first click at (3, 3), as `minesweeper-bot` makes it, but
        // only for 7 with the first click at (1, 1).
        &[
            "--width",
            "4",
            "--height",
            "4",
            "--mines",
            "9",
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
    std::fs::write(
        &file,
        "expert safe 4 1 93200\nbeginner opening 2 0 -\nexpert opening-no-guess 3 2 81000 2417\n",
    )
    .unwrap();
    insta::assert_snapshot!("stats", stats(dir.path()));
}

#[test]
fn no_guess_boards_are_won_by_the_bot_without_a_guess() {
    // Expert, first click opening in the middle: the bot plays to the end and never guesses.
    for seed in 0..8 {
        let seed = seed.to_string();
        let args = [
            "--level",
            "expert",
            "--first-click",
            "opening",
            "--no-guess",
            "--seed",
            &seed,
        ];
        let (mut d, reply) = Driver::start(&args);
        assert_eq!(reply.status, "mines left 99, time 0 s, playing, no guess");
        d.send("reveal 14 7");
        let reply = d.send("auto all");
        assert!(
            reply.said.iter().all(|w| !w.starts_with("guess")),
            "{reply:?}"
        );
        assert!(reply.status.contains(", won, no guess, 3BV "), "{reply:?}");
    }
}

/// A game won in under a second has no 3BV/s: the 5x4 game the bot wins in milliseconds showed
/// "3BV/s 7000.00". Its 3BV and its end message are as before.
#[test]
fn a_game_won_in_under_a_second_has_no_rate() {
    let (mut d, _) = Driver::start(&[
        "--width",
        "5",
        "--height",
        "4",
        "--mines",
        "3",
        "--seed",
        "9",
        "--no-guess",
    ]);
    d.send("reveal 0 0");
    let end = d.send("auto all");
    assert!(end.said.last().unwrap().starts_with("won in "), "{end:?}");
    if end.status.contains(", time 0 s,") {
        assert_eq!(end.status, "mines left 0, time 0 s, won, no guess, 3BV 7");
    } else {
        // A machine so busy that the two commands took a second: a rate, and a sane one.
        assert!(end.status.contains(", 3BV 7, 3BV/s "), "{end:?}");
    }
}

/// Once the game is over every action says so, also one off the board (which said "(99, 0) is
/// off the 9x9 board" as if the game went on) and `auto all` (which said nothing); the board
/// stays as it is.
#[test]
fn every_action_after_the_game_ended_says_the_game_is_over() {
    let (mut d, _) = Driver::start(&["--level", "beginner", "--seed", "3"]);
    let end = d.send("auto all");
    assert!(end.status.contains(", won"), "{end:?}");
    // Off the board last: without the change it printed no board, and the reply never ended.
    for action in [
        "reveal 0 0",
        "flag 1 1",
        "auto",
        "auto all",
        "reveal 99 0",
        "flag 0 99",
        "chord 9 9",
    ] {
        let reply = d.send(action);
        assert_eq!(
            reply.said,
            ["nothing happened: the game is over"],
            "{action}"
        );
        assert_eq!(reply.board, end.board, "{action}");
    }
}

#[test]
fn a_replay_saved_in_the_line_mode_plays_back_to_the_same_end() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.replay");
    let (mut d, _) = Driver::start(&["--level", "beginner", "--seed", "3"]);
    assert_eq!(
        d.send(&format!("replay {}", file.display())).said,
        ["error: no replay before the first click"]
    );
    d.send("reveal 5 2");
    d.send("flag 2 2");
    let end = d.send("auto all");
    let saved = d.send(&format!("replay {}", file.display()));
    assert_eq!(saved.said, [format!("replay saved to {}", file.display())]);
    let out = bin("minesweeper-play")
        .arg("--replay")
        .arg(&file)
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("at 0.000 s: reveal 5 2\n"), "{text}");
    // The last board and the status word are the game's.
    let lines: Vec<&str> = text.lines().collect();
    let last_board = lines[lines.len() - 11..lines.len() - 1].join("\n") + "\n";
    assert_eq!(Board::parse(&last_board).unwrap(), end.board);
    let word = |s: &str| s.split(", ").nth(2).unwrap().to_string();
    assert_eq!(word(lines[lines.len() - 1]), word(&end.status));
}

/// A replay whose first click breaks its own first-click rule (on a mine under `first-click
/// safe`) is refused when read, not played.
#[test]
fn a_replay_that_breaks_its_first_click_rule_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mined.replay");
    let fixture = include_str!("fixtures/minesweeper-no-guess-5x4.replay");
    let mined = fixture.replacen("0.000 reveal 0 0", "0.000 reveal 3 0", 1);
    assert_ne!(mined, fixture);
    std::fs::write(&file, mined).unwrap();
    bin("minesweeper-play")
        .arg("--replay")
        .arg(&file)
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "minesweeper-play: {}: line 11: expected a first click on a cell without a mine \
             (first-click safe), found \"0.000 reveal 3 0\"\n",
            file.display()
        ));
}

#[test]
fn a_bad_replay_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.replay");
    std::fs::write(
        &file,
        "minesweeper-play replay 1\nboard 3x1/1\nfirst-click safe\n",
    )
    .unwrap();
    bin("minesweeper-play")
        .arg("--replay")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(format!(
            "minesweeper-play: {}: expected no-guess yes|no, found the end of the file\n",
            file.display()
        ));
}
