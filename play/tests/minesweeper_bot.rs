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
        &["--first-game", "-1"],
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
    insta::assert_snapshot!("merge_help", stdout(&["merge", "--help"]));
}

/// The binary's output on `args` in `dir`, which must succeed.
fn stdout_in(dir: &std::path::Path, args: &[&str]) -> String {
    let out = bin("minesweeper-bot")
        .current_dir(dir)
        .args(args)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// A JSON report without its `timing` object: the part that must not vary between runs.
fn without_timing(json: &str) -> serde_json::Value {
    let mut value: serde_json::Value = serde_json::from_str(json).unwrap();
    let timing = value.as_object_mut().unwrap().remove("timing");
    assert!(timing.is_some(), "{json}");
    value
}

/// The run the shard tests split: 200 beginner games of seed 3 on 2 threads.
const WHOLE_RUN: [&str; 8] = [
    "--level",
    "beginner",
    "--games",
    "200",
    "--seed",
    "3",
    "--threads",
    "2",
];

/// Writes the JSON reports of shards of [`WHOLE_RUN`] (first game, games, threads) to
/// `shardN.json` in `dir`; returns their names.
fn write_shards(dir: &std::path::Path, shards: &[(u64, u64, usize)]) -> Vec<String> {
    let mut names = Vec::new();
    for (i, (first, games, threads)) in shards.iter().enumerate() {
        let (first, games, threads) = (first.to_string(), games.to_string(), threads.to_string());
        let args = [&WHOLE_RUN[..2], &["--seed", "3", "--format", "json"]].concat();
        let range = [
            "--first-game",
            &first,
            "--games",
            &games,
            "--threads",
            &threads,
        ];
        let text = stdout_in(dir, &[&args[..], &range].concat());
        let name = format!("shard{i}.json");
        std::fs::write(dir.join(&name), text).unwrap();
        names.push(name);
    }
    names
}

#[test]
fn four_shards_merged_give_the_report_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let names = write_shards(
        dir.path(),
        &[(0, 37, 2), (37, 63, 2), (100, 60, 2), (160, 40, 2)],
    );
    // In any order, the merge's text is the one run's, but for the time.
    let files = [&names[2], &names[0], &names[3], &names[1]].map(String::as_str);
    let whole = stdout(&WHOLE_RUN);
    let merged = stdout_in(dir.path(), &[&["merge"][..], &files].concat());
    assert_eq!(masked(&merged), masked(&whole));
    assert!(whole.contains("\ngames 200\nwins "), "{whole}");
    // So is its JSON, but for the timing object; and the merged JSON merges again.
    let whole_json = stdout(&[&WHOLE_RUN[..], &["--format", "json"]].concat());
    let merged_json = stdout_in(
        dir.path(),
        &[&["merge", "--format", "json"][..], &files].concat(),
    );
    assert_eq!(without_timing(&merged_json), without_timing(&whole_json));
    std::fs::write(dir.path().join("half.json"), &merged_json).unwrap();
    let again = stdout_in(dir.path(), &["merge", "half.json"]);
    assert_eq!(masked(&again), masked(&whole));
    // The seconds add up.
    let seconds = |json: &str| without_timing_seconds(json);
    let total: f64 = names
        .iter()
        .map(|n| seconds(&std::fs::read_to_string(dir.path().join(n)).unwrap()))
        .sum();
    assert!((seconds(&merged_json) - total).abs() <= 1e-9 * total.max(1.0));
}

/// The `timing.seconds` of a JSON report.
fn without_timing_seconds(json: &str) -> f64 {
    let value: serde_json::Value = serde_json::from_str(json).unwrap();
    value["timing"]["seconds"].as_f64().unwrap()
}

#[test]
fn a_shard_says_which_games_it_played() {
    let args = ["--level", "beginner", "--games", "30", "--threads", "1"];
    let text = stdout(&[&args[..], &["--first-game", "70"]].concat());
    assert!(text.contains("\ngames 30 (game 70 to game 99)\n"), "{text}");
    let text = stdout(&[&args[..], &["--first-game", "70", "--compare", "lowest"]].concat());
    assert!(text.contains("\ngames 30 (game 70 to game 99)\n"), "{text}");
    let text = stdout(&["--level", "beginner", "--games", "0", "--first-game", "5"]);
    assert!(text.contains("\ngames 0 (from game 5)\n"), "{text}");
    // Shards that start past game 0 merge into the run over their range.
    let dir = tempfile::tempdir().unwrap();
    let names = write_shards(dir.path(), &[(100, 30, 2), (130, 40, 2)]);
    let merged = stdout_in(dir.path(), &["merge", &names[1], &names[0]]);
    let whole = stdout(
        &[
            &WHOLE_RUN[..2],
            &["--seed", "3", "--threads", "2"],
            &["--first-game", "100", "--games", "70"],
        ]
        .concat(),
    );
    assert_eq!(masked(&merged), masked(&whole));
    assert!(
        whole.contains("\ngames 70 (game 100 to game 169)\n"),
        "{whole}"
    );
    let json = stdout(&[&args[..], &["--first-game", "70", "--format", "json"]].concat());
    let value = without_timing(&json);
    assert_eq!(
        (value["first_game"].as_u64(), value["games"].as_u64()),
        (Some(70), Some(30))
    );
}

