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

/// The judge's binary, for a `std::process::Command` (spawned several at once).
pub fn judge_path() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_judge"))
}

/// The judge package's folder (where its `Cargo.toml` and `tests/fixtures/` are).
pub fn package() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The workspace's root folder (where `testcases/`, `src/` and `bin/` are).
pub use test_support::workspace;

/// A fixture of the stress tests, `tests/fixtures/stress/NAME`.
pub fn stress_fixture(name: &str) -> String {
    package()
        .join("tests/fixtures/stress")
        .join(name)
        .display()
        .to_string()
}

/// Our `minimax` solver, built in the judge's own profile when it is not there yet.
pub fn minimax() -> PathBuf {
    let judge = PathBuf::from(env!("CARGO_BIN_EXE_judge"));
    let dir = judge.parent().expect("the judge's folder").to_path_buf();
    built(&dir, "minimax", dir.ends_with("release"))
}

/// `target/release/NAME` of the workspace, built when it is not there yet: where the
/// `codingame-minesweeper` suite looks for its referee.
pub fn release_bin(name: &str) -> PathBuf {
    built(&workspace().join("target/release"), name, true)
}

/// `dir/NAME`, one of the workspace's binaries, built by Cargo if it is missing.
fn built(dir: &std::path::Path, name: &str, release: bool) -> PathBuf {
    let path = dir.join(name);
    if !path.exists() {
        let mut cargo = std::process::Command::new(env!("CARGO"));
        cargo.args(["build", "--quiet", "--bin", name, "--manifest-path"]);
        cargo.arg(workspace().join("Cargo.toml"));
        if release {
            cargo.arg("--release");
        }
        let status = cargo.status().expect("cargo runs");
        assert!(status.success(), "cargo build --bin {name} failed");
    }
    path
}

/// The state letter of process `pid` (`R`, `S`, `T`, `Z`, ...), from `/proc/PID/stat`; `None`
/// once it is reaped.
pub fn process_state(pid: &str) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit(") ").next()?.chars().next()
}

/// The live processes (neither reaped nor zombies) whose command line mentions `text`.
pub fn processes_mentioning(text: &str) -> Vec<String> {
    test_support::require_file("/proc");
    std::fs::read_dir("/proc")
        .expect("/proc can be listed")
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|e| {
            let line = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            String::from_utf8_lossy(&line).contains(text)
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|pid| !matches!(process_state(pid), None | Some('Z')))
        .collect()
}

/// The pid of the process whose command line is exactly `words`, waiting for it up to
/// `patience` (then panics naming it).
pub fn process_running(patience: std::time::Duration, words: &[&str]) -> String {
    let wanted: Vec<u8> = words
        .iter()
        .flat_map(|w| [w.as_bytes(), b"\0"].concat())
        .collect();
    let give_up = std::time::Instant::now() + patience;
    loop {
        let found = std::fs::read_dir("/proc")
            .expect("/proc")
            .filter_map(Result::ok)
            .find(|e| std::fs::read(e.path().join("cmdline")).ok().as_ref() == Some(&wanted));
        if let Some(e) = found {
            return e.file_name().to_string_lossy().into_owned();
        }
        assert!(std::time::Instant::now() < give_up, "no process {words:?}");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
