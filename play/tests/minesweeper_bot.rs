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

/// The report with its timing lines masked: the only lines allowed to vary between runs.
fn masked(report: &str) -> String {
    report
        .lines()
        .map(|l| {
            if l.starts_with("ms/game ") {
                "ms/game [time]"
            } else if l.starts_with("generation ms/board ") {
                "generation ms/board [time]"
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

/// The fingerprint built into the program, as its reports write it.
const BUILT: &str = env!("MINESWEEPER_BOT_SOURCES");

/// A text report whose last line, which must be the built sources, is `sources [built]`.
fn built_sources_masked(report: &str) -> String {
    let last = format!("sources {BUILT}");
    let body = report.trim_end().strip_suffix(&last);
    let body = body.unwrap_or_else(|| panic!("the last line should be {last}: {report}"));
    format!("{body}sources [built]")
}

#[test]
fn snapshot_of_a_report() {
    insta::assert_snapshot!(
        "report",
        built_sources_masked(&masked(&stdout(&SNAPSHOT_RUN)))
    );
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
        (&a.replace("\"seed\": 3", "\"seed\": -3"), "invalid value: integer `-3`, expected u64 at line 16"),
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

/// Seconds that JSON cannot carry through a merge are refused: a shard's seconds past 10^12
/// (1e308 was read, and its milliseconds a game, infinite, written as `null`), negative or
/// non-numbers, and shards whose seconds add up past the bound (two of 1e308 wrote
/// `"seconds": null`). What a merge writes reads back.
#[test]
fn merge_refuses_seconds_past_the_bound_and_writes_what_it_reads() {
    let dir = tempfile::tempdir().unwrap();
    let names = write_shards(dir.path(), &[(0, 20, 2), (20, 20, 2)]);
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    let (a, b) = (read(&names[0]), read(&names[1]));
    let with_seconds = |text: &str, seconds: &str| {
        let start = text.find("\"seconds\": ").unwrap() + "\"seconds\": ".len();
        let end = start + text[start..].find(',').unwrap();
        format!("{}{seconds}{}", &text[..start], &text[end..])
    };
    for (seconds, shown) in [
        ("1e308", "1e308"),
        ("1e13", "1e13"),
        ("-1", "-1e0"),
        ("-1e-300", "-1e-300"),
    ] {
        let err = merge_error(dir.path(), &[("big.json", &with_seconds(&a, seconds))]);
        assert_eq!(
            err,
            format!(
                "minesweeper-bot: big.json: expected seconds to be a number from 0 to 1e12, \
                 found {shown}\n"
            )
        );
    }
    let err = merge_error(dir.path(), &[("x.json", &with_seconds(&a, "NaN"))]);
    assert!(err.starts_with("minesweeper-bot: x.json: "), "{err}");
    let err = merge_error(
        dir.path(),
        &[
            ("a.json", &with_seconds(&a, "6e11")),
            ("b.json", &with_seconds(&b, "6e11")),
        ],
    );
    assert_eq!(
        err,
        "minesweeper-bot: b.json: expected the shards' seconds to add up to at most 1e12, found \
         1.2e12\n"
    );
    // At the bound: merged, written and read back, with finite figures.
    std::fs::write(dir.path().join("a.json"), with_seconds(&a, "5e11")).unwrap();
    std::fs::write(dir.path().join("b.json"), with_seconds(&b, "5e11")).unwrap();
    let merged = stdout_in(
        dir.path(),
        &["merge", "--format", "json", "a.json", "b.json"],
    );
    assert!(!merged.contains("null"), "{merged}");
    assert!(merged.contains("\"seconds\": 1000000000000.0"), "{merged}");
    std::fs::write(dir.path().join("merged.json"), &merged).unwrap();
    let again = stdout_in(dir.path(), &["merge", "--format", "json", "merged.json"]);
    assert_eq!(again, merged);
}

/// 120 no-guess beginner games of seed 4 on 2 threads, cut into shards.
const NO_GUESS_RUN: [&str; 9] = [
    "--level",
    "beginner",
    "--no-guess",
    "--games",
    "120",
    "--seed",
    "4",
    "--threads",
    "2",
];

#[test]
fn no_guess_shards_merge_and_refuse_uniform_ones() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |name: &str, first: &str, games: &str, no_guess: bool| {
        let mut args = vec!["--level", "beginner", "--seed", "4", "--format", "json"];
        args.extend(["--first-game", first, "--games", games]);
        if no_guess {
            args.push("--no-guess");
        }
        let text = stdout_in(dir.path(), &args);
        std::fs::write(dir.path().join(name), &text).unwrap();
        text
    };
    let (a_text, b_text) = (
        shard("a.json", "0", "50", true),
        shard("b.json", "50", "70", true),
    );
    let u_text = shard("u.json", "50", "70", false);
    let a: serde_json::Value = serde_json::from_str(&a_text).unwrap();
    let b: serde_json::Value = serde_json::from_str(&b_text).unwrap();
    assert_eq!(a["no_guess"], true);
    let whole = stdout(&NO_GUESS_RUN);
    assert!(
        whole.starts_with("board 9x9/10, no guess, first click safe"),
        "{whole}"
    );
    assert!(whole.contains("\nwins 120\nwin rate 100.00% "), "{whole}");
    assert!(whole.contains("\nguesses/game 0.000\n"), "{whole}");
    assert!(whole.contains("\ngeneration ms/board median "), "{whole}");
    let merged = stdout_in(dir.path(), &["merge", "b.json", "a.json"]);
    assert_eq!(masked(&merged), masked(&whole));
    // The generation times add up: the total, the worst, and the histogram's boards.
    let merged: serde_json::Value = serde_json::from_str(&stdout_in(
        dir.path(),
        &["merge", "--format", "json", "a.json", "b.json"],
    ))
    .unwrap();
    let times = |v: &serde_json::Value, key: &str| v["timing"]["generation"][key].as_u64().unwrap();
    assert_eq!(
        times(&merged, "nanoseconds"),
        times(&a, "nanoseconds") + times(&b, "nanoseconds")
    );
    assert_eq!(
        times(&merged, "worst_nanoseconds"),
        times(&a, "worst_nanoseconds").max(times(&b, "worst_nanoseconds"))
    );
    let boards: u64 = merged["timing"]["generation"]["histogram"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(boards, 120);
    // A uniform shard does not merge with no-guess ones, nor a report that lost its times.
    let err = merge_error(dir.path(), &[("a.json", &a_text), ("u.json", &u_text)]);
    assert_eq!(
        err,
        "minesweeper-bot: u.json: expected no-guess on as in a.json, found off\n"
    );
    let err = merge_error(dir.path(), &[("u.json", &u_text), ("b.json", &b_text)]);
    assert_eq!(
        err,
        "minesweeper-bot: b.json: expected no-guess off as in u.json, found on\n"
    );
    let mut timeless = b.clone();
    timeless["timing"]
        .as_object_mut()
        .unwrap()
        .remove("generation");
    let err = merge_error(
        dir.path(),
        &[("a.json", &a_text), ("t.json", &timeless.to_string())],
    );
    assert_eq!(
        err,
        "minesweeper-bot: t.json: expected timing.generation for no-guess boards\n"
    );
    let mut uneven = b.clone();
    uneven["games"] = 71.into();
    let err = merge_error(
        dir.path(),
        &[("a.json", &a_text), ("n.json", &uneven.to_string())],
    );
    assert_eq!(
        err,
        "minesweeper-bot: n.json: expected the histogram to count 71 boards, found 70\n"
    );
}

/// `minesweeper-play --replay FILE`'s playback: its last board (with its header line `WxHxM`),
/// its last status line, and the whole text.
fn played_back(file: &std::path::Path, height: usize) -> (String, String, String) {
    let out = bin("minesweeper-play")
        .arg("--replay")
        .arg(file)
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let board = lines[lines.len() - 2 - height..lines.len() - 1].join("\n") + "\n";
    (board, lines[lines.len() - 1].to_string(), text.clone())
}

#[test]
fn a_shown_game_saved_as_a_replay_plays_back_to_the_same_end() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.replay");
    let path = file.to_str().unwrap();
    let mut ends = Vec::new();
    // A lost uniform game, a won one, and a no-guess game under the opening rule.
    for args in [
        &["--level", "beginner", "--game", "2", "--seed", "1"][..],
        &["--level", "beginner", "--game", "0", "--seed", "1"],
        &[
            "--level",
            "intermediate",
            "--no-guess",
            "--first-click",
            "opening",
            "--game",
            "5",
        ],
    ] {
        let shown = stdout(&[args, &["--show", "--save-replay", path]].concat());
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            text.starts_with("minesweeper-play replay 1\nboard "),
            "{text}"
        );
        let no_guess = args.contains(&"--no-guess");
        assert!(text.contains(if no_guess {
            "\nno-guess yes\n"
        } else {
            "\nno-guess no\n"
        }));
        assert!(text.contains("\nactions\n0.000 reveal "), "{text}");
        // The last view --show printed (before a blank line and the end) is the board played back.
        let lines: Vec<&str> = shown.lines().collect();
        let height = if args.contains(&"beginner") { 9 } else { 16 };
        let last_view = lines[lines.len() - 3 - height..lines.len() - 2].join("\n") + "\n";
        let (board, status, played) = played_back(&file, height);
        assert_eq!(board, last_view, "{args:?}");
        let end = lines[lines.len() - 1];
        if end.ends_with(": won") {
            assert!(status.contains(", won"), "{status}");
        } else {
            let (_, mine) = end.split_once(": lost on the mine at ").unwrap();
            assert!(
                played.contains(&format!("\nlost on the mine at {mine}\n")),
                "{played}"
            );
            assert!(status.contains(", lost"), "{status}");
        }
        ends.push(end.rsplit(": ").next().unwrap().to_string());
    }
    assert!(ends[0].starts_with("lost"), "{ends:?}");
    assert_eq!(ends[1..], ["won", "won"]);
}

#[test]
fn a_replay_that_cannot_be_written_is_an_error() {
    let err = error(
        &[
            "--level",
            "beginner",
            "--show",
            "--save-replay",
            "/no/such/dir/game.replay",
        ],
        1,
    );
    assert!(
        err.starts_with("minesweeper-bot: cannot write /no/such/dir/game.replay: "),
        "{err}"
    );
    error(&["--save-replay", "game.replay"], 2);
}

/// The layout lines of a replay's text (from `layout` to `actions`).
fn layout_of(replay: &str) -> String {
    let start = replay.find("\nlayout\n").unwrap();
    let end = replay.find("\nactions\n").unwrap();
    replay[start..end].to_string()
}

#[test]
fn a_no_guess_game_is_the_board_minesweeper_play_makes_for_the_seed() {
    let dir = tempfile::tempdir().unwrap();
    let (bot_file, play_file) = (
        dir.path().join("bot.replay"),
        dir.path().join("play.replay"),
    );
    for (game, first, rule) in [("0", "0,0", "safe"), ("3", "5,7", "opening")] {
        stdout(&[
            "--level",
            "intermediate",
            "--no-guess",
            "--seed",
            "9",
            "--first-click",
            rule,
            "--first-cell",
            first,
            "--show",
            "--game",
            game,
            "--save-replay",
            bot_file.to_str().unwrap(),
        ]);
        // minesweeper-play's game i is its i-th game of the seed (r moves to the next).
        let (x, y) = first.split_once(',').unwrap();
        let script = format!(
            "{}reveal {x} {y}\nreplay {}\nquit\n",
            "restart\n".repeat(game.parse().unwrap()),
            play_file.display()
        );
        bin("minesweeper-play")
            .args([
                "--plain",
                "--level",
                "intermediate",
                "--no-guess",
                "--seed",
                "9",
            ])
            .args(["--first-click", rule])
            .write_stdin(script)
            .assert()
            .success();
        let (a, b) = (
            std::fs::read_to_string(&bot_file).unwrap(),
            std::fs::read_to_string(&play_file).unwrap(),
        );
        assert_eq!(layout_of(&a), layout_of(&b), "game {game}");
        assert!(b.contains("\nno-guess yes\n"), "{b}");
    }
}

#[test]
fn a_no_guess_board_that_cannot_be_made_stops_the_run() {
    // 2x2 with 2 mines: the first click shows 2, and the other three cells are alike.
    let board = [
        "--width",
        "2",
        "--height",
        "2",
        "--mines",
        "2",
        "--no-guess",
    ];
    let expected = "no no-guess board of 2x2/2 found in 50 layouts and 0 repairs (at most 8 per \
                    layout): the best play revealed 1 of 2 safe cells\n";
    let err = error(
        &[&board[..], &["--games", "5", "--threads", "1"]].concat(),
        1,
    );
    assert_eq!(err, format!("minesweeper-bot: game 0: {expected}"));
    let err = error(&[&board[..], &["--show", "--game", "3"]].concat(), 1);
    assert_eq!(err, format!("minesweeper-bot: game 3: {expected}"));
}

#[test]
fn a_report_says_which_sources_played_it() {
    assert_eq!(BUILT.len(), 16, "{BUILT}");
    assert!(
        BUILT
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
        "{BUILT}"
    );
    // The fingerprint of the files as they are now, as the build script computes it.
    let root = test_support::workspace();
    let now = test_support::sources::fingerprint(&root, &test_support::sources::FOLDERS).unwrap();
    assert_eq!(format!("{now:016x}"), BUILT);
    // --version shows it, and so do the text and JSON reports.
    let version = stdout(&["--version"]);
    assert_eq!(
        version,
        format!(
            "minesweeper-bot {} (sources {BUILT})\n",
            env!("CARGO_PKG_VERSION")
        )
    );
    let args = ["--level", "beginner", "--games", "10", "--threads", "1"];
    let text = stdout(&args);
    assert!(text.ends_with(&format!("\nsources {BUILT}\n")), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&[&args[..], &["--format", "json"]].concat())).unwrap();
    assert_eq!(json["sources"], BUILT);
}

/// The fingerprint of some other sources (not [`BUILT`]).
fn other_sources() -> String {
    let other = u64::from_str_radix(BUILT, 16).unwrap() ^ 0x0123_4567_89ab_cdef;
    format!("{other:016x}")
}

#[test]
fn merge_refuses_shards_played_by_other_sources() {
    let dir = tempfile::tempdir().unwrap();
    let names = write_shards(dir.path(), &[(0, 20, 1), (20, 20, 1)]);
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    let (a, b) = (read(&names[0]), read(&names[1]));
    let field = format!("\n  \"sources\": \"{BUILT}\",");
    assert!(b.contains(&field), "{b}");
    let other = other_sources();
    let b_other = b.replace(BUILT, &other);
    let err = merge_error(dir.path(), &[("a.json", &a), ("b.json", &b_other)]);
    assert_eq!(
        err,
        format!("minesweeper-bot: b.json: expected sources {BUILT} as in a.json, found {other}\n")
    );
    // The same two shards by one program merge, whatever the order.
    let merged = stdout_in(dir.path(), &["merge", &names[1], &names[0]]);
    assert!(
        merged.ends_with(&format!("\nsources {BUILT}\n")),
        "{merged}"
    );
    let merged: serde_json::Value = serde_json::from_str(&stdout_in(
        dir.path(),
        &["merge", "--format", "json", &names[0], &names[1]],
    ))
    .unwrap();
    assert_eq!(merged["sources"], BUILT);
    // Known and unknown sources do not mix, in either order.
    let b_old = b.replace(&field, "");
    let err = merge_error(dir.path(), &[("a.json", &a), ("old.json", &b_old)]);
    assert_eq!(
        err,
        format!(
            "minesweeper-bot: old.json: expected sources {BUILT} as in a.json, found no sources \
             (a report written before they were recorded)\n"
        )
    );
    let err = merge_error(dir.path(), &[("old.json", &b_old), ("a.json", &a)]);
    assert_eq!(err, known_after_unknown("a.json", "old.json"));
    // A fingerprint that is not 16 lowercase hex digits is not a report's.
    for (bad, message) in [
        (
            b.replace(BUILT, "0123456789ABCDEF"),
            "expected sources as 16 lowercase hex digits, found \"",
        ),
        (
            b.replace(BUILT, &BUILT[..15]),
            "expected sources as 16 lowercase hex digits, found \"",
        ),
        (
            b.replace(&format!("\"{BUILT}\""), "null"),
            "invalid type: null, expected a string",
        ),
    ] {
        let err = merge_error(dir.path(), &[("a.json", &a), ("bad.json", &bad)]);
        assert!(err.starts_with("minesweeper-bot: bad.json: "), "{err}");
        assert!(err.contains(message), "{message}: {err}");
    }
}

/// Two shards written before reports recorded their sources: games 0 to 24 and 25 to 49 of
/// beginner, seed 3, one thread.
const BEFORE_SOURCES: [&str; 2] = [
    "minesweeper-bot-before-sources-0.json",
    "minesweeper-bot-before-sources-1.json",
];

#[test]
fn reports_written_before_sources_merge_only_among_themselves() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let dir = tempfile::tempdir().unwrap();
    let mut counts = [0u64; 4];
    for name in BEFORE_SOURCES {
        let text = std::fs::read_to_string(fixtures.join(name)).unwrap();
        assert!(!text.contains("sources"), "{name}: {text}");
        std::fs::write(dir.path().join(name), &text).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        for (count, key) in counts
            .iter_mut()
            .zip(["games", "wins", "guesses", "analyses"])
        {
            *count += value[key].as_u64().unwrap();
        }
    }
    // They merge, in either order, into a report of unknown sources.
    let [first, second] = BEFORE_SOURCES;
    let text = stdout_in(dir.path(), &["merge", second, first]);
    assert!(text.starts_with("board 9x9/10, first click safe at (0, 0), strategy regions, seed 3, threads 1\ngames 50\n"), "{text}");
    assert!(text.ends_with("\nsources unknown\n"), "{text}");
    let json = stdout_in(dir.path(), &["merge", "--format", "json", first, second]);
    let merged: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(merged["version"], 1);
    assert!(merged.get("sources").is_none(), "{json}");
    let merged_counts =
        ["games", "wins", "guesses", "analyses"].map(|k| merged[k].as_u64().unwrap());
    assert_eq!(merged_counts, counts);
    // The merge merges again; a fresh shard of the same run does not join them.
    std::fs::write(dir.path().join("old.json"), &json).unwrap();
    let again = stdout_in(dir.path(), &["merge", "old.json"]);
    assert_eq!(masked(&again), masked(&text));
    let fresh = stdout_in(
        dir.path(),
        &[
            &WHOLE_RUN[..2],
            &["--seed", "3", "--threads", "1", "--format", "json"],
            &["--first-game", "50", "--games", "10"],
        ]
        .concat(),
    );
    let err = merge_error(dir.path(), &[("old.json", &json), ("new.json", &fresh)]);
    assert_eq!(err, known_after_unknown("new.json", "old.json"));
}

/// `merge`'s message when `file`, whose sources are this build's, follows `first`, a report
/// written before reports recorded their sources.
fn known_after_unknown(file: &str, first: &str) -> String {
    format!(
        "minesweeper-bot: {file}: expected no sources (a report written before they were \
         recorded) as in {first}, found sources {BUILT}\n"
    )
}
