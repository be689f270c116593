//! Helpers shared by the integration tests: the binaries, the recorded cases and the one
//! pseudo-random generator (`test_support::Rng`).

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// A command for one of the package's binaries, found through Cargo's `CARGO_BIN_EXE_<name>`.
pub fn bin(name: &str) -> Command {
    Command::new(bin_path(name))
}

/// The path of one of the package's binaries.
pub fn bin_path(name: &str) -> &'static str {
    match name {
        "minimax" => env!("CARGO_BIN_EXE_minimax"),
        "minesweeper" => env!("CARGO_BIN_EXE_minesweeper"),
        "maxblack" => env!("CARGO_BIN_EXE_maxblack"),
        "quarto" => env!("CARGO_BIN_EXE_quarto"),
        "minesweeper-referee" => env!("CARGO_BIN_EXE_minesweeper-referee"),
        "minesweeper-agent" => env!("CARGO_BIN_EXE_minesweeper-agent"),
        other => panic!("no binary named {other}"),
    }
}

/// The package's root folder (where `Cargo.toml` and `testcases/` are).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One recorded case: `testcases/<suite>/NN.in`, its `NN.out`, and the exit code in `NN.exit`
/// (0 when there is none).
pub struct Case {
    /// The `.in` file, to name the case in a failure.
    pub path: PathBuf,
    pub input: String,
    pub output: String,
    pub exit: i32,
}

/// Every recorded case of `testcases/<suite>/`, in the order of their names.
///
/// # Panics
/// If the folder or a file cannot be read, or an `.exit` file holds no integer.
pub fn recorded_cases(suite: &str) -> Vec<Case> {
    let dir = root().join("testcases").join(suite);
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "in"))
        .collect();
    inputs.sort();
    inputs.into_iter().map(case).collect()
}

fn case(path: PathBuf) -> Case {
    let read =
        |p: &Path| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let exit_file = path.with_extension("exit");
    let exit = if exit_file.is_file() {
        let text = read(&exit_file);
        text.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{}: expected an exit code", exit_file.display()))
    } else {
        0
    };
    Case {
        input: read(&path),
        output: read(&path.with_extension("out")),
        exit,
        path,
    }
}

/// Runs binary `bin` on every recorded case of `suite`, as the judge does: the exit code must be
/// the recorded one, and so must stdout when that code is 0. Returns the number of cases.
///
/// # Panics
/// On the first case that fails, or if the suite has none.
pub fn check_recorded_cases(suite: &str, bin_name: &str) -> usize {
    let cases = recorded_cases(suite);
    assert!(!cases.is_empty(), "no recorded case in testcases/{suite}");
    for case in &cases {
        let assert = bin(bin_name)
            .write_stdin(case.input.as_str())
            .assert()
            .code(case.exit);
        if case.exit == 0 {
            let stdout = String::from_utf8_lossy(&assert.get_output().stdout);
            assert!(
                stdout == case.output,
                "{}: wrong output",
                case.path.display()
            );
        }
    }
    cases.len()
}

/// The tests' one pseudo-random generator, shared with the benchmarks.
pub use test_support::Rng;
