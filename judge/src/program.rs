//! The program under judgement: a shell command given with `--cmd`, or one of our own binaries
//! (see [`crate::own`]).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::shell::is_executable;

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
    /// The command, without its pipes set: a simple shell command (see
    /// [`crate::shell::simple_words`]) is run directly, as `sh` would run it, any other through
    /// `sh -c`.
    pub fn command(&self) -> Command {
        match self {
            Program::Shell(c) => shell_command(c),
            Program::ShellIn(c, dir) => {
                let mut cmd = shell_command(c);
                cmd.current_dir(dir);
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

/// `command` run by `sh -c`, or directly when it is a simple command.
fn shell_command(command: &str) -> Command {
    match crate::shell::simple_words(command) {
        Some(words) => {
            let mut cmd = Command::new(&words[0]);
            cmd.args(&words[1..]);
            cmd
        }
        None => {
            let mut cmd = Command::new("sh");
            cmd.arg("-c").arg(command);
            cmd
        }
    }
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
