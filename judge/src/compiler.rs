//! Running a compiler (or a package's `build` script) in a box, under a time and a memory limit,
//! as every program the judge runs (see `judge_process`): stopped with all it started when a
//! limit is reached, when it is done, and when the judge itself is stopped. A compiler that
//! hangs (an `#include` of a named pipe) is stopped with an error naming the source.

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
/// a box as every program does (see `judge_process`): the files it names and the folder it starts
/// in are shown read-only, the folders it writes its output in (those of the paths it names that
/// do not exist yet, and those ending in `.partial`) writable, and it may take
/// [`MEMORY`] at most.
///
/// # Errors
/// The compiler cannot be started, runs past a limit (it is then killed, with all it started),
/// or fails: the message names the source and quotes the compiler's output.
pub fn run(cmd: Command, src: &Path) -> Result<(), BuildError> {
    let limit = time_limit().map_err(BuildError::Failed)?;
    let program = cmd.get_program().to_string_lossy().into_owned();
    let _lent: Vec<judge_process::Lent> = output_folders(&cmd)
        .iter()
        .map(|f| judge_process::Lent::new(f))
        .collect();
    // Its stderr through its stdout, whole up to the cap: the first errors matter most.
    let mut merged = Command::new("sh");
    merged
        .arg("-c")
        .arg("exec \"$@\" 2>&1")
        .arg("sh")
        .arg(cmd.get_program())
        .args(cmd.get_args());
    if let Some(dir) = cmd.get_current_dir() {
        merged.current_dir(dir);
    }
    let limits = judge_process::Limits {
        time: limit,
        output: KEPT,
        memory: Some(MEMORY),
    };
    let ran = judge_process::run(&merged, Vec::new(), limits).map_err(|e| {
        BuildError::Failed(format!(
            "cannot run {program} to compile {}: {e}",
            src.display()
        ))
    })?;
    let said = String::from_utf8_lossy(&ran.stdout).into_owned();
    let failed = |why: String| Err(BuildError::Failed(why));
    if ran.timed_out {
        return failed(format!(
            "{program} did not finish compiling {} within {} s (stopped; {TIME_VARIABLE} sets \
             the limit in seconds)",
            src.display(),
            limit.as_secs_f64()
        ));
    }
    if ran.memory_exceeded {
        return failed(format!(
            "{program} took more than {} MiB compiling {} (stopped)",
            MEMORY >> 20,
            src.display()
        ));
    }
    match ran.exit {
        judge_process::Exit::Code(0) if !ran.output_exceeded => Ok(()),
        _ => failed(format!(
            "{program} could not compile {}:\n{}",
            src.display(),
            said.trim_end()
        )),
    }
}

/// The memory a compile may take.
pub const MEMORY: u64 = 2 << 30;

/// The folders `cmd` writes its output in: its own folder if it is given one (a `build`
/// script's copy), the folder of each path it names that does not exist yet (`-o FILE`,
/// `--emit=...=FILE`), and each path it names ending in `.partial` (a folder made for it).
fn output_folders(cmd: &Command) -> Vec<std::path::PathBuf> {
    let mut found: Vec<std::path::PathBuf> = cmd.get_current_dir().map(Path::to_path_buf).into_iter().collect();
    for word in cmd.get_args().map(|a| a.to_string_lossy().into_owned()) {
        let value = word.rsplit('=').next().unwrap_or(&word);
        let path = Path::new(value);
        if !path.is_absolute() {
            continue;
        }
        let folder = if path.is_dir() && value.ends_with(".partial") {
            Some(path.to_path_buf())
        } else if !path.exists() {
            path.parent().filter(|p| p.is_dir()).map(Path::to_path_buf)
        } else {
            None
        };
        if let Some(folder) = folder.filter(|f| !found.contains(f)) {
            found.push(folder);
        }
    }
    found
}
