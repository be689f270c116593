//! `minesweeper-referee` against scripted players, and `minesweeper-agent` through it.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cp_puzzles::minesweeper::game::{Config, FirstClick, Game, Status};
use cp_puzzles::minesweeper::{Cell, Pos};

use crate::util::{bin, bin_path};

const SEED: u64 = 5;
const FIRST: Pos = Pos::new(3, 3);

/// Runs the referee on case `width height mines SEED` with the player's lines `script`; returns
/// the exit code and the output file.
fn referee(case: (usize, usize, usize), script: &str, options: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in"), dir.path().join("out"));
    std::fs::write(&input, format!("{} {} {} {SEED}\n", case.0, case.1, case.2)).unwrap();
    let run = bin("minesweeper-referee")
        .args(options)
        .arg(&input)
        .arg(&output)
        .write_stdin(script)
        .output()
        .unwrap();
    let report = std::fs::read_to_string(&output).unwrap_or_default();
    (run.status.code().unwrap(), report)
}

const CASE: (usize, usize, usize) = (9, 9, 10);

/// The game the referee draws for `CASE` and a first reveal at `FIRST`.
fn game() -> Game {
    let config = Config::new(CASE.0, CASE.1, CASE.2).unwrap();
    let mut game = Game::new(config, FirstClick::Opening, FIRST, SEED).unwrap();
    game.reveal(FIRST);
    game
}

/// Lines that win `CASE`: the first reveal, then every safe cell still hidden, each with `flags`.
fn winning_script(flags: &str) -> String {
    let mut game = game();
    let mut script = format!("{} {}{flags}\n", FIRST.x, FIRST.y);
    let cells: Vec<Pos> = game.view().positions().collect();
    for p in cells {
        if game.view().get(p) == Cell::Hidden && !game.layout().is_mine(p) {
            game.reveal(p);
            script += &format!("{} {}{flags}\n", p.x, p.y);
        }
    }
    assert_eq!(game.status(), Status::Won);
    script
}

#[test]
fn a_won_game_scores_1() {
    let (code, report) = referee(CASE, &winning_script(""), &[]);
    assert_eq!(code, 0, "{report}");
    assert!(report.starts_with("score 1\nwon in "), "{report}");
}

#[test]
fn flag_pairs_after_the_reveal_are_accepted() {
    let (code, report) = referee(CASE, &winning_script(" 0 0 8 8 1 2"), &[]);
    assert_eq!(code, 0, "{report}");
    assert!(report.starts_with("score 1\n"), "{report}");
}

#[test]
fn a_lost_game_scores_0() {
    let game = game();
    let mine = game
        .view()
        .positions()
        .find(|&p| game.layout().is_mine(p))
        .unwrap();
    let script = format!("3 3\n{} {}\n", mine.x, mine.y);
    let (code, report) = referee(CASE, &script, &[]);
    assert_eq!((code, report.as_str()), (0, "score 0\nlost in 2 turns\n"));
}

#[test]
fn malformed_lines_are_presentation_errors() {
    for line in ["", "3", "3 3 5", "a b", "-1 2", "3,3"] {
        let (code, report) = referee(CASE, &format!("{line}\n"), &[]);
        assert_eq!(code, 2, "{line:?}: {report}");
        assert!(
            report.starts_with("score 0\npresentation error: turn 1: "),
            "{report}"
        );
    }
}

#[test]
fn off_board_cells_are_wrong_answers() {
    for line in ["9 0", "0 9", "3 3 9 9"] {
        let (code, report) = referee(CASE, &format!("{line}\n"), &[]);
        assert_eq!(code, 1, "{line:?}: {report}");
        assert!(report.contains("is off the board"), "{report}");
    }
}

#[test]
fn revealing_a_revealed_cell_is_a_wrong_answer() {
    let (code, report) = referee(CASE, "3 3\n3 3\n", &[]);
    assert_eq!(code, 1, "{report}");
    assert!(
        report.contains("turn 2: (3, 3) is already revealed"),
        "{report}"
    );
}

