//! `judge stress`: finding a failure, shrinking it (with a validator, a reference that rejects
//! inputs, a crash that needs a large input), and saving the minimal case.

use predicates::prelude::*;

use crate::util;

/// `judge stress ARGS...`.
fn stress(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = util::bin("judge");
    cmd.arg("stress").args(args);
    cmd
}

/// The generator of 3 to 10 lines of one number each (0 to 149).
fn lines() -> String {
    format!("sh {}", util::stress_fixture("gen_lines.sh"))
}

/// Crashes (exit 3) on 5 lines or more, else prints their sum.
const CRASHES_ON_FIVE: &str = "awk '{ s += $1 } END { if (NR >= 5) exit 3; print s }'";

#[test]
fn a_wrong_minimax_is_found_shrunk_and_saved() {
    test_support::require_tool("python3");
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let testcases = tmp.path().display().to_string();
    let wrong = format!("python3 {}", util::stress_fixture("minimax_strict.py"));
    let reference = util::minimax().display().to_string();
    let gen = format!("python3 {}", util::stress_fixture("gen_minimax.py"));
    let out = stress(&[
        "--gen",
        &gen,
        "--cmd",
        &wrong,
        "--ref",
        &reference,
        "--save",
        "mm",
        "--testcases",
        &testcases,
        "-j",
        "2",
    ])
    .assert()
    .code(1)
    .stdout(predicate::str::contains("shrunk from"))
    .stdout(predicate::str::contains("saved mm/01.in and mm/01.out"));
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let input = std::fs::read_to_string(tmp.path().join("mm/01.in")).expect("the saved input");
    let tokens = input.split_whitespace().count();
    assert!(tokens <= 8, "{tokens} tokens:\n{input}\n{stdout}");
    // The saved case fails the wrong program and passes ours.
    crate::judge_in(tmp.path(), &["mm", "--cmd", &wrong])
        .assert()
        .code(1);
    crate::judge_in(tmp.path(), &["mm", "--cmd", &reference])
        .assert()
        .code(0);
}

#[test]
fn a_crash_on_large_inputs_keeps_its_size_while_shrinking() {
    stress(&["--gen", &lines(), "--cmd", CRASHES_ON_FIVE, "--count", "50"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(": RE ("))
        .stdout(predicate::str::contains(
            "input:\n    0\n    0\n    0\n    0\n    0\ngot:",
        ))
        .stdout(predicate::str::contains("verdict: RE\n    exit code 3"));
}

/// Stress `CRASHES_ON_FIVE` with `validator` and `extra` options: the minimal input is five
/// lines of `n`.
fn shrinks_to_five_lines_of(n: u32, validator: &str, extra: &[&str]) {
    let gen = lines();
    let mut args = vec![
        "--gen",
        &gen,
        "--cmd",
        CRASHES_ON_FIVE,
        "--validator",
        validator,
    ];
    args.extend_from_slice(extra);
    stress(&args)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!(
            "input:\n{}",
            format!("    {n}\n").repeat(5)
        )));
}

#[test]
fn a_validator_keeps_the_shrunk_input_valid() {
    // Every number must be at least 1: they shrink to 1, not 0.
    shrinks_to_five_lines_of(1, "awk '$1 < 1 { bad = 1 } END { exit bad ? 1 : 0 }'", &[]);
    // Kattis's validators accept with 42.
    let kattis = "awk '$1 < 2 { bad = 1 } END { exit bad ? 1 : 42 }'";
    shrinks_to_five_lines_of(2, kattis, &["--validator-accepts", "42"]);
}

