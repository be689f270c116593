//! Running a compiler (or a package's `build` script) under a time limit, in a process group of
//! its own that the judge kills when the time is up, when the compiler is done (anything it
//! left behind in its group), and when the judge itself is stopped by SIGTERM or SIGINT (the
//! group is recorded in the process registry, see [`crate::process::registry`]). A compiler
//! that hangs (an `#include` of a named pipe) is stopped with an error naming the source.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::process::registry;
use crate::process::sys::{self, Pid};

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

/// How often a running compiler is looked at.
const POLL: Duration = Duration::from_millis(10);

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
pub fn run(mut cmd: Command, src: &Path) -> Result<(), BuildError> {
    let limit = time_limit().map_err(BuildError::Failed)?;
    let program = cmd.get_program().to_string_lossy().into_owned();
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let (mut child, group) = registry::spawn_group(&mut cmd).map_err(|e| {
        BuildError::Failed(format!(
            "cannot run {program} to compile {}: {e}",
            src.display()
        ))
    })?;
    let leader = group.pgid();
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let timed_out = !ends_within(leader, limit);
    // The leader has ended (or is still running) but is not reaped: the group's number is still
    // its own. Whatever it left in its group goes too, so that the pipes close.
    let _ = sys::kill_group(leader, sys::SIGKILL);
    group.forget();
    let status = child.wait();
    reap_group(leader);
    let said = {
        let mut text = String::from_utf8_lossy(&out.join().unwrap_or_default()).into_owned();
        text += &String::from_utf8_lossy(&err.join().unwrap_or_default());
        text
    };
    match status {
        _ if timed_out => Err(BuildError::Failed(format!(
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

/// Reads `pipe` to its end on a thread of its own, keeping its first [`KEPT`] bytes.
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.by_ref().take(KEPT).read_to_end(&mut kept);
            let _ = std::io::copy(&mut pipe, &mut std::io::sink());
        }
        kept
    })
}

/// Waits until the child `leader` has ended (left unreaped), for at most `limit`; false if it
/// still runs then. A child that cannot be waited for counts as ended (reaping it then fails,
/// and the compile with it).
fn ends_within(leader: Pid, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    loop {
        match sys::ended(leader, true) {
            Ok(Some(_)) => return true,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(POLL),
            Ok(None) => return false,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return true,
        }
    }
}

/// Reaps the processes of group `group` that became the judge's children (the judge is a child
/// subreaper: a killed compiler's own children, `cc1` under `gcc`, are handed to it), for up
/// to 2 s.
fn reap_group(group: Pid) {
    let give_up = Instant::now() + Duration::from_secs(2);
    while Instant::now() < give_up {
        match sys::reap(-group, true) {
            Ok(Some(_)) => {}
            Ok(None) => std::thread::sleep(POLL),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}