#[test]
fn a_player_that_stops_early_is_a_wrong_answer() {
    let (code, report) = referee(CASE, "3 3\n", &[]);
    assert_eq!(code, 1, "{report}");
    assert!(
        report.contains("turn 2: the player ended before the game did"),
        "{report}"
    );
}

#[test]
fn a_slow_turn_is_a_wrong_answer() {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in"), dir.path().join("out"));
    std::fs::write(&input, "9 9 10 5\n").unwrap();
    let command = format!(
        "(sleep 1; echo 3 3) | '{}' --first-turn-ms 10 '{}' '{}' > /dev/null 2>&1",
        bin_path("minesweeper-referee"),
        input.display(),
        output.display()
    );
    let status = Command::new("sh").arg("-c").arg(command).status().unwrap();
    let report = std::fs::read_to_string(&output).unwrap();
    assert_eq!(status.code(), Some(1), "{report}");
    assert!(
        report.contains("turn 1: no answer within the limit of 10 ms"),
        "{report}"
    );
}

/// A player that never answers (its stdin held open, nothing written) is caught by
/// `--first-turn-ms`, not left to an outside time limit.
#[test]
fn a_player_that_never_answers_is_a_wrong_answer() {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in"), dir.path().join("out"));
    std::fs::write(&input, "9 9 10 5\n").unwrap();
    let mut child = Command::new(bin_path("minesweeper-referee"))
        .args(["--first-turn-ms", "100"])
        .arg(&input)
        .arg(&output)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let _silent_player = child.stdin.take();
    // A bound on a failure (the referee waiting for good), not a speed goal.
    let give_up = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > give_up {
            child.kill().unwrap();
            panic!("the referee still waits for an answer after 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let report = std::fs::read_to_string(&output).unwrap();
    assert_eq!(status.code(), Some(1), "{report}");
    assert_eq!(
        report,
        "score 0\nwrong answer: turn 1: no answer within the limit of 100 ms\n"
    );
}

/// A line of 100 MB is refused after its first few KiB: the referee runs with 64 MiB of
/// address space, so holding the line whole would fail; the report quotes none of it.
#[test]
fn a_huge_line_is_a_presentation_error_read_in_bounded_memory() {
    use std::os::unix::process::CommandExt;

    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in"), dir.path().join("out"));
    std::fs::write(&input, "9 9 10 5\n").unwrap();
    let mut command = Command::new(bin_path("minesweeper-referee"));
    command
        .arg(&input)
        .arg(&output)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let limit = libc::rlimit {
        rlim_cur: 64 << 20,
        rlim_max: 64 << 20,
    };
    // SAFETY: setrlimit is async-signal-safe, and the closure touches nothing else.
    unsafe {
        command.pre_exec(move || {
            if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let mut child = command.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'1'; 1 << 20];
        // The referee stops reading early: a broken pipe ends the writing.
        for _ in 0..100 {
            if stdin.write_all(&chunk).is_err() {
                return;
            }
        }
        let _ = stdin.write_all(b"\n");
    });
    let status = child.wait().unwrap();
    writer.join().unwrap();
    let report = std::fs::read_to_string(&output).unwrap();
    assert_eq!(status.code(), Some(2), "{report}");
    assert_eq!(
        report,
        "score 0\npresentation error: turn 1: a line longer than 1680 bytes\n"
    );
}

#[test]
fn a_malformed_line_is_quoted_in_short() {
    let line = "x".repeat(500);
    let (code, report) = referee(CASE, &format!("{line}\n"), &[]);
    assert_eq!(code, 2, "{report}");
    let quoted = format!("`{}...`", "x".repeat(80));
    assert!(
        report.ends_with(&format!("is not a coordinate: {quoted}\n")),
        "{report}"
    );
}

#[test]
fn bad_arguments_and_cases_fail_with_code_3() {
    let (code, _) = referee((9, 9, 81), "3 3\n", &[]);
    assert_eq!(code, 3);
    let run = bin("minesweeper-referee").arg("only-one").output().unwrap();
    assert_eq!(run.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&run.stderr).starts_with("minesweeper-referee: usage"));
}

/// A case where some first click leaves no room for the mines (on 3x3, the centre opens every
/// cell) is refused before the game, not blamed on the player; the output file says why, and
/// nothing of an earlier report stays in it.
#[test]
fn an_impossible_case_is_a_failure_with_no_stale_report() {
    for (case, room) in [("3 3 1 1", 0), ("4 4 8 1", 7), ("9 9 73 1", 72)] {
        let dir = tempfile::tempdir().unwrap();
        let (input, output) = (dir.path().join("in"), dir.path().join("out"));
        std::fs::write(&input, format!("{case}\n")).unwrap();
        std::fs::write(&output, "score 1\nwon in 3 turns\n").unwrap();
        let run = bin("minesweeper-referee")
            .arg(&input)
            .arg(&output)
            .write_stdin("1 1\n")
            .output()
            .unwrap();
        let message = format!(
            "case file: expected at most {room} mines, so that a first click anywhere opens \
             its block, found {}",
            case.split(' ').nth(2).unwrap()
        );
        assert_eq!(run.status.code(), Some(3), "{case}");
        assert_eq!(
            String::from_utf8_lossy(&run.stderr),
            format!("minesweeper-referee: {message}\n")
        );
        let report = std::fs::read_to_string(&output).unwrap();
        assert_eq!(report, format!("failure: {message}\n"));
    }
    // A case that leaves room for every first click is played: 3x3 with no mine, 4x4 with 7.
    let (code, report) = referee((4, 4, 7), "1 1\n", &[]);
    assert!(code == 0 || code == 1, "{report}");
    assert!(!report.contains("failure"), "{report}");
    // Other bad case files: not four numbers, too long, no room at all.
    for text in ["9 9 10\n", "9 9 10 5 7\n", "a b c d\n", &" ".repeat(2000)] {
        let dir = tempfile::tempdir().unwrap();
        let (input, output) = (dir.path().join("in"), dir.path().join("out"));
        std::fs::write(&input, text).unwrap();
        let code = bin("minesweeper-referee")
            .arg(&input)
            .arg(&output)
            .write_stdin("3 3\n")
            .output()
            .unwrap()
            .status
            .code();
        assert_eq!(code, Some(3), "{text:?}");
        let report = std::fs::read_to_string(&output).unwrap();
        assert!(report.starts_with("failure: "), "{report}");
    }
}

#[test]
fn the_referee_and_the_agent_print_their_help_and_version() {
    for (name, usage) in [
        (
            "minesweeper-referee",
            "usage: minesweeper-referee [--turn-ms N]",
        ),
        (
            "minesweeper-agent",
            "usage: minesweeper-agent [--budget-ms N]",
        ),
    ] {
        for args in [&["--help"][..], &["-h"], &["--turn-ms", "5", "--help"]] {
            let run = bin(name).args(args).output().unwrap();
            assert_eq!(run.status.code(), Some(0), "{name} {args:?}");
            let out = String::from_utf8_lossy(&run.stdout);
            assert!(out.starts_with(usage), "{name} {args:?}: {out}");
            assert!(out.contains("Exit status"), "{out}");
            assert!(run.stderr.is_empty());
        }
        for flag in ["--version", "-V"] {
            let run = bin(name).arg(flag).output().unwrap();
            assert_eq!(run.status.code(), Some(0), "{name} {flag}");
            let expected = format!("{name} {}\n", env!("CARGO_PKG_VERSION"));
            assert_eq!(String::from_utf8_lossy(&run.stdout), expected);
        }
    }
}

#[test]
fn the_agent_plays_complete_games() {
    for seed in 1..=3 {
        let (code, report, stderr) = agent_game(seed, &[]);
        assert_eq!(code, Some(0));
        assert!(report.starts_with("score "), "{report}");
        assert!(stderr.starts_with("fallbacks "), "{stderr}");
    }
}

/// With all the time it wants the agent never falls back; with none it never waits for an
/// analysis, plays the cheap guess on every turn after the first, and still plays by the rules.
#[test]
fn the_agent_falls_back_on_its_deadline() {
    let (code, report, stderr) = agent_game(7, &["--budget-ms", "20000"]);
    assert_eq!(code, Some(0), "{report}");
    assert!(stderr.starts_with("fallbacks 0 in "), "{stderr}");
    assert!(
        stderr.ends_with("(no analysis 0, strategy cut 0)\n"),
        "{stderr}"
    );
    for seed in 7..=9 {
        let (code, report, stderr) = agent_game(seed, &["--budget-ms", "0"]);
        assert_eq!(code, Some(0), "{report}");
        let turns: u32 = report
            .lines()
            .nth(1)
            .and_then(|l| l.split(' ').nth(2))
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("turns in {report}"));
        let cheap = turns - 1;
        assert_eq!(
            stderr,
            format!("fallbacks {cheap} in {turns} turns (no analysis {cheap}, strategy cut 0)\n")
        );
    }
}

