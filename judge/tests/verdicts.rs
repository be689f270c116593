//! One verdict per fake program: AC, WA, TLE, RE, OLE, MLE, NO-ANSWER, float tolerance, checker,
//! expected exit codes, and the exit codes of the judge itself.

use predicates::prelude::*;

use crate::judge;

#[test]
fn cat_is_accepted() {
    judge(&["echo", "--cmd", "cat"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("AC  ["))
        .stdout(predicate::str::contains("echo/02"))
        .stdout(predicate::str::contains("echo: 2 passed, 0 failed"))
        .stdout(predicate::str::ends_with("\n2 passed, 0 failed\n"));
}

#[test]
fn wrong_answer_shows_the_difference() {
    judge(&["echo", "--cmd", "printf 'a\\nc\\n'", "--filter", "02"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WA  ["))
        .stdout(predicate::str::contains(
            "line 2, column 1 (expected 2 lines, got 2)",
        ))
        .stdout(predicate::str::contains("1 | a\n"))
        .stdout(predicate::str::contains("- 2 | b\n"))
        .stdout(predicate::str::contains("+ 2 | c\n"))
        .stdout(predicate::str::ends_with("0 passed, 1 failed\n"));
}

#[test]
fn a_short_output_ends_early_in_the_diff() {
    judge(&["echo", "--cmd", "echo a", "--filter", "02"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("+   | <end of output>"));
}

#[test]
fn a_sleeper_and_its_children_are_killed_on_time() {
    // The shell starts a background sleep that holds stdout open, and writes its pid down: the
    // judge must not wait for it, and must kill it with the group.
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let pid_file = tmp.path().join("pid");
    let cmd = format!("sleep 30 & echo $! > '{}'; sleep 30", pid_file.display());
    let start = std::time::Instant::now();
    judge(&[
        "echo",
        "--cmd",
        &cmd,
        "--time-limit",
        "0.3",
        "--filter",
        "01",
    ])
    // The program writes the pid into the test's folder, read-only in the sandbox.
    .env("JUDGE_NO_SANDBOX", "1")
    .assert()
    .code(1)
    .stdout(predicate::str::contains("TLE ["))
    // It sleeps: the wall-time backstop, 0.3 s plus 1 s, stops it.
    .stdout(predicate::str::contains("wall-time limit of 1.3 s"));
    assert!(start.elapsed().as_secs() < 5);
    let pid = std::fs::read_to_string(&pid_file).expect("the child's pid");
    let alive = std::path::Path::new("/proc").join(pid.trim()).join("stat");
    // A killed child may linger as a zombie until its parent is reaped: 'Z' counts as dead. On a
    // loaded machine SIGKILL takes effect when the child is next scheduled, so allow 2 s for it.
    let dead = || {
        let state = std::fs::read_to_string(&alive).unwrap_or_default();
        state.is_empty() || state.contains(") Z")
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    while !dead() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let state = std::fs::read_to_string(&alive).unwrap_or_default();
    assert!(dead(), "child still running: {state}");
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
fn a_signal_is_a_runtime_error_named() {
    judge(&["echo", "--cmd", "kill -SEGV $$", "--filter", "01"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("killed by signal 11 (SIGSEGV)"));
}

#[test]
fn flooding_stdout_is_an_output_limit() {
    judge(&["echo", "--cmd", "yes", "--filter", "01"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("OLE ["))
        .stdout(predicate::str::contains("past 64 MiB"));
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
    .stdout(predicate::str::contains("MLE ["))
    .stdout(predicate::str::contains("limit 20.0 MiB"));
}

#[test]
fn a_memory_hog_is_stopped_while_it_runs() {
    // The same 100 MB, then a long sleep: without the check while it runs this would be a TLE
    // after 8 s.
    let hog = "x=$(head -c 100000000 /dev/zero | tr '\\0' a); sleep 30";
    let start = std::time::Instant::now();
    judge(&[
        "echo",
        "--cmd",
        hog,
        "--memory-limit",
        "20",
        "--time-limit",
        "8",
        "--filter",
        "01",
    ])
    .assert()
    .code(1)
    .stdout(predicate::str::contains("MLE ["));
    assert!(start.elapsed().as_secs() < 6, "{:?}", start.elapsed());
}

#[test]
fn float_within_tolerance_is_accepted() {
    judge(&["float", "--cmd", "echo 0.50000001"])
        .assert()
        .code(0);
    judge(&["float", "--cmd", "echo 0.51"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WA"))
        .stdout(predicate::str::contains("first difference at token 1"));
}

#[test]
fn missing_answer_is_reported() {
    judge(&["missing", "--cmd", "cat"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("NO-ANSWER"))
        .stdout(predicate::str::contains("01.out is missing"));
}

#[test]
fn the_checker_accepts_any_order_and_rejects_a_wrong_set() {
    // check.sh compares the numbers sorted: "3 1 2" in any order is right.
    judge(&["checker", "--cmd", "tr ' ' '\\n' | sort -rn"])
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with("2 passed, 0 failed\n"));
    judge(&["checker", "--cmd", "echo 1 2 4", "--filter", "01"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WA  ["))
        .stdout(predicate::str::contains("checker exit code 1"))
        .stdout(predicate::str::contains("not a permutation"));
}

#[test]
fn a_missing_checker_is_a_setup_error() {
    let tmp = crate::temp_suite("c", &[("01", b"1\n", Some(b"1\n"))]);
    let toml = "compare = \"checker\"\nchecker = \"./no-such-checker\"\n";
    std::fs::write(tmp.path().join("c/suite.toml"), toml).expect("suite.toml");
    crate::judge_in(tmp.path(), &["c", "--cmd", "cat"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "judge: the checker \"./no-such-checker\" could not be run",
        ));
    // And a checker suite without its command is rejected before anything runs.
    std::fs::write(tmp.path().join("c/suite.toml"), "compare = \"checker\"\n").expect("toml");
    crate::judge_in(tmp.path(), &["c", "--cmd", "cat"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("needs checker = \"COMMAND\""));
}

/// The `exits` suite: 01 must be rejected with exit code 1 and no stdout (01.exit holds 1).
const REJECTS_BAD_INPUT: &str =
    "read l; if [ \"$l\" = 'bad input' ]; then echo 'bad: input' >&2; exit 1; fi; echo \"$l\"";

#[test]
fn an_expected_exit_code_is_part_of_the_answer() {
    judge(&["exits", "--cmd", REJECTS_BAD_INPUT])
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with("2 passed, 0 failed\n"));
    judge(&["exits", "--cmd", "cat", "--filter", "01"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WA  ["))
        .stdout(predicate::str::contains("exit code 0, expected 1"));
    judge(&["exits", "--cmd", "exit 2", "--filter", "01"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("RE  ["))
        .stdout(predicate::str::contains(
            "exit code 2, expected exit code 1",
        ));
    // The right code with a wrong stdout is still a wrong answer.
    judge(&["exits", "--cmd", "echo oops; exit 1", "--filter", "01"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WA  ["));
}

#[test]
fn a_malformed_exit_file_is_a_setup_error() {
    let tmp = crate::temp_suite("e", &[("01", b"", Some(b""))]);
    std::fs::write(tmp.path().join("e/01.exit"), "one\n").expect("01.exit");
    crate::judge_in(tmp.path(), &["e", "--cmd", "exit 1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "expected an exit code from 0 to 255, found \"one\"",
        ));
}

#[test]
fn filter_selects_cases_by_name() {
    let out = judge(&["echo", "checker", "--cmd", "cat", "--filter", "echo/02"])
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with("1 passed, 0 failed\n"));
    let text = crate::stdout_of(&out);
    assert!(text.contains("echo/02") && !text.contains("echo/01") && !text.contains("checker/"));
}

#[test]
fn usage_and_setup_errors_exit_2_with_one_line() {
    for args in [
        &["nosuch", "--cmd", "cat"][..],
        &["--bogus"],
        &["echo", "--cmd", "cat", "--time-limit", "-1"],
        &["echo", "--cmd", "cat", "--memory-limit", "nan"],
        &["echo", "-j", "0"],
        &["echo", "--cmd", "./no-such-program --flag"],
        &["echo", "--cmd", "no-such-command-anywhere"],
    ] {
        let out = judge(args).assert().code(2).stdout("");
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(err.starts_with("judge: "), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn a_missing_program_is_named() {
    judge(&["echo", "--cmd", "./no-such-program"])
        .assert()
        .code(2)
        .stderr(
            "judge: cannot run \"./no-such-program\": ./no-such-program: no such executable file\n",
        );
}

#[test]
fn help_exits_0() {
    judge(&["--help"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "  record    Write the missing .out files",
        ))
        .stdout(predicate::str::contains(
            "  verify    Judge every submission",
        ))
        .stdout(predicate::str::contains("judge -- NAME"));
    judge(&["bundle", "--help"]).assert().code(0);
    crate::util::bin("judge")
        .args(["verify", "--help"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "Usage: judge verify [OPTIONS] <PACKAGE>",
        ));
}

#[test]
fn version_prints_the_package_version() {
    crate::util::bin("judge")
        .arg("--version")
        .assert()
        .code(0)
        .stdout(format!("judge {}\n", env!("CARGO_PKG_VERSION")));
}
