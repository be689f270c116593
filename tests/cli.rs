//! The command line every solver shares (`bin/cli.rs`): `--help`, `--version`, an unknown
//! argument, a reader that goes away, a full disk.

use std::io::Write;
use std::process::{Command, Stdio};

use predicates::prelude::*;
use test_support::require_file;

use crate::util::{bin, bin_path};

/// Each solver, with a small valid input.
const SOLVERS: [(&str, &str); 4] = [
    ("minimax", "2 2\n1 2 3 4\n"),
    ("minesweeper", "2x1x1\n1H\n"),
    ("maxblack", "4 3\n"),
    (
        "quarto",
        "1000 1111 . 0010\n0011 1110 1010 1001\n0110 1100 0001 0100\n1101 0000 0101 1011\n0111\n",
    ),
];

#[test]
fn help_shows_the_usage_and_exits_0_without_reading_stdin() {
    for (name, _) in SOLVERS {
        for flag in ["--help", "-h"] {
            // No stdin is written: a solver that waited on it would hang until the pipe closes,
            // and then fail on the empty input.
            bin(name)
                .arg(flag)
                .assert()
                .code(0)
                .stdout(predicate::str::starts_with(format!("usage: {name} ")))
                .stdout(predicate::str::contains("--version"))
                .stdout(predicate::str::contains("Exit status: 0 solved"))
                .stderr("");
        }
    }
}

#[test]
fn version_prints_the_package_version() {
    for (name, _) in SOLVERS {
        for flag in ["--version", "-V"] {
            bin(name)
                .arg(flag)
                .assert()
                .code(0)
                .stdout(format!("{name} {}\n", env!("CARGO_PKG_VERSION")))
                .stderr("");
        }
    }
}

#[test]
fn an_unknown_argument_is_a_usage_error() {
    for (name, input) in SOLVERS {
        bin(name)
            .arg("--x")
            .write_stdin(input)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::starts_with(format!(
                "{name}: unexpected argument \"--x\"\nusage: {name} "
            )))
            .stderr(predicate::function(|e: &str| e.lines().count() == 2));
    }
}

/// An argument that is not UTF-8 is unknown, not a panic.
#[cfg(unix)]
#[test]
fn a_non_utf8_argument_is_a_usage_error() {
    use std::os::unix::ffi::OsStrExt;
    for (name, input) in SOLVERS {
        bin(name)
            .arg(std::ffi::OsStr::from_bytes(b"-\xff"))
            .write_stdin(input)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("unexpected argument"))
            .stderr(predicate::str::contains("panicked").not());
    }
}

#[test]
fn maxblack_flags_pass_through() {
    bin("maxblack")
        .args(["--count-only", "--progress"])
        .write_stdin("4 3\n")
        .assert()
        .code(0)
        .stdout("9\n11 76\n")
        .stderr(predicate::str::contains(
            "1 x 4 rectangle: at most 3 black cells",
        ));
    bin("maxblack")
        .args(["--count-only", "--help"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("--count-only"));
}

/// Runs solver `name` with `args` on `input`, stdout going to `stdout`; `close_stdout` closes
/// the read end of a piped stdout before the input is sent. Returns the exit code and stderr.
fn run_into(
    name: &str,
    args: &[&str],
    input: &str,
    stdout: Stdio,
    close_stdout: bool,
) -> (Option<i32>, String) {
    let mut child = Command::new(bin_path(name))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the solver starts");
    if close_stdout {
        drop(child.stdout.take());
    }
    let mut stdin = child.stdin.take().expect("a stdin pipe");
    // A solver asked for --help may be gone before it is sent: its stdin is then closed.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().expect("the solver ends");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), stderr)
}

/// A reader that closes stdout before the answer is written: the solver ends quietly, exit 0.
/// (The pipe's read end is closed before the input is sent, so the write always fails.)
#[test]
fn a_closed_stdout_ends_quietly() {
    for (name, input) in SOLVERS {
        for args in [&[][..], &["--help"], &["--version"]] {
            let (code, stderr) = run_into(name, args, input, Stdio::piped(), true);
            assert_eq!((code, stderr.as_str()), (Some(0), ""), "{name} {args:?}");
        }
    }
}

/// A write that fails for another reason is an error, named as a write. Needs `/dev/full`.
#[test]
fn a_full_disk_is_a_write_error() {
    require_file("/dev/full");
    for (name, input) in SOLVERS {
        for args in [&[][..], &["--help"]] {
            let full = std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .expect("/dev/full opens");
            let (code, stderr) = run_into(name, args, input, full.into(), false);
            assert_eq!(code, Some(1), "{name} {args:?}");
            let prefix = format!("{name}: cannot write the output: ");
            assert!(stderr.starts_with(&prefix), "{name} {args:?}: {stderr}");
        }
    }
}