#[test]
fn inputs_the_reference_rejects_are_skipped_and_never_kept() {
    // The reference rejects numbers below 10; the program is wrong from 3 lines on.
    let reference = "awk '$1 < 10 { exit 1 } { s += $1 } END { print s }'";
    let wrong = "awk '{ s += $1 } END { print (NR >= 3 ? s + 1 : s) }'";
    stress(&["--gen", &lines(), "--cmd", wrong, "--ref", reference])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "input:\n    10\n    10\n    10\nexpected (the reference):\n    30\ngot:\n    31\n",
        ));
    // A right program: no failure, and the rejected rounds are counted.
    let right = "awk '{ s += $1 } END { print s }'";
    stress(&[
        "--gen",
        &lines(),
        "--cmd",
        right,
        "--ref",
        reference,
        "--count",
        "20",
        "-j",
        "2",
    ])
    .assert()
    .code(0)
    .stdout(predicate::str::starts_with(
        "no failure in 20 cases (seeds 1 to 20), ",
    ))
    .stdout(predicate::str::contains(
        "rejected (first: the reference exited with code 1)",
    ));
}

#[test]
fn a_failing_generator_or_a_bad_option_is_a_setup_error() {
    stress(&["--gen", "false", "--cmd", "cat"])
        .assert()
        .code(2)
        .stderr("judge: the generator exited with code 1 on seed 1\n");
    stress(&["--gen", "echo", "--cmd", "no-such-program-here"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("command not found"));
    stress(&[
        "--gen",
        "echo",
        "--cmd",
        "cat",
        "--suite",
        "nosuch",
        "--testcases",
        ".",
    ])
    .assert()
    .code(2)
    .stderr(predicate::str::contains("no suite named \"nosuch\""));
}

/// Each of these once did harm: `--shrink-time 0` was refused only after a failure was found,
/// `--save ..` wrote beside the suites, every input rejected (a reference that always crashes)
/// exited 0 as "no failure", and `--save` took over an orphan `NN.out`.
#[test]
fn bad_stress_settings_are_refused_before_anything_runs_or_is_written() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let testcases = tmp.path().display().to_string();
    let right = "awk '{ s += $1 } END { print s }'";
    stress(&["--gen", &lines(), "--cmd", right, "--shrink-time", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--shrink-time must be a positive number",
        ));
    for bad in ["", ".", "..", "a/b"] {
        stress(&[
            "--gen",
            &lines(),
            "--cmd",
            right,
            "--testcases",
            &testcases,
            "--save",
            bad,
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("a suite is a folder name"));
    }
    stress(&[
        "--gen",
        &lines(),
        "--cmd",
        right,
        "--ref",
        "exit 3",
        "--count",
        "5",
    ])
    .assert()
    .code(2)
    .stderr(predicate::str::contains(
        "every one of the 5 inputs was rejected",
    ));
    // An orphan answer 01.out and a stale 02.exit: the saved case is 03.
    let suite = tmp.path().join("s");
    std::fs::create_dir(&suite).expect("a suite folder");
    std::fs::write(suite.join("01.out"), "orphan\n").expect("01.out");
    std::fs::write(suite.join("02.exit"), "1\n").expect("02.exit");
    stress(&[
        "--gen",
        &lines(),
        "--cmd",
        CRASHES_ON_FIVE,
        "--ref",
        right,
        "--testcases",
        &testcases,
        "--save",
        "s",
    ])
    .assert()
    .code(1)
    .stdout(predicate::str::contains("saved s/03.in and s/03.out"));
    assert_eq!(
        std::fs::read_to_string(suite.join("01.out")).unwrap(),
        "orphan\n"
    );
    assert!(!suite.join("01.in").exists() && !suite.join("02.in").exists());
}

/// With several rounds at once, the error reported is that of the first seed, as with `-j 1`:
/// seed 3's generator fails at once, seed 2's a moment later, and seed 2 is named.
#[test]
fn a_generator_error_is_reported_in_seed_order() {
    let gen = "f() { case $1 in 2) sleep 0.5; exit 3;; 3) exit 4;; esac; echo 1; }; f";
    for jobs in ["1", "3"] {
        stress(&["-j", jobs, "--gen", gen, "--cmd", "cat"])
            .assert()
            .code(2)
            .stderr("judge: the generator exited with code 3 on seed 2\n");
    }
}
