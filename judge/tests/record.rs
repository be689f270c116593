//! `judge record SUITE --cmd 'REFERENCE'`: writes the missing answers, keeps the others unless
//! `--force`, and records a non-zero exit code in `NN.exit`.

use predicates::prelude::*;

use crate::temp_suite;
use crate::util;

/// `judge record ARGS... --testcases DIR`.
fn record(dir: &std::path::Path, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = util::bin("judge");
    cmd.arg("record").args(args).arg("--testcases").arg(dir);
    cmd
}

fn read(path: std::path::PathBuf) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|_| "<missing>".into())
}

#[test]
fn record_writes_missing_answers_and_keeps_the_rest() {
    let tmp = temp_suite(
        "s",
        &[("01", b"abc\n", Some(b"old\n")), ("02", b"def\n", None)],
    );
    let dir = tmp.path().join("s");
    record(tmp.path(), &["s", "--cmd", "tr a-z A-Z"])
        .assert()
        .code(0)
        .stdout("wrote s/02\n1 written, 1 kept (--force to overwrite), 0 failed\n");
    assert_eq!(read(dir.join("01.out")), "old\n");
    assert_eq!(read(dir.join("02.out")), "DEF\n");
    record(tmp.path(), &["s", "--cmd", "tr a-z A-Z", "--force"])
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with("2 written, 0 kept, 0 failed\n"));
    assert_eq!(read(dir.join("01.out")), "ABC\n");
    // Now the suite passes with the reference.
    crate::judge_in(tmp.path(), &["s", "--cmd", "tr a-z A-Z"])
        .assert()
        .code(0);
}

#[test]
fn record_keeps_an_exit_code_and_skips_a_crash() {
    let tmp = temp_suite("s", &[("01", b"bad\n", None), ("02", b"hang\n", None)]);
    let dir = tmp.path().join("s");
    let reference = "read l; if [ $l = bad ]; then exit 1; fi; sleep 10";
    record(
        tmp.path(),
        &[
            "s",
            "--cmd",
            reference,
            "--time-limit",
            "0.3",
            "--expect-exit",
        ],
    )
    .assert()
    .code(1)
    .stdout(predicate::str::contains("FAILED s/02: timed out"))
    .stdout(predicate::str::ends_with("1 written, 0 kept, 1 failed\n"));
    assert_eq!(read(dir.join("01.out")), "");
    assert_eq!(read(dir.join("01.exit")), "1\n");
    assert_eq!(read(dir.join("02.out")), "<missing>");
}

#[test]
fn record_needs_a_reference_and_a_suite() {
    let tmp = temp_suite("s", &[("01", b"x\n", None)]);
    record(tmp.path(), &["s"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--cmd"));
    record(tmp.path(), &["nosuch", "--cmd", "cat"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "judge: no suite named \"nosuch\"",
        ));
}
