//! `maxblack` through its command line: the recorded cases, the flag and the errors.

use crate::util::{self, bin};
use predicates::prelude::*;

/// Every recorded case in `testcases/maxblack/` gives its recorded output.
#[test]
fn recorded_cases() {
    assert!(util::check_recorded_cases("maxblack", "maxblack") >= 6);
}

#[test]
fn classic_9x9_k4() {
    bin("maxblack")
        .write_stdin("9 4\n")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("56\n1 2\n\n.###.###.\n"));
}

#[test]
fn count_only_prints_the_header() {
    bin("maxblack")
        .arg("--count-only")
        .write_stdin("9 4\n")
        .assert()
        .success()
        .stdout("56\n1 2\n");
}

/// `--progress` reports every rectangle maximum and every ruled-out goal on stderr, in order.
#[test]
fn progress_goes_to_stderr() {
    let out = bin("maxblack")
        .arg("--progress")
        .write_stdin("7 3\n")
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.starts_with("26\n"), "{stdout}");
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    let stages: Vec<&str> = err.lines().map(|l| l.split("] ").nth(1).unwrap()).collect();
    assert_eq!(stages.len(), 6 + 1, "{err}");
    assert_eq!(stages[0], "1 x 7 rectangle: at most 5 black cells");
    assert!(stages[5].starts_with("6 x 7 rectangle: at most "), "{err}");
    assert_eq!(stages[6], "no 7 x 7 grid holds 27");
}

#[test]
fn bad_input_exits_1() {
    bin("maxblack")
        .write_stdin("9 x\n")
        .assert()
        .code(1)
        .stdout("")
        .stderr("maxblack: line 1, token 2: expected an integer K >= 1, found \"x\"\n");
}

#[test]
fn unknown_flag_exits_2() {
    bin("maxblack")
        .arg("--fast")
        .write_stdin("9 4\n")
        .assert()
        .code(2);
}
