//! What the workspace's tests and benchmarks share, so that no package includes another's files:
//! the workspace root, the checks of the tools a test needs ([`require_tool`]), the tests'
//! pseudo-random generator, the runs of the examples, the sources fingerprint of
//! `minesweeper-bot` (which `play`'s build script computes with this same code) and, with the
//! feature `minesweeper`, the brute force over a small board's mine arrangements.
//!
//! Each package keeps its own `bin(name)`: Cargo gives a binary's path (`CARGO_BIN_EXE_<name>`)
//! only to its own package's tests.

pub mod examples;
#[cfg(feature = "minesweeper")]
pub mod minesweeper_brute;
mod rng;
pub mod sources;
mod tools;

use std::path::PathBuf;

pub use rng::Rng;
pub use tools::{require_file, require_tool, tool_path};

/// The workspace's root folder (where the root `Cargo.toml`, `src/`, `testcases/` and the other
/// packages' folders are).
pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("test-support is a folder of the workspace")
        .to_path_buf()
}
