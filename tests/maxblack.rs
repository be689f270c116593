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
    let stages: Vec<&str> = err.lines().filter_map(|l| l.split("] ").nth(1)).collect();
    assert_eq!(stages.len(), 6 + 3, "{err}");
    assert_eq!(stages[0], "1 x 7 rectangle: at most 5 black cells");
    assert!(stages[5].starts_with("6 x 7 rectangle: at most "), "{err}");
    assert_eq!(stages[6], "no 7 x 7 grid holds 28");
    assert_eq!(stages[7], "no 7 x 7 grid holds 27");
    assert_eq!(stages[8], "a 7 x 7 grid holds 26:");
    // The grid found follows, 7 rows of 7 cells.
    let grid: Vec<&str> = err.lines().skip(9).collect();
    assert_eq!(grid.len(), 7, "{err}");
    assert!(grid.iter().all(|r| r.len() == 7), "{err}");
    assert_eq!(grid.concat().matches('#').count(), 26, "{err}");
}

/// A wide grid's grid found is printed in the input's orientation.
#[test]
fn progress_prints_a_wide_grid_found_as_wide() {
    let out = bin("maxblack")
        .args(["--progress", "--count-only"])
        .write_stdin("6 9 3\n")
        .assert()
        .success();
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    let at = err.find("a 6 x 9 grid holds").expect("a grid found");
    let grid: Vec<&str> = err[at..].lines().skip(1).collect();
    assert_eq!(grid.len(), 6, "{err}");
    assert!(grid.iter().all(|r| r.len() == 9), "{err}");
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

/// `N M K` is a rectangle of N rows and M columns, printed as such.
#[test]
fn rectangle_rows_and_columns() {
    bin("maxblack")
        .write_stdin("2 5 3\n")
        .assert()
        .success()
        .stdout("8\n1 1\n\n##.##\n##.##\n");
}

/// The output is the same on any number of threads.
#[test]
fn threads_give_the_same_output() {
    let run = |threads: &str| {
        let out = bin("maxblack")
            .args(["--threads", threads])
            .write_stdin("7 6 3\n")
            .assert()
            .success();
        out.get_output().stdout.clone()
    };
    let one = run("1");
    assert!(one.starts_with(b"23\n"));
    assert_eq!(run("2"), one);
    assert_eq!(run("5"), one);
}

#[test]
fn bad_thread_counts_exit_2() {
    for args in [&["--threads", "0"][..], &["--threads", "x"], &["--threads"]] {
        bin("maxblack")
            .args(args)
            .write_stdin("9 4\n")
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with("maxblack: expected "));
    }
}

/// `--checkpoint FILE` writes the progress, and a second run reads it back (here, the maximum is
/// already known) with the same output.
#[test]
fn checkpoint_file_is_written_and_read_back() {
    let path = std::env::temp_dir().join(format!("maxblack-cli-{}.ckpt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let run = || {
        bin("maxblack")
            .arg("--checkpoint")
            .arg(&path)
            .write_stdin("9 4\n")
            .assert()
            .success()
            .stdout(predicate::str::starts_with("56\n1 2\n"))
    };
    run();
    let text = std::fs::read_to_string(&path).expect("written");
    assert!(
        text.contains("grid 9 9 4\n") && text.contains("max 56\n"),
        "{text}"
    );
    run();
    std::fs::write(&path, "not a checkpoint\n").expect("written");
    bin("maxblack")
        .arg("--checkpoint")
        .arg(&path)
        .write_stdin("9 4\n")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "line 1: expected \"maxblack checkpoint\"",
        ));
    let _ = std::fs::remove_file(&path);
}
