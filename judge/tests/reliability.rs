//! The judge on hostile outputs and broken configuration: bytes that are not UTF-8, unreadable
//! files, misbehaving checkers.

use predicates::prelude::*;

use crate::{judge_in, temp_suite};

#[test]
fn invalid_utf8_outputs_are_compared_as_bytes() {
    let tmp = temp_suite("b", &[("01", b"\xfe\n", Some(b"\xff\n"))]);
    for mode in ["exact", "tokens"] {
        let toml = format!("compare = \"{mode}\"\n");
        std::fs::write(tmp.path().join("b/suite.toml"), toml).expect("a suite.toml");
        judge_in(tmp.path(), &["b", "--cmd", "cat"])
            .assert()
            .code(1)
            .stdout(predicate::str::contains(
                "expected the bytes \\xff, got the bytes \\xfe",
            ));
    }
    judge_in(tmp.path(), &["b", "--cmd", "printf '\\377\\n'"])
        .assert()
        .success();
}
