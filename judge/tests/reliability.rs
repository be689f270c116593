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

/// Runs suite `s` of `tmp` with `cat` and expects a setup error naming `file`.
fn setup_error(tmp: &tempfile::TempDir, file: &str, why: &str) {
    judge_in(tmp.path(), &["s", "--cmd", "cat"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!("s/{file}: {why}")));
}

#[test]
fn unreadable_configuration_is_a_setup_error_naming_the_file() {
    let tmp = temp_suite("s", &[("01", b"1\n", Some(b"1\n"))]);
    let dir = tmp.path().join("s");
    std::fs::write(dir.join("suite.toml"), b"time_limit = 10 # caf\xe9\n").expect("toml");
    setup_error(&tmp, "suite.toml", "not UTF-8 text");
    std::fs::remove_file(dir.join("suite.toml")).expect("rm");
    std::fs::create_dir(dir.join("suite.toml")).expect("a folder");
    setup_error(&tmp, "suite.toml", "cannot be read");
    std::fs::remove_dir(dir.join("suite.toml")).expect("rmdir");

    std::fs::write(dir.join("01.exit"), b"\xff").expect("exit");
    setup_error(&tmp, "01.exit", "not UTF-8 text");
    std::fs::remove_file(dir.join("01.exit")).expect("rm");
    std::fs::create_dir(dir.join("01.exit")).expect("a folder");
    setup_error(&tmp, "01.exit", "cannot be read");
    std::fs::remove_dir(dir.join("01.exit")).expect("rmdir");

    std::fs::remove_file(dir.join("01.out")).expect("rm");
    std::fs::create_dir(dir.join("01.out")).expect("a folder");
    setup_error(&tmp, "01.out", "cannot be read");
}

/// A checker suite `s` whose checker is `sh check.sh` running `script`.
fn checker_suite(script: &str) -> tempfile::TempDir {
    let tmp = temp_suite("s", &[("01", b"1\n", Some(b"1\n"))]);
    let dir = tmp.path().join("s");
    let toml = "compare = \"checker\"\nchecker = \"sh check.sh\"\n";
    std::fs::write(dir.join("suite.toml"), toml).expect("toml");
    std::fs::write(dir.join("check.sh"), script).expect("script");
    tmp
}

