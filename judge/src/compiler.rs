//! Running a compiler (or a package's `build` script) under a time limit, in a process group of
//! its own that the judge kills when the time is up, when the compiler is done (anything it
//! left behind in its group), and when the judge itself is stopped by SIGTERM or SIGINT (the
//! group is recorded while it runs, see [`judge_process::run_in_group`]). A compiler
//! that hangs (an `#include` of a named pipe) is stopped with an error naming the source.

use std::path::Path;
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

/// Bytes of the compiler's stdout and of its stderr kept for the message.
const KEPT: u64 = 256 * 1024;

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

/// Runs `cmd`, which compiles `src`, to its end or its time limit, and says how it went.
///
/// # Errors
/// The compiler cannot be started, runs past the time limit (it is then killed, with all it
/// started), or fails: the message names the source and quotes the compiler's output.
pub fn run(cmd: Command, src: &Path) -> Result<(), BuildError> {
    let limit = time_limit().map_err(BuildError::Failed)?;
    let program = cmd.get_program().to_string_lossy().into_owned();
    let ran = judge_process::run_in_group(cmd, limit, KEPT).map_err(|e| {
        BuildError::Failed(format!(
            "cannot run {program} to compile {}: {e}",
            src.display()
        ))
    })?;
    let said =
        String::from_utf8_lossy(&ran.stdout).into_owned() + &String::from_utf8_lossy(&ran.stderr);
    match ran.status {
        _ if ran.timed_out => Err(BuildError::Failed(format!(
            "{program} did not finish compiling {} within {} s (stopped; {TIME_VARIABLE} sets \
             the limit in seconds)",
            src.display(),
            limit.as_secs_f64()
        ))),
        Ok(s) if s.success() => Ok(()),
        _ => Err(BuildError::Failed(format!(
            "{program} could not compile {}:\n{}",
            src.display(),
            said.trim_end()
        ))),
    }
}

/// What names the compiler `tool` for the compile cache: the program's absolute path as found
/// on `PATH` (links followed), its size and modification time, and what it prints when run
/// with `version` (`--version`: a rustup proxy keeps its path across toolchains, not its
/// version). Asked once per tool and judge; `None` when the tool does not run here.
#[must_use]
pub fn identity(tool: &str, version: &str) -> Option<String> {
    static SEEN: std::sync::Mutex<Option<std::collections::HashMap<String, Option<String>>>> =
        std::sync::Mutex::new(None);
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    seen.get_or_insert_with(Default::default)
        .entry(tool.to_string())
        .or_insert_with(|| ask_identity(tool, version))
        .clone()
}

fn ask_identity(tool: &str, version: &str) -> Option<String> {
    let said = Command::new(tool).arg(version).output().ok()?;
    if !said.status.success() {
        return None;
    }
    let path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|dir| dir.join(tool))
        .find(|p| p.is_file())
        .and_then(|p| p.canonicalize().ok());
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
    Some(format!(
        "{file}\n{}{}",
        String::from_utf8_lossy(&said.stdout),
        String::from_utf8_lossy(&said.stderr)
    ))
}
