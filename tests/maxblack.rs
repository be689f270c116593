//! `maxblack` through its command line: the recorded cases, the flag and the errors.

use crate::util::{bin, root};
use predicates::prelude::*;

/// Every recorded case in `testcases/maxblack/` gives its recorded output.
#[test]
fn recorded_cases() {
    let dir = root().join("testcases/maxblack");
    let mut cases = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "in") {
            let expected = std::fs::read_to_string(path.with_extension("out")).unwrap();
            bin("maxblack")
                .pipe_stdin(&path)
                .unwrap()
                .assert()
                .success()
                .stdout(expected);
            cases += 1;
        }
    }
    assert!(cases >= 6);
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
