//! Our own binaries, the `[[bin]]` targets of the `cp-puzzles` package: found next to the judge
//! and, inside the repository, built first in the judge's own profile, saying on a terminal what
//! it builds when the build takes more than a moment.

use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use crate::out;
use crate::shell::{is_executable, quote};

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

/// How long a build runs before the judge says what it is building: a fresh build says nothing.
const QUIET_BUILD: Duration = Duration::from_secs(1);

impl Build {
    /// `cargo build` of our binaries `names`. When it lasts more than [`QUIET_BUILD`] and stderr
    /// is a terminal, says what it builds, then a line as each binary is built, and the total.
    ///
    /// # Errors
    /// Cargo cannot be started, or the build fails (cargo's errors are on stderr).
    fn run(&self, names: &[String]) -> Result<(), String> {
        let mut cmd = Command::new("cargo");
        cmd.args(["build", "--quiet", "--profile", &self.profile])
            .args(["--message-format", "json-render-diagnostics"])
            .arg("--target-dir")
            .arg(&self.target)
            .arg("--manifest-path")
            .arg(&self.manifest)
            .stdout(Stdio::piped());
        judge_process::unblock_signals_on_exec(&mut cmd);
        for name in names {
            cmd.args(["--bin", name]);
        }
        let news = BuildNews::new(self, names);
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot run cargo to build the solvers: {e}"))?;
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let status = std::thread::scope(|scope| {
            let news = &news;
            scope.spawn(move || {
                // Cargo's end drops the sender: a disconnection within the moment says nothing.
                if done_rx.recv_timeout(QUIET_BUILD) == Err(mpsc::RecvTimeoutError::Timeout) {
                    news.announce();
                }
            });
            if let Some(stdout) = child.stdout.take() {
                for line in std::io::BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    news.message(&line);
                }
            }
            let status = child.wait();
            drop(done_tx);
            status
        });
        match status {
            Ok(s) if s.success() => {
                news.finish();
                Ok(())
            }
            _ => Err(format!(
                "`cargo build --profile {} --bin {}` failed",
                self.profile,
                names.join(" --bin ")
            )),
        }
    }
}

/// What a build says on stderr when stderr is a terminal, once it has lasted a moment:
/// `judge: building ...`, then `judge: built NAME` for each binary compiled, then
/// `judge: built in N s`.
struct BuildNews<'a> {
    names: &'a [String],
    profile: &'a str,
    start: Instant,
    /// Stderr is a terminal: a person is waiting (scripts and logs get cargo's errors alone).
    wanted: bool,
    /// Whether the heading has been printed.
    announced: Mutex<bool>,
}

impl<'a> BuildNews<'a> {
    fn new(build: &'a Build, names: &'a [String]) -> BuildNews<'a> {
        BuildNews {
            names,
            profile: &build.profile,
            start: Instant::now(),
            wanted: std::io::stderr().is_terminal(),
            announced: Mutex::new(false),
        }
    }

    /// Prints the heading, once, when stderr is a terminal.
    fn announce(&self) {
        let mut announced = self.announced.lock().unwrap_or_else(|e| e.into_inner());
        if self.wanted && !*announced {
            *announced = true;
            out::stderr(&format!(
                "judge: building {} (cargo build --profile {}; the first build takes minutes)\n",
                self.names.join(", "),
                self.profile
            ));
        }
    }

    /// One of cargo's JSON messages: a binary of ours compiled (not fresh) gets its line.
    fn message(&self, line: &str) {
        let name = built_binary(line).filter(|n| self.names.contains(n));
        if let Some(name) = name.filter(|_| self.wanted) {
            self.announce();
            let seconds = self.start.elapsed().as_secs_f64();
            out::stderr(&format!("judge: built {name} ({seconds:.0} s)\n"));
        }
    }

    /// The closing line, if the heading was printed.
    fn finish(&self) {
        if *self.announced.lock().unwrap_or_else(|e| e.into_inner()) {
            let seconds = self.start.elapsed().as_secs_f64();
            out::stderr(&format!("judge: built in {seconds:.0} s\n"));
        }
    }
}

/// The binary that cargo's JSON message `line` says it has just compiled (not found fresh).
fn built_binary(line: &str) -> Option<String> {
    let message = serde_json::from_str::<serde_json::Value>(line).ok()?;
    let built = message["reason"] == "compiler-artifact" && message["fresh"] == false;
    let is_bin = message["target"]["kind"]
        .as_array()
        .is_some_and(|kinds| kinds.iter().any(|k| k == "bin"));
    let name = message["target"]["name"].as_str()?;
    (built && is_bin).then(|| name.to_owned())
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

    #[test]
    fn a_binary_compiled_is_told_and_a_fresh_one_or_a_library_is_not() {
        let message = |kind: &str, name: &str, fresh: bool| {
            format!(
                r#"{{"reason":"compiler-artifact","target":{{"kind":["{kind}"],"name":"{name}"}},"fresh":{fresh}}}"#
            )
        };
        assert_eq!(
            built_binary(&message("bin", "minimax", false)).as_deref(),
            Some("minimax")
        );
        assert_eq!(built_binary(&message("bin", "minimax", true)), None);
        assert_eq!(built_binary(&message("lib", "cp_puzzles", false)), None);
        assert_eq!(
            built_binary(r#"{"reason":"build-finished","success":true}"#),
            None
        );
        assert_eq!(built_binary("not json"), None);
    }
}
