//! Runs one program on one input: stdin written on its own thread, stdout and stderr drained on
//! threads, wall time, exit status and the program's own peak memory from the measuring helper
//! (see [`crate::measure`]), and a deadline that stops it.
//!
//! When the program exits, or the judge stops it on a limit, its helper kills everything the
//! program started, also what left its process group or session (for instance with `setsid`),
//! before it exits itself. The judge never waits on a pipe for long: once the helper is gone,
//! the threads get a short grace period; a pipe still held open past it (by a process the helper
//! could not kill within its time) is abandoned, its thread detached.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::cleanup;
use crate::measure::{self, Said};
use crate::program::Program;
use crate::tree;

/// Limits for one run.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub time: Duration,
    /// Bytes of stdout kept; past this the run is stopped and reported as `OLE`.
    pub output: usize,
    /// Bytes of resident memory for every process of the run together (all below the helper,
    /// whatever their group or session), checked every `MEMORY_POLL` while it runs; past this
    /// the run is stopped.
    pub memory: Option<u64>,
}

/// How often the memory of a run with a memory limit is read.
const MEMORY_POLL: Duration = Duration::from_millis(20);

/// How the program ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Exited normally with this code.
    Code(i32),
    /// Killed by this signal (also when the judge killed it on time or output).
    Signal(i32),
}

/// What happened when the program ran.
#[derive(Debug)]
pub struct Outcome {
    pub stdout: Vec<u8>,
    /// The last few KiB of stderr.
    pub stderr_tail: Vec<u8>,
    /// From spawn to exit (or to the kill).
    pub wall: Duration,
    /// Peak resident memory in bytes.
    pub max_rss: u64,
    pub timed_out: bool,
    pub output_exceeded: bool,
    /// Stopped while running for going past `Limits::memory`.
    pub memory_exceeded: bool,
    pub exit: Exit,
}

const STDERR_TAIL: usize = 4096;

/// How long pipe threads may take to finish once the program is gone.
const GRACE: Duration = Duration::from_millis(500);

/// How long the helper may take to end a program's tree once asked to (it gives up after 10 s
/// of its own); past this the judge kills the helper and what it can see below it.
const HELPER_GRACE: Duration = Duration::from_secs(15);

/// Runs `program` with `input` on stdin, in a process group of its own.
///
/// # Errors
/// The program cannot be spawned or waited for, or a thread to feed or drain it cannot be
/// started (the program is then stopped).
pub fn run(program: &Program, input: Vec<u8>, limits: Limits) -> std::io::Result<Outcome> {
    let mut started = Started::spawn(program)?;
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let exceeded = Arc::new(AtomicBool::new(false));
    let stdout = Arc::new(Mutex::new(Vec::new()));
    let threads = (|| {
        let stdin = started.child.stdin.take().expect("stdin is piped");
        spawn_writer(stdin, input, done_tx.clone())?;
        let stdout_pipe = started.child.stdout.take().expect("stdout is piped");
        let cap = limits.output;
        let flag = Arc::clone(&exceeded);
        spawn_stdout_reader(stdout_pipe, Arc::clone(&stdout), cap, flag, done_tx.clone())?;
        started.drain_stderr(done_tx)
    })();
    let stderr = match threads {
        Ok(stderr) => stderr,
        Err(e) => {
            started.stop();
            return Err(e);
        }
    };
    let ended = started.wait(limits, &exceeded)?;
    await_threads(&done_rx, 3);
    let stdout = std::mem::take(&mut *stdout.lock().unwrap_or_else(|e| e.into_inner()));
    Ok(ended.outcome(stdout, &stderr))
}

/// A program spawned under the measuring helper, in a process group of its own, its three pipes
/// open for the caller to take.
pub struct Started {
    pub child: std::process::Child,
    report: measure::Report,
    start: Instant,
}