#[test]
fn shards_on_different_threads_merge_with_the_threads_spanned() {
    let dir = tempfile::tempdir().unwrap();
    let names = write_shards(dir.path(), &[(0, 120, 1), (120, 80, 2)]);
    let merged = stdout_in(
        dir.path(),
        &[&["merge"][..], &[&names[0], &names[1]].map(String::as_str)].concat(),
    );
    let whole = stdout(&WHOLE_RUN);
    assert_eq!(
        masked(&merged),
        masked(&whole).replace(", threads 2\n", ", threads 1 to 2\n")
    );
}

/// A merge of `files` (written to `dir` from `(name, text)`) that fails with code 1; its message.
fn merge_error(dir: &std::path::Path, files: &[(&str, &str)]) -> String {
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    let out = bin("minesweeper-bot")
        .current_dir(dir)
        .arg("merge")
        .args(&names)
        .assert()
        .code(1);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(err.starts_with("minesweeper-bot: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

#[test]
fn merge_refuses_shards_that_do_not_make_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let names = write_shards(dir.path(), &[(0, 50, 2), (50, 50, 2), (100, 50, 2)]);
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    let (a, b, c) = (read(&names[0]), read(&names[1]), read(&names[2]));
    // Another setting: each field that must agree.
    for (from, to, message) in [
        (
            "\"width\": 9",
            "\"width\": 10",
            "expected board 9x9/10 as in a.json, found 10x9/10",
        ),
        (
            "\"first_click\": \"safe\"",
            "\"first_click\": \"opening\"",
            "expected first click safe as in a.json, found opening",
        ),
        (
            "\"first_cell\": [\n    0,",
            "\"first_cell\": [\n    1,",
            "expected first cell (0, 0) as in a.json, found (1, 0)",
        ),
        (
            "\"strategy\": \"regions\"",
            "\"strategy\": \"lowest\"",
            "expected strategy regions as in a.json, found lowest",
        ),
        (
            "\"seed\": 3",
            "\"seed\": 4",
            "expected seed 3 as in a.json, found 4",
        ),
    ] {
        let changed = b.replace(from, to);
        assert_ne!(changed, b, "{from}");
        let err = merge_error(dir.path(), &[("a.json", &a), ("b.json", &changed)]);
        assert_eq!(err, format!("minesweeper-bot: b.json: {message}\n"));
    }
    // Overlap and gap, whatever the order of the files.
    let err = merge_error(
        dir.path(),
        &[("b.json", &b), ("a.json", &a), ("again.json", &b)],
    );
    assert!(
        err.contains("expected games from game 100 to follow "),
        "{err}"
    );
    assert!(
        err.ends_with("found games from game 50 (the two overlap)\n"),
        "{err}"
    );
    let err = merge_error(dir.path(), &[("c.json", &c), ("a.json", &a)]);
    assert_eq!(
        err,
        "minesweeper-bot: c.json: expected games from game 50 to follow a.json, found games from \
         game 100 (the two leave a gap)\n"
    );
    // Files that are not reports.
    for (text, message) in [
        ("{\"format\":", "EOF while parsing a value at line 1 column 10"),
        ("[]", "expected a JSON object (a minesweeper-bot report)"),
        ("", "expected a JSON object (a minesweeper-bot report)"),
        ("{\"board\": 9}", "invalid type: integer `9`, expected struct Board at line 1 column 11"),
        (&a.replace("\"seed\": 3", "\"seed\": -3"), "invalid value: integer `-3`, expected u64 at line 15"),
        (&a.replace("\"seed\"", "\"sead\""), "unknown field `sead`"),
        (&a.replace("\"version\": 1", "\"version\": 2"), "expected format \"minesweeper-bot report\" version 1, found \"minesweeper-bot report\" version 2"),
        (&a.replace("\"wins\": ", "\"wins\": 1000"), "expected at most as many wins as games (50), found 1000"),
        (&a.replace("\"strategy\": \"regions\"", "\"strategy\": \"best\""), "found \"best\""),
        (&a.replace("\"mines\": 10", "\"mines\": 90"), "expected at most 80 mines for this board and first click, found 90"),
        (&a.replace("\"first_game\": 0", "\"first_game\": 18446744073709551615"), "expected the games to be numbered below 2^64, found 50 games from game 18446744073709551615"),
    ] {
        let err = merge_error(dir.path(), &[("a.json", &a), ("bad.json", text)]);
        assert!(err.starts_with("minesweeper-bot: bad.json: "), "{err}");
        assert!(err.contains(message), "{message}: {err}");
    }
    std::fs::write(dir.path().join("a.json"), &a).unwrap();
    let out = bin("minesweeper-bot")
        .current_dir(dir.path())
        .args(["merge", "a.json", "none.json"])
        .assert()
        .code(1);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        err.starts_with("minesweeper-bot: none.json: cannot read it: "),
        "{err}"
    );
    // Usage errors.
    for args in [
        &["merge"][..],
        &["merge", "--level", "beginner", "a.json"],
        &["merge", "--format", "xml", "a.json"],
        &["--format", "json", "--show"],
        &["--format", "json", "--compare", "lowest"],
        &["--first-game", "1", "--show"],
        &["--first-game", "18446744073709551615", "--games", "2"],
    ] {
        error(args, 2);
    }
}
