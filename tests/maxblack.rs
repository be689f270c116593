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
            "line 1: expected \"maxblack checkpoint 2\"",
        ));
    let _ = std::fs::remove_file(&path);
}

/// 64-bit FNV-1a, written here apart from the solver's, to seal checkpoints by hand.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Runs `echo "6 3" | maxblack --count-only --checkpoint FILE` on `text` in FILE.
fn count_6x6_from(name: &str, text: &[u8]) -> assert_cmd::assert::Assert {
    let path =
        std::env::temp_dir().join(format!("maxblack-cli-{}-{name}.ckpt", std::process::id()));
    std::fs::write(&path, text).expect("written");
    let assert = bin("maxblack")
        .args(["--count-only", "--checkpoint"])
        .arg(&path)
        .write_stdin("6 3\n")
        .assert();
    let _ = std::fs::remove_file(&path);
    assert
}

/// A checkpoint written by hand with wrong maxima (and no checksum) is refused, naming the file,
/// instead of giving a wrong answer (it gave `14` / `1271506 10149081`; the answer is `20` /
/// `10 39`).
#[test]
fn a_forged_checkpoint_is_refused() {
    let forged = b"maxblack checkpoint\ngrid 6 6 3\nmaxima 4 8 10 13 10\n";
    count_6x6_from("forged", forged)
        .code(1)
        .stdout("")
        .stderr(predicate::str::is_match(
            "^maxblack: checkpoint .*maxblack-cli-[0-9]+-forged.ckpt: was written by an older version of maxblack, \
             without a checksum, and cannot be verified: it is not trusted: remove it to start afresh\n$",
        ).expect("a pattern"));
    // Sealed with a good checksum, the impossible maxima are still refused.
    let body = "maxblack checkpoint 2\ngrid 6 6 3\nwalk 2 3 pruned\nmaxima 4 8 10 13 10\n";
    let sealed = format!("{body}checksum {:016x}\n", fnv1a(body.as_bytes()));
    count_6x6_from("sealed", sealed.as_bytes())
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains(
            "the maxima 13 and 10 cannot follow",
        ));
    // With the true maxima and a good checksum, the run goes on to the answer.
    let body = "maxblack checkpoint 2\ngrid 6 6 3\nwalk 2 3 pruned\nmaxima 4 8 10 13 17\n";
    let sealed = format!("{body}checksum {:016x}\n", fnv1a(body.as_bytes()));
    count_6x6_from("true", sealed.as_bytes())
        .success()
        .stdout("20\n10 39\n");
}

/// A checkpoint a run wrote, edited by hand, fails its checksum and is refused.
#[test]
fn an_edited_checkpoint_is_refused() {
    let path =
        std::env::temp_dir().join(format!("maxblack-cli-{}-edited.ckpt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    bin("maxblack")
        .args(["--count-only", "--checkpoint"])
        .arg(&path)
        .write_stdin("6 3\n")
        .assert()
        .success()
        .stdout("20\n10 39\n");
    let text = std::fs::read_to_string(&path).expect("written");
    assert!(text.contains("\nmax 20\n"), "{text}");
    std::fs::write(&path, text.replace("\nmax 20\n", "\nmax 19\n")).expect("edited");
    bin("maxblack")
        .args(["--count-only", "--checkpoint"])
        .arg(&path)
        .write_stdin("6 3\n")
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains(
            "edited.ckpt: the checksum does not match the content (the file is damaged or was edited)",
        ));
    let _ = std::fs::remove_file(&path);
}

/// Listing more optimal grids than are kept ends with the error, once the limit is passed (not
/// after listing all 638,653,285 orbits of `12 2`).
#[test]
fn listing_too_many_grids_ends_with_an_error() {
    bin("maxblack")
        .write_stdin("12 2\n")
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "maxblack: more than 500000 optimal grids up to symmetry: too many to list \
             (--count-only counts them)\n",
        );
}
