//! Helpers shared by the judge's integration tests.

use std::path::PathBuf;

use assert_cmd::Command;

/// A command for one of the package's binaries, found through Cargo's `CARGO_BIN_EXE_<name>`.
pub fn bin(name: &str) -> Command {
    let path = match name {
        "judge" => env!("CARGO_BIN_EXE_judge"),
        other => panic!("no binary named {other}"),
    };
    Command::new(path)
}

/// The judge package's folder (where its `Cargo.toml` and `tests/fixtures/` are).
pub fn package() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The workspace's root folder (where `testcases/`, `src/` and `bin/` are).
pub fn workspace() -> PathBuf {
    package()
        .parent()
        .expect("the judge package lives in the workspace")
        .to_path_buf()
}