/// How a started program ended: everything in an [`Outcome`] but its output.
pub struct Ended {
    /// When the program exited or the judge decided to stop it.
    pub at: Instant,
    wall: Duration,
    max_rss: u64,
    timed_out: bool,
    output_exceeded: bool,
    memory_exceeded: bool,
    exit: Exit,
}

impl Started {
    /// Spawns `program` under its helper, with its stdin, stdout and stderr piped; the clock
    /// starts now.
    ///
    /// # Errors
    /// The helper cannot be spawned.
    pub fn spawn(program: &Program) -> std::io::Result<Started> {
        let (mut cmd, report, write_end) = measure::Report::wrap(&program.command())?;
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let start = Instant::now();
        let child = retry_busy(|| cleanup::spawn(&mut cmd, true))?;
        drop(write_end);
        Ok(Started {
            child,
            report,
            start,
        })
    }

    /// Drains stderr on a thread, which signals `done` at its end; the last few KiB are kept.
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn drain_stderr(&mut self, done: mpsc::Sender<()>) -> std::io::Result<Arc<Mutex<Vec<u8>>>> {
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let pipe = self.child.stderr.take().expect("stderr is piped");
        spawn_stderr_reader(pipe, Arc::clone(&stderr), done)?;
        Ok(stderr)
    }

    /// Stops the program and everything below its helper, and reaps the helper (when the run
    /// cannot go on).
    pub fn stop(self) {
        let pid = self.child.id() as libc::pid_t;
        let mut status = 0;
        // SAFETY: rusage is plain old data.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        stop_helper(pid, &mut status, &mut usage);
    }

    /// Waits for the program within `limits` (`exceeded` is set by whoever reads its stdout when
    /// it floods), and for its helper to end everything the program started.
    ///
    /// # Errors
    /// The program cannot be waited for, or could not be forked.
    pub fn wait(self, limits: Limits, exceeded: &AtomicBool) -> std::io::Result<Ended> {
        let pid = self.child.id() as libc::pid_t;
        let waited = wait(pid, self.start, limits, exceeded)?;
        let report = self.report.read();
        let measured = match report.said {
            Some(Said::Ran(m)) => Some(m),
            Some(Said::NoFork(errno)) => return Err(std::io::Error::from_raw_os_error(errno)),
            None => {
                // The helper was killed (by the program itself?): its program and what it
                // started were adopted by the judge.
                if let Some(program) = report.program {
                    // SAFETY: kill has no memory effects; the group is the program's.
                    unsafe { libc::kill(-program, libc::SIGKILL) };
                }
                cleanup::sweep_orphans();
                None
            }
        };
        Ok(Ended {
            at: waited.at,
            // A run the judge stopped lasted until it decided to (killing a large tree, a fork
            // bomb, can take a while on a loaded machine).
            wall: match (measured, waited.stop) {
                (Some(m), None) => m.wall,
                _ => waited.wall,
            },
            // Without the helper's report (the helper was killed), its own peak is the best
            // figure left: it counts the judge's pages too.
            max_rss: measured.map_or_else(
                || (u64::try_from(waited.usage.ru_maxrss).unwrap_or(0) * 1024).max(waited.seen_rss),
                |m| m.max_rss.max(waited.seen_rss),
            ),
            timed_out: waited.stop == Some(Stop::Time),
            output_exceeded: waited.stop == Some(Stop::Output) || exceeded.load(Ordering::SeqCst),
            memory_exceeded: waited.stop == Some(Stop::Memory),
            exit: exit_of(measured.map_or(waited.status, |m| m.status)),
        })
    }
}

impl Ended {
    /// The outcome, with what the program wrote on stdout and its stderr so far.
    #[must_use]
    pub fn outcome(self, stdout: Vec<u8>, stderr: &Mutex<Vec<u8>>) -> Outcome {
        Outcome {
            stdout,
            stderr_tail: tail(&stderr.lock().unwrap_or_else(|e| e.into_inner())),
            wall: self.wall,
            max_rss: self.max_rss,
            timed_out: self.timed_out,
            output_exceeded: self.output_exceeded,
            memory_exceeded: self.memory_exceeded,
            exit: self.exit,
        }
    }
}

