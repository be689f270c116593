//! Starting a measuring helper through the judge's zygote, with pipes for its program's stdin,
//! stdout and stderr, and trying again while the machine is out of processes: what
//! [`super::spawn`] and [`super::ahead`] both start helpers with.

use std::os::fd::AsRawFd;
use std::process::{ChildStderr, ChildStdin, ChildStdout, Command};
use std::thread;
use std::time::Duration;

use super::clock::Moment;
use super::registry::{self, Handle};
use super::sys;
use super::zygote;

/// The judge's ends of the program's stdin, stdout and stderr, for the caller to take.
pub struct ProgramPipes {
    pub stdin: Option<ChildStdin>,
    pub stdout: Option<ChildStdout>,
    pub stderr: Option<ChildStderr>,
}

/// Starts the helper `cmd` through the zygote (see [`super::zygote`]), holding `passed` and new
/// pipes for its stdin, stdout and stderr; `None` where there is no zygote.
///
/// # Errors
/// The zygote could not fork the helper, or no pipe could be made.
pub(crate) fn through_zygote(
    cmd: &Command,
    here: &std::path::Path,
    passed: &[(std::os::fd::RawFd, std::os::fd::RawFd)],
) -> std::io::Result<Option<(ProgramPipes, Handle)>> {
    let (stdin_read, stdin_write) = sys::pipe_blocking()?;
    let (stdout_read, stdout_write) = sys::pipe_blocking()?;
    let (stderr_read, stderr_write) = sys::pipe_blocking()?;
    let mut fds = vec![
        (stdin_read.as_raw_fd(), 0),
        (stdout_write.as_raw_fd(), 1),
        (stderr_write.as_raw_fd(), 2),
    ];
    fds.extend_from_slice(passed);
    // The helper's arguments after its mark.
    let args: Vec<std::ffi::OsString> = cmd.get_args().skip(1).map(ToOwned::to_owned).collect();
    let mut env: std::collections::BTreeMap<std::ffi::OsString, std::ffi::OsString> =
        std::env::vars_os().collect();
    for (name, value) in cmd.get_envs() {
        match value {
            Some(value) => env.insert(name.to_owned(), value.to_owned()),
            None => env.remove(name),
        };
    }
    let env: Vec<std::ffi::OsString> = env
        .into_iter()
        .map(|(mut name, value)| {
            name.push("=");
            name.push(value);
            name
        })
        .collect();
    let cwd = cmd
        .get_current_dir()
        .map_or_else(|| here.to_path_buf(), |d| here.join(d));
    let request = zygote::Request {
        args: &args,
        env: &env,
        cwd: &cwd,
        fds: &fds,
    };
    let Some(handle) = retry_busy(
        || match registry::spawn_through(|| zygote::spawn(&request)) {
            Some(spawned) => spawned.map(Some),
            None => Ok(None),
        },
    )?
    else {
        return Ok(None);
    };
    Ok(Some((
        ProgramPipes {
            stdin: Some(ChildStdin::from(stdin_write)),
            stdout: Some(ChildStdout::from(stdout_read)),
            stderr: Some(ChildStderr::from(stderr_read)),
        },
        handle,
    )))
}

/// How long a thread or a helper that cannot start for want of processes or memory (`EAGAIN`)
/// is tried again: a fork bomb in another case frees them once it is stopped.
const BUSY_RETRY: Duration = Duration::from_secs(10);

/// Runs `attempt` again, every 20 ms, while it fails with `EAGAIN`, for up to `BUSY_RETRY`.
///
/// # Errors
/// The last error of `attempt`.
pub fn retry_busy<T>(mut attempt: impl FnMut() -> std::io::Result<T>) -> std::io::Result<T> {
    let give_up = Moment::now() + BUSY_RETRY;
    loop {
        match attempt() {
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock && Moment::now() < give_up => {
                thread::sleep(Duration::from_millis(20));
            }
            result => return result,
        }
    }
}
