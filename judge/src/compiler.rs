//! Running a compiler (or a package's `build` script) in a box, under a time and a memory limit,
//! as every program the judge runs (see `judge_process`): stopped with all it started when a
//! limit is reached, when it is done, and when the judge itself is stopped. A compiler that
//! hangs (an `#include` of a named pipe) is stopped with an error naming the source.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Why a program could not be built.
#[derive(Debug)]
pub enum BuildError {
    /// This machine lacks the compiler or interpreter (a submission is then skipped).
    Unavailable(String),
    /// Anything else: no known language, a compile error (with the compiler's output).
    Failed(String),
}

impl BuildError {
    /// The message, whatever the kind.
    #[must_use]
    pub fn message(self) -> String {
        match self {
            BuildError::Unavailable(m) | BuildError::Failed(m) => m,
        }
    }
}

/// How long a compile may take, unless `JUDGE_COMPILE_TIME` says otherwise.
pub const DEFAULT_TIME: Duration = Duration::from_secs(60);

/// The environment variable that sets the compile time limit, in seconds.
pub const TIME_VARIABLE: &str = "JUDGE_COMPILE_TIME";

/// Bytes of the compiler's output (stdout and stderr together) kept for the message.
const KEPT: usize = 256 * 1024;

/// The compile time limit: `JUDGE_COMPILE_TIME` seconds (a positive number), else
/// [`DEFAULT_TIME`].
///
/// # Errors
/// The variable is set to something else than a positive number of seconds.
pub fn time_limit() -> Result<Duration, String> {
    let Some(value) = std::env::var_os(TIME_VARIABLE) else {
        return Ok(DEFAULT_TIME);
    };
    let text = value.to_string_lossy();
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() && s < 1e9 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "{TIME_VARIABLE}: expected a positive number of seconds, found {text:?}"
        )),
    }
}

/// Runs `cmd`, which compiles `src`, to its end or its limits, and says how it went. It runs in
/// a box as every program does (see `judge_process`): the files it names, their folders (for the
/// headers beside a source) and the folder it starts in are shown read-only; the paths it would
/// write (see [`Outputs`]) are given to it inside a private folder, writable, and moved to their
/// places once it has succeeded; it may take [`MEMORY`] at most.
///
/// # Errors
/// The compiler cannot be started, runs past a limit (it is then killed, with all it started),
/// or fails: the message names the source and quotes the compiler's output.
pub fn run(cmd: Command, src: &Path) -> Result<(), BuildError> {
    let limit = time_limit().map_err(BuildError::Failed)?;
    let program = cmd.get_program().to_string_lossy().into_owned();
    let failed = |why: String| BuildError::Failed(why);
    let outputs = Outputs::of(&cmd).map_err(failed)?;
    let _shown: Vec<judge_process::Shown> = source_folders(&cmd)
        .iter()
        .map(|f| judge_process::Shown::new(f))
        .collect();
    let _lent = cmd.get_current_dir().map(judge_process::Lent::new);
    // Its stderr through its stdout, whole up to the cap: the first errors matter most.
    let mut merged = Command::new("sh");
    merged
        .arg("-c")
        .arg("exec \"$@\" 2>&1")
        .arg("sh")
        .arg(cmd.get_program())
        .args(cmd.get_args().map(|a| outputs.inside(a)));
    if let Some(dir) = cmd.get_current_dir() {
        merged.current_dir(dir);
    }
    let limits = judge_process::Limits {
        time: limit,
        timing: judge_process::Timing::Wall,
        output: KEPT,
        memory: Some(MEMORY),
        settling: None,
    };
    let ran = judge_process::run(&merged, Vec::new(), limits).map_err(|e| {
        failed(format!(
            "cannot run {program} to compile {}: {e}",
            src.display()
        ))
    })?;
    let said = String::from_utf8_lossy(&ran.stdout).into_owned();
    if ran.timed_out {
        return Err(failed(format!(
            "{program} did not finish compiling {} within {} s (stopped; {TIME_VARIABLE} sets \
             the limit in seconds)",
            src.display(),
            limit.as_secs_f64()
        )));
    }
    if ran.memory_exceeded {
        return Err(failed(format!(
            "{program} took more than {} MiB compiling {} (stopped)",
            MEMORY >> 20,
            src.display()
        )));
    }
    match ran.exit {
        judge_process::Exit::Code(0) if !ran.output_exceeded => outputs.settle().map_err(failed),
        _ => Err(failed(format!(
            "{program} could not compile {}:\n{}",
            src.display(),
            said.trim_end()
        ))),
    }
}

