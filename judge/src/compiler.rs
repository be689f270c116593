//! Running a compiler (or a package's `build` script) under a time limit, in a process group of
//! its own that the judge kills when the time is up, when the compiler is done (anything it
//! left behind in its group), and when the judge itself is stopped by SIGTERM or SIGINT (the
//! group is recorded with the interactors', see `cleanup`). A compiler that hangs (an
//! `#include` of a named pipe) is stopped with an error naming the source.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::source::BuildError;

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
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = crate::cleanup::spawn(&mut cmd, false).map_err(|e| {
        BuildError::Failed(format!(
            "cannot run {program} to compile {}: {e}",
            src.display()
        ))
    })?;
    let group = child.id() as i32;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            if let Some(pipe) = pipe {
                let mut pipe = pipe;
                let _ = pipe.by_ref().take(KEPT).read_to_end(&mut kept);
                let _ = std::io::copy(&mut pipe, &mut std::io::sink());
            }
            kept
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let end = wait(group, limit);
    // Whatever it left in its group goes too, so that the pipes close; the compiler is not
    // reaped yet, so its id still names this group.
    kill_process_group(group);
    let status = child.wait();
    reap_process_group(group);
    crate::cleanup::remove_group(group);
    let said = {
        let mut text = String::from_utf8_lossy(&out.join().unwrap_or_default()).into_owned();
        text += &String::from_utf8_lossy(&err.join().unwrap_or_default());
        text
    };
    match (end, status) {
        (End::TimedOut, _) => Err(BuildError::Failed(format!(
            "{program} did not finish compiling {} within {} s (stopped; {TIME_VARIABLE} sets \
             the limit in seconds)",
            src.display(),
            limit.as_secs_f64()
        ))),
        (End::Exited, Ok(s)) if s.success() => Ok(()),
        _ => Err(BuildError::Failed(format!(
            "{program} could not compile {}:\n{}",
            src.display(),
            said.trim_end()
        ))),
    }
}

/// How a compile ended.
enum End {
    /// The compiler exited (it is not reaped yet).
    Exited,
    /// Still running at the time limit.
    TimedOut,
}

/// Waits until the compiler `pid` exits, without reaping it, or `limit` has passed.
fn wait(pid: i32, limit: Duration) -> End {
    let deadline = Instant::now() + limit;
    loop {
        if exited_unreaped(pid) {
            return End::Exited;
        }
        if Instant::now() >= deadline {
            return End::TimedOut;
        }
        std::thread::sleep(POLL);
    }
}

// The system calls, kept together (no other module needs them yet).

/// Whether child `pid` has exited, left unreaped (`waitid` with `WNOWAIT`): its id cannot be
/// taken by another process until it is reaped. An error (no such child) counts as exited.
fn exited_unreaped(pid: i32) -> bool {
    // SAFETY: siginfo_t is plain data, valid when zeroed.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
    // SAFETY: waitid writes only into `info`, which outlives the call.
    let r = unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) };
    // SAFETY: si_pid reads a field waitid has filled (0 if the child is still running).
    r != 0 || unsafe { info.si_pid() } != 0
}

/// SIGKILL to every process of group `group`.
fn kill_process_group(group: i32) {
    // SAFETY: kill has no memory effects; the group is the compiler's own, led by our child.
    unsafe { libc::kill(-group, libc::SIGKILL) };
}

/// Reaps the processes of group `group` that became the judge's children (the judge is a child
/// subreaper: a killed compiler's own children, `cc1` under `gcc`, are handed to it), for up
/// to 2 s.
fn reap_process_group(group: i32) {
    let give_up = Instant::now() + Duration::from_secs(2);
    while Instant::now() < give_up {
        // SAFETY: waitpid on a process group with a null status pointer has no memory effects.
        let reaped = unsafe { libc::waitpid(-group, std::ptr::null_mut(), libc::WNOHANG) };
        match reaped {
            -1 => return,
            0 => std::thread::sleep(POLL),
            _ => {}
        }
    }
}