/// Waits for `n` pipe threads to signal `done`, for at most `GRACE` in all.
pub fn await_threads(done: &mpsc::Receiver<()>, n: usize) {
    let grace_end = Instant::now() + GRACE;
    for _ in 0..n {
        let left = grace_end.saturating_duration_since(Instant::now());
        if done.recv_timeout(left).is_err() {
            break;
        }
    }
}

/// How long a thread or a helper that cannot start for want of processes or memory (`EAGAIN`)
/// is tried again: a fork bomb in another case frees them once it is stopped.
const BUSY_RETRY: Duration = Duration::from_secs(10);

/// Runs `attempt` again, every 20 ms, while it fails with `EAGAIN`, for up to `BUSY_RETRY`.
///
/// # Errors
/// The last error of `attempt`.
pub fn retry_busy<T>(mut attempt: impl FnMut() -> std::io::Result<T>) -> std::io::Result<T> {
    let give_up = Instant::now() + BUSY_RETRY;
    loop {
        match attempt() {
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock && Instant::now() < give_up => {
                thread::sleep(Duration::from_millis(20));
            }
            result => return result,
        }
    }
}

/// Starts a thread named `name` running `f`, trying again while the system is out of threads
/// (see [`retry_busy`]).
///
/// # Errors
/// The thread cannot be started.
pub fn spawn_thread(name: &str, f: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    // A failed spawn drops its closure: the job stays here for the next attempt.
    let job = Arc::new(Mutex::new(Some(f)));
    retry_busy(|| {
        let job = Arc::clone(&job);
        thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                let f = job.lock().unwrap_or_else(|e| e.into_inner()).take();
                if let Some(f) = f {
                    f();
                }
            })
            .map(drop)
    })
    .map_err(|e| std::io::Error::new(e.kind(), format!("cannot start a thread: {e}")))
}

fn spawn_writer(
    mut stdin: std::process::ChildStdin,
    input: Vec<u8>,
    done: mpsc::Sender<()>,
) -> std::io::Result<()> {
    spawn_thread("stdin", move || {
        // A program that never reads or closes stdin early is not an error of ours.
        let _ = stdin.write_all(&input);
        drop(stdin);
        let _ = done.send(());
    })
}

fn spawn_stdout_reader(
    mut pipe: std::process::ChildStdout,
    kept: Arc<Mutex<Vec<u8>>>,
    cap: usize,
    exceeded: Arc<AtomicBool>,
    done: mpsc::Sender<()>,
) -> std::io::Result<()> {
    spawn_thread("stdout", move || {
        let mut buf = vec![0u8; 64 * 1024];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
            if kept.len() + n > cap {
                let room = cap - kept.len();
                kept.extend_from_slice(&buf[..room]);
                exceeded.store(true, Ordering::SeqCst);
                break;
            }
            kept.extend_from_slice(&buf[..n]);
        }
        let _ = done.send(());
    })
}

/// Drains `pipe` on a thread into `kept`, of which the last few KiB stay; signals `done` at the
/// end.
///
/// # Errors
/// The thread cannot be started.
pub fn spawn_stderr_reader(
    mut pipe: impl Read + Send + 'static,
    kept: Arc<Mutex<Vec<u8>>>,
    done: mpsc::Sender<()>,
) -> std::io::Result<()> {
    spawn_thread("stderr", move || {
        let mut buf = vec![0u8; 16 * 1024];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
            kept.extend_from_slice(&buf[..n]);
            if kept.len() > 2 * STDERR_TAIL {
                let cut = kept.len() - STDERR_TAIL;
                kept.drain(..cut);
            }
        }
        let _ = done.send(());
    })
}