#[test]
fn a_checker_killed_by_a_signal_is_a_judge_error() {
    let tmp = checker_suite("sh -c 'kill -SEGV $$'\nexit $?\n");
    judge_in(tmp.path(), &["s", "--cmd", "cat"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("was killed by signal 11"));
}

#[test]
fn a_checker_writing_over_1_mib_is_a_judge_error() {
    let tmp = checker_suite("head -c 2000000 /dev/zero\nexit 0\n");
    judge_in(tmp.path(), &["s", "--cmd", "cat"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("wrote more than 1 MiB"));
}

#[test]
fn runtime_error_details_escape_control_characters() {
    let tmp = temp_suite("s", &[("01", b"1\n", Some(b"1\n"))]);
    let out = judge_in(
        tmp.path(),
        &[
            "s",
            "--cmd",
            "printf 'red \\033[31m bel \\007 nul \\000 end\\n' >&2; exit 3",
        ],
    )
    .assert()
    .code(1);
    let stdout = crate::stdout_of(&out);
    assert!(stdout.contains("red ␛[31m bel ␇ nul ␀ end"), "{stdout}");
    assert!(!stdout.contains(['\x1b', '\x07', '\0']), "{stdout}");
}

#[test]
fn no_case_runs_after_a_setup_error() {
    let tmp = temp_suite("s", &[("01", b"1\n", None), ("02", b"2\n", Some(b"2\n"))]);
    std::fs::create_dir(tmp.path().join("s/01.out")).expect("a folder");
    let log = tmp.path().join("ran");
    let cmd = format!("cat; echo >> {}", log.display());
    for _ in 0..5 {
        let _ = std::fs::remove_file(&log);
        // The program logs into the test's folder, read-only in the sandbox.
        judge_in(tmp.path(), &["s", "-j", "1", "--cmd", &cmd])
            .env("JUDGE_NO_SANDBOX", "1")
            .assert()
            .code(2);
        let ran = std::fs::read_to_string(&log).expect("the log");
        assert_eq!(ran.lines().count(), 1, "cases run");
    }
}

#[test]
fn a_write_error_on_stdout_fails_the_judge() {
    let full = std::fs::File::options()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
        .arg("--testcases")
        .arg(crate::util::package().join("tests/fixtures/judge"))
        .args(["echo", "--cmd", "cat"])
        .stdout(full)
        .output()
        .expect("the judge runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("judge: cannot write the output: "),
        "{stderr}"
    );
}

#[test]
fn a_negative_or_nan_tolerance_is_refused() {
    let tmp = temp_suite("s", &[("01", b"1\n", Some(b"1\n"))]);
    for t in ["-1", "nan", "inf"] {
        let toml = format!("compare = \"float\"\ntolerance = {t}\n");
        std::fs::write(tmp.path().join("s/suite.toml"), toml).expect("toml");
        setup_error(
            &tmp,
            "suite.toml",
            "tolerance must be a finite number at least 0",
        );
    }
}

#[test]
fn the_checker_reads_the_output_from_a_private_folder_removed_afterwards() {
    // The checker records the path it was given and that folder's mode.
    let tmp = checker_suite("echo \"$2\" > seen; stat -c %a \"$(dirname \"$2\")\" >> seen\n");
    // The checker writes into the suite's folder, read-only in the sandbox.
    judge_in(tmp.path(), &["s", "--cmd", "cat"])
        .env("JUDGE_NO_SANDBOX", "1")
        .assert()
        .success();
    let seen = std::fs::read_to_string(tmp.path().join("s/seen")).expect("seen");
    let mut lines = seen.lines();
    let path = std::path::PathBuf::from(lines.next().expect("a path"));
    assert_eq!(lines.next(), Some("700"), "{seen}");
    let dir = path.parent().expect("a folder");
    let name = dir.file_name().expect("a name").to_string_lossy();
    assert!(name.starts_with("judge-") && name.len() > 10, "{name}");
    assert!(!path.exists() && !dir.exists(), "{seen}");
}

#[test]
fn sigterm_to_the_judge_kills_the_program_first() {
    let tmp = temp_suite("s", &[("01", b"1\n", Some(b"1\n"))]);
    let pidfile = tmp.path().join("pid");
    let cmd = format!(
        "echo $$ > {}.new; mv {0}.new {0}; exec sleep 30",
        pidfile.display()
    );
    let mut judge = std::process::Command::new(env!("CARGO_BIN_EXE_judge"))
        .arg("--testcases")
        .arg(tmp.path())
        .args(["s", "--time-limit", "60", "--cmd", &cmd])
        // The program writes its pid into the test's folder, read-only in the sandbox.
        .env("JUDGE_NO_SANDBOX", "1")
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the judge starts");
    let pid = loop {
        if let Ok(text) = std::fs::read_to_string(&pidfile) {
            break text.trim().to_string();
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let judge_pid = judge.id().to_string();
    let kill = std::process::Command::new("kill")
        .args(["-TERM", &judge_pid])
        .status();
    assert!(kill.expect("kill runs").success());
    let status = judge.wait().expect("the judge ends");
    assert!(!status.success());
    // The program is gone (or a zombie waiting for init) within a few seconds, not sleeping on
    // for its 30 s: a killed process takes a moment to exit, so its state is polled.
    let gone = || {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat.rsplit(") ").next().unwrap_or("").chars().next();
        matches!(state, None | Some('Z')).then_some(()).ok_or(stat)
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let mut last = gone();
    while last.is_err() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        last = gone();
    }
    assert!(last.is_ok(), "{last:?}");
}
