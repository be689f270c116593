//! Tests for `judge`: fake programs passed with `--cmd` on small suites under `tests/fixtures/judge`.

use predicates::prelude::*;

use crate::util;

fn judge(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = util::bin("judge");
    cmd.arg("--testcases")
        .arg(util::root().join("tests/fixtures/judge"))
        .args(args);
    cmd
}

#[test]
fn cat_is_accepted() {
    judge(&["echo", "--cmd", "cat"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("AC  ["))
        .stdout(predicate::str::contains("echo/02"))
        .stdout(predicate::str::ends_with("2 passed, 0 failed\n"));
}

#[test]
fn wrong_answer_shows_the_difference() {
    judge(&["echo", "--cmd", "printf 'a\\nc\\n'", "--filter", "02"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WA  ["))
        .stdout(predicate::str::contains("line 2, column 1"))
        .stdout(predicate::str::contains("expected: b"))
        .stdout(predicate::str::contains("got:      c"))
        .stdout(predicate::str::ends_with("0 passed, 1 failed\n"));
}

#[test]
fn a_sleeper_and_its_children_are_killed_on_time() {
    // The shell starts a background sleep that holds stdout open: the judge must not wait for it.
    let start = std::time::Instant::now();
    judge(&[
        "echo",
        "--cmd",
        "sleep 30 & sleep 30",
        "--time-limit",
        "0.3",
        "--filter",
        "01",
    ])
    .assert()
    .code(1)
    .stdout(predicate::str::contains("TLE ["));
    assert!(start.elapsed().as_secs() < 5);
}

#[test]
fn non_zero_exit_is_a_runtime_error_with_stderr() {
    judge(&["echo", "--cmd", "echo boom >&2; exit 3", "--filter", "01"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("RE  ["))
        .stdout(predicate::str::contains("exit code 3"))
        .stdout(predicate::str::contains("boom"));
}

#[test]
fn flooding_stdout_is_an_output_limit() {
    judge(&["echo", "--cmd", "yes", "--filter", "01"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("OLE ["));
}

#[test]
fn allocating_too_much_is_a_memory_limit() {
    // Holds about 100 MB of text in a shell variable.
    let hog = "x=$(head -c 100000000 /dev/zero | tr '\\0' a); cat";
    judge(&[
        "echo",
        "--cmd",
        hog,
        "--memory-limit",
        "20",
        "--filter",
        "01",
    ])
    .assert()
    .code(1)
    .stdout(predicate::str::contains("MLE ["));
}

#[test]
fn float_within_tolerance_is_accepted() {
    judge(&["float", "--cmd", "echo 0.50000001"])
        .assert()
        .code(0);
    judge(&["float", "--cmd", "echo 0.51"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WA"));
}

#[test]
fn missing_answer_is_reported() {
    judge(&["missing", "--cmd", "cat"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("NO-ANSWER"));
}

#[test]
fn unknown_suite_and_bad_flag_are_usage_errors() {
    judge(&["nosuch", "--cmd", "cat"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("judge: no suite named"));
    judge(&["--bogus"]).assert().code(2);
}

#[test]
fn a_program_that_never_reads_stdin_does_not_hang() {
    judge(&["echo", "--cmd", "exec 0<&-; echo 1 2", "--filter", "01"])
        .assert()
        .code(0);
}
