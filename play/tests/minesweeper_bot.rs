//! The `minesweeper-bot` command line: reports, paired comparisons, `--show`, and errors.

use crate::util::bin;

/// The binary's report without its timing line, which is the only one allowed to vary.
fn report_without_timing(args: &[&str]) -> String {
    let out = bin("minesweeper-bot").args(args).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    text.lines()
        .filter(|l| !l.starts_with("ms/game") && !l.starts_with("board"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_cli_gives_the_same_results_whatever_the_threads() {
    let args = ["--level", "beginner", "--games", "200", "--seed", "3"];
    let one = report_without_timing(&[&args[..], &["--threads", "1"]].concat());
    let two = report_without_timing(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    assert!(one.contains("games 200\n"), "{one}");
    assert!(one.contains("win rate "), "{one}");
    assert!(one.contains("guesses/game "), "{one}");
}

#[test]
fn the_cli_compares_two_strategies_on_the_same_games() {
    let args = [
        "--level",
        "beginner",
        "--games",
        "150",
        "--seed",
        "5",
        "--threads",
        "2",
    ];
    let wins = |strategy: &str| {
        let report = report_without_timing(&[&args[..], &["--strategy", strategy]].concat());
        let line = report.lines().find(|l| l.starts_with("wins ")).unwrap();
        line["wins ".len()..].to_string()
    };
    let out = bin("minesweeper-bot")
        .args([&args[..], &["--strategy", "regions", "--compare", "lowest"]].concat())
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.contains(&format!("first wins {} (", wins("regions"))),
        "{text}"
    );
    assert!(
        text.contains(&format!("second wins {} (", wins("lowest"))),
        "{text}"
    );
    assert!(text.contains("sign test z "), "{text}");
}

#[test]
fn the_cli_shows_one_game() {
    let out = bin("minesweeper-bot")
        .args(["--level", "beginner", "--show", "--game", "4"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.starts_with("move 1: first click (0, 0)\n"), "{text}");
    assert!(text.trim_end().ends_with("won") || text.trim_end().ends_with("lost"));
}

#[test]
fn the_cli_rejects_bad_arguments() {
    for args in [
        &["--level", "huge"][..],
        &["--width", "10"],
        &["--width", "0", "--height", "5", "--mines", "1"],
        &["--width", "3", "--height", "3", "--mines", "9"],
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
        &["--games", "x"],
    ] {
        let out = bin("minesweeper-bot").args(args).assert().code(2);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.is_empty(), "{args:?}");
    }
}

#[test]
fn the_cli_moves_the_first_click_and_rejects_one_off_the_board() {
    let args = ["--level", "beginner", "--first-click", "opening"];
    let out = bin("minesweeper-bot")
        .args([&args[..], &["--show", "--first-cell", "2,2"]].concat())
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.starts_with("move 1: first click (2, 2)\n"), "{text}");
    bin("minesweeper-bot")
        .args([&args[..], &["--games", "1", "--first-cell", "9,0"]].concat())
        .assert()
        .code(2);
}
