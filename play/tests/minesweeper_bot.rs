//! The `minesweeper-bot` command line: reports, paired comparisons, `--show`, and errors.

use crate::util::bin;

/// The binary's stdout on `args`, which must succeed.
fn stdout(args: &[&str]) -> String {
    let out = bin("minesweeper-bot").args(args).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// The binary's stderr on `args`, which must fail with `code`: one line naming the program.
fn error(args: &[&str], code: i32) -> String {
    let out = bin("minesweeper-bot").args(args).assert().code(code);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(err.starts_with("minesweeper-bot: "), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    err
}

/// The report with its timing line masked: the only line allowed to vary between runs.
fn masked(report: &str) -> String {
    report
        .lines()
        .map(|l| {
            if l.starts_with("ms/game ") {
                "ms/game [time]"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The binary's report without its first line (which names the threads) and its timing.
fn report_without_timing(args: &[&str]) -> String {
    stdout(args)
        .lines()
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
    let text = stdout(&[&args[..], &["--strategy", "regions", "--compare", "lowest"]].concat());
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
    let text = stdout(&["--level", "beginner", "--show", "--game", "4"]);
    assert!(
        text.starts_with("move 1: first click (0, 0)\n9x9x10\n"),
        "{text}"
    );
    let last = text.lines().last().unwrap();
    assert!(last == "game 4: won" || last.starts_with("game 4: lost on the mine at ("));
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
        &["--first-click", "Safe"],
        &["--first-cell", "3"],
        &["--show", "--compare", "lowest"],
        &["--unknown"],
        &["--threads", "0"],
    ] {
        error(args, 2);
    }
}

#[test]
fn the_cli_rejects_bad_strategies() {
    for (strategy, message) in [
        ("best", "expected lowest, analyzer, progress, endgame, survival, secondary or regions, found \"best\""),
        ("Regions", "found \"Regions\""),
        ("regions:", "expected key=value, found \"\""),
        ("regions:blend", "expected key=value, found \"blend\""),
        ("regions:blend=1.5", "expected blend to be a number from 0 to 1, found \"1.5\""),
        ("regions:endgame=many", "expected endgame to be a whole number up to 1000000, found \"many\""),
        ("regions:endgame=18446744073709551615", "expected endgame to be a whole number up to 1000000, found \"18446744073709551615\""),
        ("regions:forced=all", "expected forced to be none, dead, pseudo or sets, found \"all\""),
        ("regions:candidates=0", "expected candidates to be at least 1, found \"0\""),
        ("lowest:window=0.2", "expected a parameter of lowest (none), found \"window\""),
        ("survival:blend=0.2", "expected a parameter of survival (window), found \"blend\""),
        ("regions:deep=1,deep=2", "expected deep at most once"),
    ] {
        for flag in ["--strategy", "--compare"] {
            let err = error(&["--level", "beginner", "--games", "1", flag, strategy], 2);
            assert!(err.trim_end().ends_with(message), "{strategy}: {err}");
        }
    }
}

#[test]
fn the_cli_reads_strategy_parameters() {
    let text = stdout(&[
        "--level",
        "beginner",
        "--games",
        "20",
        "--threads",
        "1",
        "--strategy",
        "regions:forced=none,next-risk=0.2,endgame=1000",
    ]);
    let first = text.lines().next().unwrap();
    assert!(
        first.contains("strategy regions:window=0.2,endgame=1000,forced=none,"),
        "{first}"
    );
}

#[test]
fn the_cli_moves_the_first_click_and_rejects_one_off_the_board() {
    let args = ["--level", "beginner", "--first-click", "opening"];
    let text = stdout(&[&args[..], &["--show", "--first-cell", "2,2"]].concat());
    assert!(text.starts_with("move 1: first click (2, 2)\n"), "{text}");
    let err = error(
        &[&args[..], &["--games", "1", "--first-cell", "9,0"]].concat(),
        2,
    );
    assert_eq!(
        err,
        "minesweeper-bot: expected a first click on the 9x9 board, found (9, 0)\n"
    );
    let err = error(
        &[&args[..], &["--show", "--first-cell", "0,100"]].concat(),
        2,
    );
    assert!(err.contains("found (0, 100)"), "{err}");
    // 5x5 with 18 mines: the corner's 2x2 block leaves room, the centre's 3x3 block does not.
    let small = [
        "--width",
        "5",
        "--height",
        "5",
        "--mines",
        "18",
        "--first-click",
        "opening",
    ];
    stdout(&[&small[..], &["--games", "2", "--first-cell", "0,0"]].concat());
    let err = error(
        &[&small[..], &["--games", "2", "--first-cell", "2,2"]].concat(),
        2,
    );
    assert!(err.ends_with("expected at most 16 mines for this board and first click, found 18\n"));
}

#[test]
fn a_shown_position_is_a_board_that_minesweeper_reads() {
    // Every view `--show` prints is a `.mine` board: its header and rows parse back as a board
    // with the same text.
    let text = stdout(&["--level", "beginner", "--show", "--game", "2"]);
    for block in text.split("\n\n").filter(|b| b.starts_with("move ")) {
        let board = block.split_once('\n').unwrap().1;
        let parsed = cp_puzzles::minesweeper::Board::parse(board).unwrap();
        assert_eq!(parsed.to_string(), format!("{}\n", board.trim_end()));
    }
}

/// The runs of the report and comparison snapshots.
const SNAPSHOT_RUN: [&str; 8] = [
    "--level",
    "beginner",
    "--games",
    "100",
    "--seed",
    "1",
    "--threads",
    "2",
];

#[test]
fn snapshot_of_a_report() {
    insta::assert_snapshot!("report", masked(&stdout(&SNAPSHOT_RUN)));
}

#[test]
fn snapshot_of_a_comparison() {
    let strategies = ["--strategy", "regions:endgame=1000", "--compare", "lowest"];
    let text = stdout(&[&SNAPSHOT_RUN[..], &strategies].concat());
    insta::assert_snapshot!("comparison", masked(&text));
}

#[test]
fn snapshot_of_a_lost_game() {
    insta::assert_snapshot!(
        "show_lost",
        stdout(&["--level", "beginner", "--show", "--game", "2"])
    );
}

#[test]
fn snapshot_of_a_won_game() {
    let args = [
        "--width", "6", "--height", "4", "--mines", "4", "--show", "--game", "3",
    ];
    insta::assert_snapshot!("show_won", stdout(&args));
}

#[test]
fn snapshot_of_the_help() {
    insta::assert_snapshot!("help", stdout(&["--help"]));
}