fn tail(bytes: &[u8]) -> Vec<u8> {
    bytes[bytes.len().saturating_sub(STDERR_TAIL)..].to_vec()
}

/// Why the judge stopped a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Time,
    Output,
    Memory,
}

struct Waited {
    status: libc::c_int,
    usage: libc::rusage,
    wall: Duration,
    stop: Option<Stop>,
    /// The largest group RSS seen while polling, in bytes.
    seen_rss: u64,
    /// When the program was seen to exit, or the judge decided to stop it.
    at: Instant,
}

/// Polls the helper `pid` until it exits, the deadline passes, stdout overflows or the memory of
/// the processes below it goes past its limit; stops them in the last three cases. The poll
/// interval starts at 50 µs and grows to 1 ms, so that quick runs are timed closely and long ones
/// cost little.
fn wait(
    pid: libc::pid_t,
    start: Instant,
    limits: Limits,
    exceeded: &AtomicBool,
) -> std::io::Result<Waited> {
    let deadline = start + limits.time;
    let mut next_memory_check = start + MEMORY_POLL;
    let mut seen_rss = 0;
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data, all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut pause = Duration::from_micros(50);
    loop {
        // SAFETY: pid is our child; status and usage are valid pointers.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            cleanup::remove_helper(pid);
            let wall = start.elapsed();
            return Ok(Waited {
                status,
                usage,
                wall,
                stop: None,
                seen_rss,
                at: Instant::now(),
            });
        }
        if r < 0 {
            let err = std::io::Error::last_os_error();
            if err.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        let now = Instant::now();
        let mut stop = if exceeded.load(Ordering::SeqCst) {
            Some(Stop::Output)
        } else if now >= deadline {
            Some(Stop::Time)
        } else {
            None
        };
        if let (Some(limit), None) = (limits.memory, stop) {
            if now >= next_memory_check {
                next_memory_check = now + MEMORY_POLL;
                seen_rss = seen_rss.max(tree::rss(pid));
                stop = (seen_rss > limit).then_some(Stop::Memory);
            }
        }
        if stop.is_some() {
            let at = Instant::now();
            stop_helper(pid, &mut status, &mut usage);
            return Ok(Waited {
                status,
                usage,
                wall: at - start,
                stop,
                seen_rss,
                at,
            });
        }
        thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(1));
    }
}

pub fn exit_of(status: libc::c_int) -> Exit {
    if libc::WIFEXITED(status) {
        Exit::Code(libc::WEXITSTATUS(status))
    } else if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Signal(0)
    }
}

/// Asks the helper `pid` to end its program and everything below it (SIGTERM), and reaps it,
/// with its status and usage; if it has not exited within [`HELPER_GRACE`], kills what is below
/// it and the helper itself.
fn stop_helper(pid: libc::pid_t, status: &mut libc::c_int, usage: &mut libc::rusage) {
    // SAFETY: kill has no memory effects; the helper is our child, not yet reaped.
    unsafe { libc::kill(pid, libc::SIGTERM) };
    let give_up = Instant::now() + HELPER_GRACE;
    loop {
        // SAFETY: pid is our child; status and usage are valid pointers.
        let r = unsafe { libc::wait4(pid, status, libc::WNOHANG, usage) };
        if r == pid
            || (r < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted)
        {
            break;
        }
        if Instant::now() >= give_up {
            tree::kill_below(pid);
            // SAFETY: as above, blocking until the killed helper is reaped.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::wait4(pid, status, 0, usage);
            }
            break;
        }
        thread::sleep(Duration::from_millis(1));
    }
    cleanup::remove_helper(pid);
}

/// Kills the process group `pgid` (an interactor's) and forgets it.
pub fn kill_group(pgid: libc::pid_t) {
    // SAFETY: kill has no memory effects; the group id is our child's own.
    unsafe { libc::kill(-pgid, libc::SIGKILL) };
    cleanup::remove_group(pgid);
}
