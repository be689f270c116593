//! The program under judgement: a shell command given with `--cmd`, or one of our own binaries,
//! found next to the judge and, inside the repository, built first in the judge's own profile.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::shell::quote;

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

/// Our own binaries: the `[[bin]]` targets of the `cp-puzzles` package, found (and built) in
/// the judge's own folder.
///
/// A judge built by cargo (its folder `TARGET/PROFILE`, `TARGET` holding cargo's
/// `CACHEDIR.TAG`) inside the repository (its `Cargo.toml` found, see [`crate::manifest::find`]) takes the
/// names from the manifest and runs `cargo build --profile PROFILE --target-dir TARGET` for the
/// ones a run needs first, so that a stale or missing binary is never judged and the binaries
/// are of the judge's own profile. Otherwise (an installed judge) a name is ours when an
/// executable of that name sits next to the judge, as `cargo install` puts them.
pub struct Own {
    /// Where the binaries are: the judge's own folder.
    dir: PathBuf,
    /// How to build them, when the judge was built by cargo inside the repository.
    build: Option<Build>,
    /// The manifest's binary names; empty without `build`.
    names: Vec<String>,
}

/// A cargo build of our binaries into the judge's own folder.
struct Build {
    manifest: PathBuf,
    target: PathBuf,
    profile: String,
}

impl Own {
    /// Finds the judge's folder and, when the judge was built by cargo inside the repository,
    /// the manifest and the profile.
    ///
    /// # Errors
    /// The judge cannot find its own executable, or the manifest is not valid TOML.
    pub fn find() -> Result<Own, String> {
        let exe =
            std::env::current_exe().map_err(|e| format!("cannot find the judge itself: {e}"))?;
        let dir = exe.parent().unwrap_or(Path::new(".")).to_path_buf();
        let build = cargo_profile(&dir).and_then(|(target, profile)| {
            crate::manifest::find().map(|manifest| Build {
                manifest,
                target,
                profile,
            })
        });
        let names = match &build {
            Some(b) => bin_names(&b.manifest)?,
            None => Vec::new(),
        };
        Ok(Own { dir, build, names })
    }

    /// Whether `word` (a bare name, no `/`) names one of our binaries.
    #[must_use]
    pub fn is_ours(&self, word: &str) -> bool {
        if word.is_empty() || word.contains('/') {
            return false;
        }
        match self.build {
            Some(_) => self.names.iter().any(|n| n == word),
            None => is_executable(&self.dir.join(word)),
        }
    }

    /// Builds `names` (when the manifest is known) and returns their paths, in that order.
    ///
    /// # Errors
    /// The build fails, or a binary is neither present nor buildable.
    pub fn binaries(&self, names: &[String]) -> Result<Vec<PathBuf>, String> {
        if names.is_empty() {
            return Ok(Vec::new());
        }
        if let Some(build) = &self.build {
            let mut unique = names.to_vec();
            unique.sort();
            unique.dedup();
            build.run(&unique)?;
        }
        names
            .iter()
            .map(|name| {
                let path = self.dir.join(name);
                if is_executable(&path) {
                    Ok(path)
                } else {
                    Err(format!(
                        "no {name} binary in {}; install it beside the judge \
                         or judge another program with --cmd",
                        self.dir.display()
                    ))
                }
            })
            .collect()
    }

    /// The name of ours that the shell command `command` starts with, if any: a suite's checker
    /// or interactor may name our binaries by name (`minesweeper-referee --turn-ms 1000`).
    #[must_use]
    pub fn leading(&self, command: &str) -> Option<String> {
        let first = command.split_whitespace().next()?;
        self.is_ours(first).then(|| first.to_string())
    }
}

/// Builds in one go our binaries named by `programs` and by the first word of `commands`
/// (checker and interactor commands, rewritten in place to start with the binary's path);
/// returns the paths of `programs`, in order.
///
/// # Errors
/// As [`Own::binaries`].
pub fn resolve(
    own: &Own,
    commands: &mut [&mut String],
    programs: &[String],
) -> Result<Vec<PathBuf>, String> {
    let leading: Vec<Option<String>> = commands.iter().map(|c| own.leading(c)).collect();
    let mut names = programs.to_vec();
    names.extend(leading.iter().flatten().cloned());
    let mut paths = own.binaries(&names)?;
    let helper_paths = paths.split_off(programs.len());
    let mut helper_paths = helper_paths.into_iter();
    for (command, name) in commands.iter_mut().zip(&leading) {
        if let (Some(name), Some(path)) = (name, helper_paths.next()) {
            **command = with_path(command, name, &path);
        }
    }
    Ok(paths)
}