/// The memory a compile may take.
pub const MEMORY: u64 = 2 << 30;

/// The paths a compile writes: the absolute paths after `-o`, `-MF` and `-d`, and after
/// `dep-info=` (rustc's `--emit`). Each is given to the compiler as a path of the same name inside a private temporary folder
/// (writable in its box, nothing else of the build cache is), then moved to its place.
struct Outputs {
    /// The private folder, removed with this.
    _folder: judge_process::Scratch,
    /// (the path named, the path given instead).
    moved: Vec<(PathBuf, PathBuf)>,
}

impl Outputs {
    fn of(cmd: &Command) -> Result<Outputs, String> {
        let folder = judge_process::Scratch::new("judge-build-")?;
        let mut moved: Vec<(PathBuf, PathBuf)> = Vec::new();
        let mut previous = String::new();
        for word in cmd.get_args() {
            let word = word.to_string_lossy().into_owned();
            let after_flag = matches!(previous.as_str(), "-o" | "-MF" | "-d");
            previous.clone_from(&word);
            let value = match word.rsplit_once("dep-info=") {
                Some((_, value)) => value,
                None if after_flag => word.as_str(),
                None => continue,
            };
            let path = Path::new(value);
            if !path.is_absolute() || moved.iter().any(|m| m.0 == path) {
                continue;
            }
            let name = path.file_name().unwrap_or_default();
            let mut inside = folder.path().join(name);
            if moved.iter().any(|m| m.1 == inside) {
                let unique = format!("{}-{}", moved.len(), name.to_string_lossy());
                inside = folder.path().join(unique);
            }
            moved.push((path.to_path_buf(), inside));
        }
        Ok(Outputs {
            _folder: folder,
            moved,
        })
    }

    /// `word` with the path it names replaced by the one given instead, if it is an output.
    fn inside(&self, word: &std::ffi::OsStr) -> std::ffi::OsString {
        let text = word.to_string_lossy();
        for (named, given) in &self.moved {
            let named = named.to_string_lossy();
            if text.ends_with(named.as_ref()) {
                let head = &text[..text.len() - named.len()];
                let mut out = std::ffi::OsString::from(head);
                out.push(given);
                return out;
            }
        }
        word.to_os_string()
    }

    /// Moves what the compiler wrote to the paths it was named by (a path it did not write is
    /// left alone).
    fn settle(&self) -> Result<(), String> {
        for (named, given) in &self.moved {
            if std::fs::symlink_metadata(given).is_ok() {
                move_to(given, named).map_err(|e| format!("{}: {e}", named.display()))?;
            }
        }
        Ok(())
    }
}

/// Moves `from` to `to` (replacing an empty folder there): a rename, or a copy where the two
/// are on different file systems.
fn move_to(from: &Path, to: &Path) -> std::io::Result<()> {
    if to.is_dir() {
        let _ = std::fs::remove_dir(to);
    }
    match std::fs::rename(from, to) {
        Err(e) if e.raw_os_error() == Some(18) => copy_all(from, to), // EXDEV
        other => other,
    }
}

fn copy_all(from: &Path, to: &Path) -> std::io::Result<()> {
    if std::fs::symlink_metadata(from)?.is_dir() {
        std::fs::create_dir_all(to)?;
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            copy_all(&entry.path(), &to.join(entry.file_name()))?;
        }
        Ok(())
    } else {
        std::fs::copy(from, to).map(drop)
    }
}

/// The folders of the files `cmd` names (a source's, for the headers beside it), but `/`, the
/// system's temporary folder and a home folder.
fn source_folders(cmd: &Command) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = Vec::new();
    let home = std::env::var_os("HOME").map(PathBuf::from);
    for word in cmd.get_args() {
        let path = Path::new(word);
        let Some(folder) = path
            .parent()
            .filter(|_| path.is_absolute() && path.is_file())
        else {
            continue;
        };
        let plain = folder.parent().is_some()
            && folder != std::env::temp_dir()
            && home.as_deref() != Some(folder);
        if plain && !found.iter().any(|f| f == folder) {
            found.push(folder.to_path_buf());
        }
    }
    found
}

