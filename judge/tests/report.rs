//! The human report: snapshots with the times and memory masked, and colour only when asked for
//! (stdout is not a terminal in tests).

use crate::{judge, stdout_of};

/// The `mixed` suite's program: 01 right, 02 wrong in its second line, 03 crashes, 04 has no
/// answer recorded.
const MIXED: &str = "read x; case $x in 1) echo one;; 2) printf 'a b\\nc d\\ne\\nf\\n';; \
                     3) echo 'oops: no 3' >&2; exit 3;; *) echo four;; esac";

/// Replaces what changes from run to run: the `[time memory]` of a case line and the figures
/// after ` in ` in a suite's summary.
fn masked(report: &str) -> String {
    report
        .lines()
        .map(|line| {
            if let (Some(a), Some(b)) = (line.find(" ["), line.find("] ")) {
                format!("{} [time memory]{}", &line[..a], &line[b + 1..])
            } else if let Some(at) = line.find(" failed in ") {
                format!("{} failed in (times)", &line[..at])
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn human_report_of_a_mixed_suite() {
    let out = judge(&["mixed", "--cmd", MIXED]).assert().code(1);
    insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("human_report_mixed", masked(&stdout_of(&out)));
    });
}

#[test]
fn human_report_of_two_suites_passing() {
    let out = judge(&["echo", "float", "--cmd", "cat | sed 's/0.5/0.5000000001/'"])
        .assert()
        .code(0);
    insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("human_report_passing", masked(&stdout_of(&out)));
    });
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let plain = stdout_of(&judge(&["echo", "--cmd", "cat"]).assert().code(0));
    assert!(!plain.contains('\x1b'));
    let coloured = stdout_of(
        &judge(&["echo", "--cmd", "cat", "--color", "always"])
            .assert()
            .code(0),
    );
    assert!(coloured.contains("\x1b[32mAC \x1b[0m ["), "{coloured:?}");
    assert!(coloured.ends_with("2 passed, 0 failed\x1b[0m\n"));
}