/// `command` with its first word, our binary `name`, replaced by the quoted `path`.
#[must_use]
pub fn with_path(command: &str, name: &str, path: &Path) -> String {
    let rest = command.trim_start().strip_prefix(name).unwrap_or("");
    format!("{}{rest}", quote(path))
}

/// The cargo target folder and profile of the binaries in `dir`, when `dir` is a cargo output
/// folder `TARGET/PROFILE` (`debug` is the `dev` profile's).
fn cargo_profile(dir: &Path) -> Option<(PathBuf, String)> {
    let target = dir.parent()?;
    if !target.join("CACHEDIR.TAG").is_file() {
        return None;
    }
    let name = dir.file_name()?.to_str()?;
    let profile = if name == "debug" { "dev" } else { name };
    Some((target.to_path_buf(), profile.to_string()))
}

/// The `[[bin]]` names of the manifest at `path`.
fn bin_names(path: &Path) -> Result<Vec<String>, String> {
    #[derive(serde::Deserialize)]
    struct Manifest {
        #[serde(default)]
        bin: Vec<Bin>,
    }
    #[derive(serde::Deserialize)]
    struct Bin {
        name: String,
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let manifest: Manifest =
        toml::from_str(&text).map_err(|e| format!("{}: {}", path.display(), e.message()))?;
    Ok(manifest.bin.into_iter().map(|b| b.name).collect())
}

impl Build {
    /// `cargo build` of our binaries `names`.
    fn run(&self, names: &[String]) -> Result<(), String> {
        let mut cmd = Command::new("cargo");
        cmd.args(["build", "--quiet", "--profile", &self.profile])
            .arg("--target-dir")
            .arg(&self.target)
            .arg("--manifest-path")
            .arg(&self.manifest);
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
                "`cargo build --profile {} --bin {}` failed",
                self.profile,
                names.join(" --bin ")
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(names: &[&str]) -> Own {
        Own {
            dir: PathBuf::from("/opt/cp puzzles/release"),
            build: Some(Build {
                manifest: PathBuf::from("Cargo.toml"),
                target: PathBuf::from("/opt/cp puzzles"),
                profile: "release".to_string(),
            }),
            names: names.iter().map(|n| n.to_string()).collect(),
        }
    }

    #[test]
    fn a_command_naming_our_binary_by_name_is_resolved_to_its_quoted_path() {
        let own = own(&["minesweeper-referee", "quarto"]);
        let command = "minesweeper-referee --turn-ms 1000";
        assert_eq!(own.leading(command).as_deref(), Some("minesweeper-referee"));
        let path = own.dir.join("minesweeper-referee");
        assert_eq!(
            with_path(command, "minesweeper-referee", &path),
            "'/opt/cp puzzles/release/minesweeper-referee' --turn-ms 1000"
        );
    }

    #[test]
    fn paths_and_other_commands_are_left_to_the_shell() {
        let own = own(&["quarto"]);
        assert_eq!(own.leading("./quarto --x"), None);
        assert_eq!(own.leading("python3 check.py"), None);
        assert_eq!(own.leading("quartox"), None);
        assert_eq!(own.leading("   "), None);
    }

    #[test]
    fn a_cargo_output_folder_gives_its_profile_and_an_install_folder_none() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("target");
        for profile in ["debug", "release", "quick"] {
            std::fs::create_dir_all(target.join(profile)).unwrap();
        }
        assert_eq!(
            cargo_profile(&target.join("release")),
            None,
            "no CACHEDIR.TAG"
        );
        std::fs::write(
            target.join("CACHEDIR.TAG"),
            "Signature: 8a477f597d28d172789f06886806bc55",
        )
        .unwrap();
        let profile = |p: &str| cargo_profile(&target.join(p)).map(|(_, name)| name);
        assert_eq!(profile("debug").as_deref(), Some("dev"));
        assert_eq!(profile("release").as_deref(), Some("release"));
        assert_eq!(profile("quick").as_deref(), Some("quick"));
    }

    #[test]
    fn the_manifest_names_every_binary_of_the_package() {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
        let names = bin_names(&manifest).unwrap();
        for name in [
            "minimax",
            "quarto",
            "minesweeper-referee",
            "minesweeper-agent",
        ] {
            assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
        }
    }
}
