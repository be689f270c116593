//! Interactive suites: a guessing-game interactor (`tests/fixtures/judge/guess/guess.sh`, also
//! under Kattis's convention in `guess-kattis`) against small fake players.

use predicates::prelude::*;

use crate::{judge, judge_in, stdout_of, temp_suite};

/// Binary search over 1..=n, the range the interactor sends first.
const PLAYER: &str = "read n; lo=1; hi=$n; while :; do g=$(((lo+hi)/2)); echo $g; read r; \
                      case $r in higher) lo=$((g+1));; lower) hi=$((g-1));; *) break;; esac; done";

#[test]
fn a_correct_player_is_accepted_and_its_scores_add_up() {
    // The secrets 37, 100 and 1 take 3, 7 and 6 guesses of 10: scores 7, 3 and 4.
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let xml = tmp.path().join("report.xml");
    let xml_arg = xml.to_str().expect("utf-8");
    let out = judge(&[
        "guess",
        "guess-kattis",
        "--cmd",
        PLAYER,
        "-j",
        "2",
        "--junit",
        xml_arg,
    ])
    .assert()
    .success();
    let text = stdout_of(&out);
    assert_eq!(text.matches("AC  [").count(), 6, "{text}");
    assert!(
        text.contains("guess/03\nguess: 3 passed, 0 failed in "),
        "{text}"
    );
    assert!(text.contains("(-j 2), score 14/3\n"), "{text}");
    assert_eq!(text.matches(", score 14/3\n").count(), 2, "{text}");
    let xml = std::fs::read_to_string(&xml).expect("the JUnit file");
    assert!(
        xml.contains("<property name=\"score\" value=\"14/3\"/>"),
        "{xml}"
    );
    assert!(
        xml.contains("<testcase name=\"02\" classname=\"guess\""),
        "{xml}"
    );
    assert!(
        xml.contains("<property name=\"score\" value=\"3\"/>"),
        "{xml}"
    );
    let out = judge(&[
        "guess", "--cmd", PLAYER, "--format", "json", "--filter", "0",
    ])
    .assert()
    .success();
    let v: serde_json::Value = serde_json::from_str(&stdout_of(&out)).expect("one JSON document");
    assert_eq!(v["suites"][0]["score"], 14.0);
    let scores: Vec<f64> = v["suites"][0]["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| c["score"].as_f64().expect("a score"))
        .collect();
    assert_eq!(scores, [7.0, 3.0, 4.0]);
}

#[test]
fn a_wrong_player_gets_the_interactors_message_and_the_last_lines() {
    // Always 1: right only when the secret is 1 (case 03), with all 9 other guesses left.
    judge(&["guess", "--cmd", "while read r; do echo 1; done"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "WA  [",
        ))
        .stdout(predicate::str::contains(
            "] guess/01\n    interactor exit code 1 (wrong answer)\n    no guess left after 10 guesses\n    last lines exchanged:\n",
        ))
        .stdout(predicate::str::contains("      program>    1\n"))
        .stdout(predicate::str::contains("      interactor> higher\n"))
        .stdout(predicate::str::contains(", score 9/3\n"))
        .stdout(predicate::str::ends_with("1 passed, 2 failed\n"));
    // A malformed guess: testlib's code 2, a presentation error.
    judge(&["guess", "--cmd", "read n; echo x", "--filter", "01"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "PE  [",
        ))
        .stdout(predicate::str::contains(
            "    interactor exit code 2 (presentation error)\n    expected a number, found \"x\"\n    last lines exchanged:\n      interactor> 100\n      program>    x\n",
        ));
}

#[test]
fn a_player_the_interactor_rejected_is_stopped_at_once() {
    // The player closes its output, then spins: the interactor rejects it at once (the end of
    // its guesses), which decides the case; the player is stopped then, not left to burn its
    // 3 s of CPU time (the case's time stays under a second), under both conventions.
    let spin = "read n; exec >&-; while :; do :; done";
    for suite in ["guess-kattis", "guess"] {
        let pattern = format!(r"WA  \[ *[0-9]{{1,3}}\.[0-9] ms +[0-9.]+ MiB\] {suite}/01\n");
        let args = [suite, "--cmd", spin, "--time-limit", "3", "--filter", "01"];
        judge(&args)
            .assert()
            .code(1)
            .stdout(predicate::str::is_match(pattern).expect("a pattern"));
    }
    // Stopped at its limit, a player is judged on it, whatever the interactor says of the end
    // of its output afterwards (the program's end counts from the judge's stop).
    for _ in 0..5 {
        judge(&[
            "guess-kattis",
            "--cmd",
            "read n; while :; do :; done",
            "--time-limit",
            "0.2",
            "--filter",
            "01",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("TLE ["));
    }
}

#[test]
fn a_hanging_player_is_stopped_on_time() {
    // The interactor waits for a guess that never comes: the program's limit ends the case, on
    // the wall clock (it sleeps), at the larger of twice the limit and the limit plus 1 s.
    let args = [
        "guess",
        "guess-kattis",
        "--cmd",
        "read n; sleep 30",
        "--time-limit",
        "0.5",
        "--filter",
        "01",
    ];
    judge(&args)
        .assert()
        .code(1)
        .stdout(predicate::str::is_match(
            r" MiB, wall 1[0-9]{3}\.[0-9] ms\] guess/01\n    killed at the wall-time limit of 1\.5 s with ",
        ).expect("a pattern"))
        .stdout(predicate::str::is_match(
            r" MiB, wall 1[0-9]{3}\.[0-9] ms\] guess-kattis/01\n    killed at the wall-time limit of 1\.5 s with ",
        ).expect("a pattern"))
        .stdout(predicate::str::ends_with("0 passed, 2 failed\n"));
}

#[test]
fn a_player_that_never_reads_or_crashes_gets_the_interactors_verdict() {
    for player in ["echo 50", "echo 50; exit 3"] {
        judge(&["guess", "--cmd", player, "--filter", "01"])
            .assert()
            .code(1)
            .stdout(predicate::str::contains(
                "    interactor exit code 1 (wrong answer)\n    the player stopped writing; guesses made: 1\n",
            ));
    }
    // Accepted by the interactor, yet the program failed afterwards.
    judge(&[
        "guess",
        "--cmd",
        &format!("{PLAYER}; exit 4"),
        "--filter",
        "01",
    ])
    .assert()
    .code(1)
    .stdout(predicate::str::contains("RE  ["))
    .stdout(predicate::str::contains("    exit code 4\n"));
}

#[test]
fn kattis_feedback_is_shown_on_failure() {
    judge(&[
        "guess-kattis",
        "--cmd",
        "while read r; do echo 1; done",
        "--filter",
        "02",
    ])
    .assert()
    .code(1)
    .stdout(predicate::str::contains(
        "    interactor exit code 43 (wrong answer)\n    no guess left after 10 guesses\n",
    ));
}

/// A suite `t` of one case whose interactor is `script`, under `codes`.
fn broken_interactor(script: &str, codes: &str) -> tempfile::TempDir {
    let tmp = temp_suite("t", &[("01", b"1\n", None)]);
    let dir = tmp.path().join("t");
    std::fs::write(dir.join("i.sh"), script).expect("interactor");
    let toml = format!("interactor = \"sh i.sh\"\ninteractor_codes = \"{codes}\"\n");
    std::fs::write(dir.join("suite.toml"), toml).expect("toml");
    tmp
}

#[test]
fn an_interactor_that_fails_is_a_setup_error() {
    let crash = broken_interactor("echo broken >&2; kill -SEGV $$\n", "testlib");
    judge_in(crash.path(), &["t", "--cmd", "cat"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with(
            "judge: the interactor \"sh i.sh\" was killed by signal 11: broken",
        ));
    let fail = broken_interactor("echo cannot read the input >&2; exit 3\n", "testlib");
    judge_in(fail.path(), &["t", "--cmd", "cat"])
        .assert()
        .code(2)
        .stderr("judge: the interactor \"sh i.sh\" failed (exit 3): cannot read the input\n");
    let odd = broken_interactor("exit 0\n", "kattis");
    judge_in(odd.path(), &["t", "--cmd", "cat"])
        .assert()
        .code(2)
        .stderr("judge: the interactor \"sh i.sh\" exited with 0, neither 42 (accept) nor 43 (reject)\n");
}

#[test]
fn interactive_suites_refuse_a_comparison_record_and_stress() {
    let tmp = broken_interactor("exit 0\n", "testlib");
    let toml = tmp.path().join("t/suite.toml");
    std::fs::write(&toml, "interactor = \"sh i.sh\"\ncompare = \"tokens\"\n").expect("toml");
    judge_in(tmp.path(), &["t", "--cmd", "cat"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "an interactive suite takes no compare (its interactor judges)",
        ));
    let fixtures = crate::util::package().join("tests/fixtures/judge");
    crate::util::bin("judge")
        .args(["record", "guess", "--cmd", "cat", "--testcases"])
        .arg(fixtures)
        .assert()
        .code(2)
        .stderr("judge: suite \"guess\" is interactive (its interactor judges): judge record does not apply\n");
}

#[test]
fn a_flooding_player_stopped_at_its_limit_is_tle_while_a_slow_interactor_works() {
    // The interactor reads a line a second; the player floods it and is stopped after 1 s. The
    // interactor, still on the flood 5 s later, is stopped too: the verdict is the player's.
    let slow = broken_interactor("while read line; do sleep 1; done\n", "testlib");
    let out = judge_in(
        slow.path(),
        &["t", "--time-limit", "1", "--cmd", "yes query"],
    )
    .output()
    .expect("the judge runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("TLE"), "{stdout}");
}

#[test]
fn an_interactor_that_hangs_is_killed_and_is_a_setup_error() {
    // The program ends at once; the interactor sleeps past its 5 s of grace.
    let hang = broken_interactor("sleep 60\n", "testlib");
    judge_in(hang.path(), &["t", "--cmd", "true"])
        .assert()
        .code(2)
        .stderr("judge: the interactor \"sh i.sh\" did not end within 5 s of the program\n");
}

#[test]
fn under_kattis_codes_whoever_ended_first_decides() {
    // The measuring helper sees both ends on one clock. A program that ends first, badly, is
    // judged on its own end; one that fails after the interactor rejected it gets the rejection.
    judge(&["guess-kattis", "--cmd", "exit 3", "--filter", "01"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("RE  ["))
        .stdout(predicate::str::contains("    exit code 3\n"));
    // It ends well after the interactor: a program that exits the instant the interactor's end
    // closes its input races that end to the helper's clock (a loaded machine can let it win).
    let after = "while read r; do echo 1; done; sleep 0.3; exit 3";
    judge(&["guess-kattis", "--cmd", after, "--filter", "02"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WA  ["))
        .stdout(predicate::str::contains(
            "    interactor exit code 43 (wrong answer)\n",
        ));
    // testlib's order: the interactor's rejection stands over the program's crash.
    judge(&["guess", "--cmd", "exit 3", "--filter", "01"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WA  ["));
}