/// What names the compiler `tool` for the compile cache: the program's absolute path as found
/// on `PATH` (links followed), its size and modification time, and what it prints when run
/// with `version` (`--version`: a rustup proxy keeps its path across toolchains, not its
/// version), or for a JDK's `javac` its `release` file, which says the same without starting a
/// JVM. Asked once per tool and judge; `None` when the tool does not run here.
#[must_use]
pub fn identity(tool: &str, version: &str) -> Option<String> {
    type Asked = std::sync::Arc<std::sync::OnceLock<Option<String>>>;
    static SEEN: std::sync::Mutex<Option<std::collections::HashMap<String, Asked>>> =
        std::sync::Mutex::new(None);
    let once = SEEN
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(Default::default)
        .entry(tool.to_string())
        .or_default()
        .clone();
    // Asked outside the map's lock: builds in parallel wait only for the tool they need (asked
    // once), not for each other's (`javac -version` starts a JVM).
    once.get_or_init(|| ask_identity(tool, version)).clone()
}

/// The first file named `tool` in a folder of `PATH`, links followed.
#[must_use]
pub fn on_path(tool: &str) -> Option<std::path::PathBuf> {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|dir| dir.join(tool))
        .find(|p| p.is_file())
        .and_then(|p| p.canonicalize().ok())
}

fn ask_identity(tool: &str, version: &str) -> Option<String> {
    let path = on_path(tool);
    let said = match path.as_deref().and_then(|p| jdk_release(tool, p)) {
        Some(release) => release,
        None => {
            let said = Command::new(tool).arg(version).output().ok()?;
            if !said.status.success() {
                return None;
            }
            format!(
                "{}{}",
                String::from_utf8_lossy(&said.stdout),
                String::from_utf8_lossy(&said.stderr)
            )
        }
    };
    let file = match path.as_ref().map(|p| (p, std::fs::metadata(p))) {
        Some((p, Ok(m))) => {
            use std::os::unix::fs::MetadataExt;
            format!(
                "{} {} {}.{}",
                p.display(),
                m.len(),
                m.mtime(),
                m.mtime_nsec()
            )
        }
        _ => String::new(),
    };
    Some(format!("{file}\n{said}"))
}

/// For `javac` at `path` (links followed) in a JDK (`HOME/bin/javac`, beside `HOME/bin/java`),
/// the JDK's `HOME/release` file, which names its version as `javac -version` does, without
/// starting a JVM (half a second of CPU); `None` for any other tool or layout.
fn jdk_release(tool: &str, path: &Path) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    if tool != "javac" {
        return None;
    }
    let bin = path.parent()?;
    let runnable = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if !runnable(path) || !runnable(&bin.join("java")) {
        return None;
    }
    let release = std::fs::read_to_string(bin.parent()?.join("release")).ok()?;
    release
        .lines()
        .any(|l| l.starts_with("JAVA_VERSION="))
        .then(|| format!("release\n{release}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A JDK's `javac` is named by its `release` file; anything else, or a JDK without one, is
    /// asked for its version.
    #[test]
    fn a_jdk_is_named_by_its_release_file() {
        let home = tempfile::tempdir().expect("a temporary folder");
        let bin = home.path().join("bin");
        std::fs::create_dir(&bin).expect("bin");
        for tool in ["javac", "java"] {
            std::fs::write(bin.join(tool), "#!/bin/sh\n").expect("a tool");
            std::fs::set_permissions(bin.join(tool), std::fs::Permissions::from_mode(0o755))
                .expect("executable");
        }
        let javac = bin.join("javac");
        assert_eq!(jdk_release("javac", &javac), None, "no release file");
        std::fs::write(home.path().join("release"), "JAVA_VERSION=\"17.0.15\"\n").expect("release");
        let said = jdk_release("javac", &javac).expect("named by its release file");
        assert!(said.contains("JAVA_VERSION=\"17.0.15\""), "{said}");
        assert_eq!(jdk_release("kotlinc", &javac), None, "another tool");
        std::fs::remove_file(bin.join("java")).expect("no java");
        assert_eq!(jdk_release("javac", &javac), None, "no java beside it");
    }
}
