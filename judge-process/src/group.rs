//! A command run in a process group of its own, for a compiler or a build script: the group is
//! recorded in the registry while it runs (so that the judge, stopped by SIGTERM or SIGINT, kills
//! it), and killed whole at the command's end or at its time limit, so that nothing it started
//! in its group outlives it (a compiler's `cc1`, a script's background job). On Ctrl-Z the judge
//! stops the group with everything else it runs, and its time limit stands still meanwhile.

use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::clock::Moment;
use super::registry;
use super::sys::{self, Pid};

/// How often a running command is looked at.
const POLL: Duration = Duration::from_millis(10);

/// How a command run in its own group ended.
#[derive(Debug)]
pub struct GroupRun {
    /// Its exit status; an error if it could not be waited for.
    pub status: std::io::Result<ExitStatus>,
    /// It was still running at its time limit, and was killed.
    pub timed_out: bool,
    /// The first bytes of its stdout and of its stderr.
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Runs `cmd`, stdin empty, to its end or `limit`, in a process group of its own that is killed
/// at the end; keeps the first `kept` bytes of its stdout and of its stderr (the rest is read
/// and dropped, so that the command never blocks on a full pipe).
///
/// # Errors
/// The command cannot be started.
pub fn run_in_group(mut cmd: Command, limit: Duration, kept: u64) -> std::io::Result<GroupRun> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let (mut child, group) = registry::spawn_group(&mut cmd)?;
    let leader = group.pgid();
    let out = drain(child.stdout.take(), kept);
    let err = drain(child.stderr.take(), kept);
    let timed_out = !ends_within(leader, limit);
    // The leader has ended (or is still running) but is not reaped: the group's number is still
    // its own. Whatever it left in its group goes too, so that the pipes close.
    let _ = sys::kill_group(leader, sys::SIGKILL);
    group.forget();
    let status = child.wait();
    reap_group(leader);
    Ok(GroupRun {
        status,
        timed_out,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    })
}

/// Reads `pipe` to its end on a thread of its own, keeping its first `kept` bytes.
fn drain<R: Read + Send + 'static>(pipe: Option<R>, kept: u64) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut head = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.by_ref().take(kept).read_to_end(&mut head);
            let _ = std::io::copy(&mut pipe, &mut std::io::sink());
        }
        head
    })
}

/// Waits until the child `leader` has ended (left unreaped), for at most `limit`; false if it
/// still runs then. A child that cannot be waited for counts as ended (reaping it then fails).
fn ends_within(leader: Pid, limit: Duration) -> bool {
    // On the judge's running clock: a pause of the judge (Ctrl-Z) does not count.
    let deadline = Moment::now() + limit;
    loop {
        match sys::ended(leader, true) {
            Ok(Some(_)) => return true,
            Ok(None) if Moment::now() < deadline => std::thread::sleep(POLL),
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