/// A height or a number of mines that no board holds is a usage error before any allocation:
/// `0 0` once indexed an empty board, `99999999999 3` reserved 2.4 TB of rows.
#[test]
fn the_agent_rejects_bad_arguments() {
    for args in [
        &["--budget-ms"][..],
        &["--budget-ms", "x"],
        &["16"],
        &["--fast"],
        &["0", "0"],
        &["0", "5"],
        &["99999999999", "3"],
        &["1001", "3"],
        &["16", "16001"],
        &["16", "99999999999999999999"],
    ] {
        let out = Command::new(bin_path("minesweeper-agent"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with("minesweeper-agent: ") && stderr.lines().count() == 1);
    }
}

/// A board that cannot hold the mines, or a first row with no cell, ends the agent with a clear
/// error (exit 1), not a silent end of the game.
#[test]
fn the_agent_refuses_a_board_of_an_impossible_size() {
    for (args, board) in [(["1", "5"], "? ?\n"), (["2", "1"], "\n\n")] {
        let run = bin("minesweeper-agent")
            .args(args)
            .write_stdin(board)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(
            stderr.starts_with("minesweeper-agent: a board must be 1 to 1000 cells wide"),
            "{stderr}"
        );
        assert!(run.stdout.is_empty());
    }
}

/// Plays game `seed` (30x16, 99 mines) between the referee (loose limits) and the agent with
/// `args`: the referee's exit code, its report, and the agent's stderr.
fn agent_game(seed: u64, args: &[&str]) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in"), dir.path().join("out"));
    std::fs::write(&input, format!("30 16 99 {seed}\n")).unwrap();
    let mut referee = Command::new(bin_path("minesweeper-referee"))
        .args(["--turn-ms", "5000", "--first-turn-ms", "5000"])
        .arg(&input)
        .arg(&output)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let agent = Command::new(bin_path("minesweeper-agent"))
        .args(args)
        .stdin(referee.stdout.take().unwrap())
        .stdout(referee.stdin.take().unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let agent = agent.wait_with_output().unwrap();
    let code = referee.wait().unwrap().code();
    let report = std::fs::read_to_string(&output).unwrap();
    (
        code,
        report,
        String::from_utf8_lossy(&agent.stderr).into_owned(),
    )
}

/// `--cases 50 --seed 1` writes the suite's case files, line for line.
#[test]
fn the_referee_writes_the_suites_cases() {
    let out = Command::new(bin_path("minesweeper-referee"))
        .args(["--cases", "50", "--seed", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let suite = crate::util::root().join("testcases/codingame-minesweeper");
    let expected: String = (1..=50)
        .map(|i| std::fs::read_to_string(suite.join(format!("{i:02}.in"))).unwrap())
        .collect();
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    let bad = Command::new(bin_path("minesweeper-referee"))
        .args(["--cases", "x"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(3));
}
