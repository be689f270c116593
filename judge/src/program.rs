//! The program under judgement: a shell command given with `--cmd`, or one of our own release
//! binaries, found next to the judge and built with cargo when missing.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What to run for a case.
#[derive(Clone, Debug)]
pub enum Program {
    /// `sh -c COMMAND`.
    Shell(String),
    /// `sh -c COMMAND` run from a folder.
    ShellIn(String, PathBuf),
    /// An executable run directly, without a shell (our own solvers, so that their times are not
    /// padded by a shell's start-up).
    Exec(PathBuf),
}

impl Program {
    /// The command, without its pipes set.
    pub fn command(&self) -> Command {
        match self {
            Program::Shell(c) => {
                let mut cmd = Command::new("sh");
                cmd.arg("-c").arg(c);
                cmd
            }
            Program::ShellIn(c, dir) => {
                let mut cmd = Command::new("sh");
                cmd.arg("-c").arg(c).current_dir(dir);
                cmd
            }
            Program::Exec(path) => Command::new(path),
        }
    }

    /// How the program is named in messages.
    pub fn describe(&self) -> String {
        match self {
            Program::Shell(c) | Program::ShellIn(c, _) => c.clone(),
            Program::Exec(p) => p.display().to_string(),
        }
    }

    /// A shell command accepted by `--cmd`, checked: its first word must name something the shell
    /// can run (a file, a command on `PATH`, a builtin). Commands that start with an assignment,
    /// a quote or another shell construct are left to the shell. A source file (`sol.cpp`,
    /// `sol.py`, ...) is compiled first if needed (see [`crate::source`]).
    ///
    /// # Errors
    /// The first word is a plain word that the shell does not know; a source file does not
    /// compile.
    pub fn shell(command: &str) -> Result<Program, String> {
        if let Some(built) = crate::source::command(command) {
            return built.map(Program::Shell);
        }
        let Some(first) = command.split_whitespace().next() else {
            return Err("--cmd is empty".to_string());
        };
        let plain = first
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c));
        if plain && !known_to_shell(first) {
            let hint = if first.contains('/') {
                "no such executable file"
            } else {
                "command not found"
            };
            return Err(format!("cannot run {command:?}: {first}: {hint}"));
        }
        Ok(Program::Shell(command.to_string()))
    }
}

/// `p` quoted for `sh`.
#[must_use]
pub fn quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

fn known_to_shell(word: &str) -> bool {
    if word.contains('/') {
        return is_executable(Path::new(word));
    }
    Command::new("sh")
        .args(["-c", "command -v -- \"$1\" >/dev/null", "sh", word])
        .status()
        .is_ok_and(|s| s.success())
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Our release binaries for `names`, in that order.
///
/// They live next to the judge when it is a release build, else in the sibling `release` folder.
/// When the `cp-puzzles` package's `Cargo.toml` is found (see [`manifest`]),
/// `cargo build --release` brings them up to date first, so that a stale binary is never judged.
///
/// # Errors
/// A binary is neither present nor buildable.
pub fn own_binaries(names: &[String]) -> Result<Vec<Program>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the judge itself: {e}"))?;
    let dir = release_dir(&exe);
    if names.is_empty() {
        return Ok(Vec::new());
    }
    if let Some(manifest) = manifest() {
        build(&manifest, names)?;
    }
    names
        .iter()
        .map(|name| {
            let path = dir.join(name);
            if is_executable(&path) {
                Ok(Program::Exec(path))
            } else {
                Err(format!(
                    "no {name} binary in {}; build it with `cargo build --release --bin {name}` \
                     or judge another program with --cmd",
                    dir.display()
                ))
            }
        })
        .collect()
}

fn release_dir(exe: &Path) -> PathBuf {
    let dir = exe.parent().unwrap_or(Path::new("."));
    match (dir.file_name(), dir.parent()) {
        (Some(n), Some(target)) if n == "debug" => target.join("release"),
        _ => dir.to_path_buf(),
    }
}

/// The `Cargo.toml` of the `cp-puzzles` package: in cargo's `CARGO_MANIFEST_DIR` (the judge's
/// own package when run by `cargo run`), the current folder, or a folder above either.
pub fn manifest() -> Option<PathBuf> {
    let starts = [
        std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from),
        std::env::current_dir().ok(),
    ];
    starts.into_iter().flatten().find_map(|start| {
        start.ancestors().find_map(|dir| {
            let manifest = dir.join("Cargo.toml");
            let text = std::fs::read_to_string(&manifest).ok()?;
            text.contains("name = \"cp-puzzles\"").then_some(manifest)
        })
    })
}

fn build(manifest: &Path, names: &[String]) -> Result<(), String> {
    let mut cmd = Command::new("cargo");
    cmd.args(["build", "--release", "--quiet", "--manifest-path"])
        .arg(manifest);
    for name in names {
        cmd.args(["--bin", name]);
    }
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run cargo to build the solvers: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "`cargo build --release --bin {}` failed",
            names.join(" --bin ")
        ))
    }
}
