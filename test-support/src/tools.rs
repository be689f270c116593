//! The tools outside the Rust toolchain that some tests need. A test whose tool is missing fails,
//! naming the tool and where to get it: it never passes without checking.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Where to get each tool the tests use, on Debian (what CI runs).
const WHERE: [(&str, &str); 14] = [
    ("gcc", "Debian's package gcc"),
    ("g++", "Debian's package g++"),
    ("as", "Debian's package binutils"),
    ("ld", "Debian's package binutils"),
    ("rustc", "the Rust toolchain, https://rustup.rs"),
    ("python3", "Debian's package python3"),
    ("javac", "Debian's package default-jdk"),
    ("sh", "any POSIX shell, Debian's package dash"),
    ("mkfifo", "Debian's package coreutils"),
    ("/usr/bin/time", "Debian's package time"),
    ("prlimit", "Debian's package util-linux"),
    ("setpriv", "Debian's package util-linux"),
    ("/dev/full", "a Linux system"),
    ("/proc", "a Linux system, with /proc mounted"),
];

/// Where to get `tool`, for a failure's message.
fn where_from(tool: &str) -> &'static str {
    WHERE
        .iter()
        .find(|(name, _)| *name == tool)
        .map_or("install it, or put it on PATH", |(_, from)| from)
}

/// Panics, naming `tool` and where to get it, unless `tool --version` runs here (found through
/// `PATH` as any command is, or a path) and succeeds.
#[track_caller]
pub fn require_tool(tool: &str) {
    let ran = Command::new(tool)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let why = match ran {
        Ok(status) if status.success() => return,
        Ok(status) => format!("`{tool} --version` failed ({status})"),
        Err(e) => format!("`{tool} --version` does not run: {e}"),
    };
    panic!("this test needs {tool} ({}): {why}", where_from(tool));
}

/// The file `tool` in the first folder of `PATH` that has one; panics, naming `tool` and where to
/// get it, if none has. For a tool that a test links or runs by its path (`sh`, which has no
/// `--version`, or a compiler put on a `PATH` of the test's own).
#[track_caller]
pub fn tool_path(tool: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path)
        .map(|dir| dir.join(tool))
        .find(|p| p.is_file());
    match found {
        Some(file) => file,
        None => panic!(
            "this test needs {tool} ({}): not found on PATH",
            where_from(tool)
        ),
    }
}

/// Panics, naming `path` and where to get it, unless it exists (a device such as `/dev/full`, or
/// `/proc`).
#[track_caller]
pub fn require_file(path: &str) {
    if let Err(e) = Path::new(path).metadata() {
        panic!("this test needs {path} ({}): {e}", where_from(path));
    }
}
