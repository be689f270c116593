//! Runs one program on one input: stdin written at once (on a thread of its own only when the
//! pipe cannot take it all), stdout and stderr read by the thread that waits for the run, wall
//! time, exit status and the program's own peak memory from the measuring helper
//! (see [`crate::spawn`]), and a deadline that stops it.
//!
//! When the program exits, or the judge stops it on a limit, its helper kills everything the
//! program started, also what left its process group or session (for instance with `setsid`),
//! before it exits itself. The judge never waits on a pipe for long: once the helper is gone,
//! the threads get a short grace period; a pipe still held open past it (by a process the helper
//! could not kill within its time) is abandoned, its thread detached.

use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use std::process::Command;

use crate::clock::Moment;
use crate::launch::retry_busy;
use crate::spawn::{Drain, Ended, Exit, Limits, Started, Timing};
use crate::sys;

/// What happened when the program ran.
#[derive(Debug)]
pub struct Outcome {
    pub stdout: Vec<u8>,
    /// The last few KiB of stderr.
    pub stderr_tail: Vec<u8>,
    /// From spawn to exit (or to the kill), the judge's pauses (Ctrl-Z) left out.
    pub wall: Duration,
    /// The CPU time, user and system, of every process of the run together.
    pub cpu: Duration,
    /// The clock of the run's limit: which of `wall` and `cpu` is its time.
    pub timing: Timing,
    /// Peak resident memory in bytes.
    pub max_rss: u64,
    pub timed_out: bool,
    pub output_exceeded: bool,
    /// Stopped while running for going past `Limits::memory`.
    pub memory_exceeded: bool,
    pub exit: Exit,
}

impl Outcome {
    /// The run's time on the clock of its limit.
    #[must_use]
    pub fn time(&self) -> Duration {
        self.timing.of(self.wall, self.cpu)
    }
}

const STDERR_TAIL: usize = 4096;

/// How long pipe threads may take to finish once the program is gone.
const GRACE: Duration = Duration::from_millis(500);

/// Runs `program` with `input` on stdin, in a process group of its own.
///
/// # Errors
/// The program cannot be spawned or waited for, or a thread to feed it cannot be started (the
/// program is then stopped).
pub fn run(program: &Command, input: Vec<u8>, limits: Limits) -> std::io::Result<Outcome> {
    let mut started = Started::spawn(program)?;
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let stdin = started.child.stdin.take().expect("stdin is piped");
    if let Err(e) = spawn_writer(stdin, input, done_tx) {
        started.stop();
        return Err(e);
    }
    let exceeded = AtomicBool::new(false);
    let mut output = Output::new(&mut started, limits.output, &exceeded);
    let ended = started.wait_draining(limits, &exceeded, &mut output)?;
    output.finish();
    await_threads(&done_rx, 1);
    Ok(outcome_with_tail(
        &ended,
        output.stdout,
        tail(&output.stderr),
    ))
}

/// A run's stdout and stderr, read by the thread that waits for the run (see
/// [`Started::wait_draining`]), without threads of their own.
struct Output<'a> {
    stdout_pipe: Option<std::process::ChildStdout>,
    stderr_pipe: Option<std::process::ChildStderr>,
    /// What the program wrote on stdout, up to `cap` bytes.
    stdout: Vec<u8>,
    /// The end of what it wrote on stderr: at most twice [`STDERR_TAIL`].
    stderr: Vec<u8>,
    cap: usize,
    /// Set once stdout has gone past `cap` (its pipe is then closed).
    exceeded: &'a AtomicBool,
    buf: Vec<u8>,
}

impl<'a> Output<'a> {
    /// Takes the pipes of `started`, made non-blocking.
    fn new(started: &mut Started, cap: usize, exceeded: &'a AtomicBool) -> Output<'a> {
        let stdout_pipe = started.child.stdout.take();
        let stderr_pipe = started.child.stderr.take();
        for fd in stdout_pipe
            .iter()
            .map(AsRawFd::as_raw_fd)
            .chain(stderr_pipe.iter().map(AsRawFd::as_raw_fd))
        {
            sys::set_nonblocking(fd);
        }
        Output {
            stdout_pipe,
            stderr_pipe,
            stdout: Vec::new(),
            stderr: Vec::new(),
            cap,
            exceeded,
            buf: vec![0u8; 64 * 1024],
        }
    }

    /// Reads both pipes to their ends, for at most [`GRACE`] on the judge's running clock once
    /// the run is over; a pipe still held open past it (by a process the helper could not kill
    /// within its time) is abandoned.
    fn finish(&mut self) {
        let grace_end = Moment::now() + GRACE;
        loop {
            self.read_ready();
            let fds = self.fds();
            let wait = grace_end.since(Moment::now());
            if fds.is_empty() || wait.is_zero() {
                break;
            }
            let _ = sys::wait_readable(&fds, wait.min(SLICE));
        }
        self.stdout_pipe = None;
        self.stderr_pipe = None;
    }

    /// Reads what stdout holds now into `stdout`: whether it is still open.
    fn read_stdout(&mut self) -> bool {
        let Some(pipe) = &mut self.stdout_pipe else {
            return false;
        };
        loop {
            match pipe.read(&mut self.buf) {
                Ok(0) => return false,
                Ok(n) => {
                    if self.stdout.len() + n > self.cap {
                        let room = self.cap - self.stdout.len();
                        self.stdout.extend_from_slice(&self.buf[..room]);
                        self.exceeded.store(true, Ordering::SeqCst);
                        return false;
                    }
                    self.stdout.extend_from_slice(&self.buf[..n]);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return e.kind() == std::io::ErrorKind::WouldBlock,
            }
        }
    }

    /// Reads what stderr holds now, keeping its end: whether it is still open.
    fn read_stderr(&mut self) -> bool {
        let Some(pipe) = &mut self.stderr_pipe else {
            return false;
        };
        loop {
            match pipe.read(&mut self.buf) {
                Ok(0) => return false,
                Ok(n) => keep_tail(&mut self.stderr, &self.buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return e.kind() == std::io::ErrorKind::WouldBlock,
            }
        }
    }
}

impl Drain for Output<'_> {
    fn fds(&self) -> Vec<std::os::fd::RawFd> {
        let out = self.stdout_pipe.as_ref().map(AsRawFd::as_raw_fd);
        let err = self.stderr_pipe.as_ref().map(AsRawFd::as_raw_fd);
        out.into_iter().chain(err).collect()
    }

    fn read_ready(&mut self) {
        if !self.read_stdout() {
            // At its end, or past the cap: closed, so that a program still writing gets EPIPE.
            self.stdout_pipe = None;
        }
        if !self.read_stderr() {
            self.stderr_pipe = None;
        }
    }
}

/// The outcome of a program that `ended`, with what it wrote on stdout and its stderr so far.
#[must_use]
pub fn outcome(ended: &Ended, stdout: Vec<u8>, stderr: &Mutex<Vec<u8>>) -> Outcome {
    let stderr_tail = tail(&stderr.lock().unwrap_or_else(|e| e.into_inner()));
    outcome_with_tail(ended, stdout, stderr_tail)
}

/// The outcome of a program that `ended`, with its stdout and the tail of its stderr.
fn outcome_with_tail(ended: &Ended, stdout: Vec<u8>, stderr_tail: Vec<u8>) -> Outcome {
    Outcome {
        stdout,
        stderr_tail,
        wall: ended.wall,
        cpu: ended.cpu,
        timing: ended.timing,
        max_rss: ended.max_rss,
        timed_out: ended.timed_out,
        output_exceeded: ended.output_exceeded,
        memory_exceeded: ended.memory_exceeded,
        exit: ended.exit,
    }
}

/// Drains the program's stderr on a thread, which signals `done` at its end; the last few KiB
/// are kept.
///
/// # Errors
/// The thread cannot be started.
pub fn drain_stderr(started: &mut Started, done: mpsc::Sender<()>) -> std::io::Result<Stderr> {
    let stderr = Arc::new(Mutex::new(Vec::new()));
    let pipe = started.child.stderr.take().expect("stderr is piped");
    spawn_stderr_reader(pipe, Arc::clone(&stderr), done)?;
    Ok(stderr)
}

/// The tail of a process's stderr, filled by its draining thread.
pub type Stderr = Arc<Mutex<Vec<u8>>>;

/// Waits for `n` pipe threads to signal `done`, for at most `GRACE` in all on the judge's
/// running clock (a pause of the judge meanwhile does not cut the threads short).
pub fn await_threads(done: &mpsc::Receiver<()>, n: usize) {
    let grace_end = Moment::now() + GRACE;
    let mut left = n;
    while left > 0 {
        let wait = grace_end.since(Moment::now());
        if wait.is_zero() {
            break;
        }
        // In slices, so that the running clock is read again after a pause.
        match done.recv_timeout(wait.min(SLICE)) {
            Ok(()) => left -= 1,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
}

/// How long [`await_threads`] waits at a time.
const SLICE: Duration = Duration::from_millis(50);

/// Starts a thread named `name` running `f`, trying again every 20 ms, for up to 10 s, while the
/// system is out of threads (`EAGAIN`: a fork bomb of a program elsewhere).
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

/// Feeds `input` to the program's `stdin` and closes it, then signals `done`: at once where the
/// pipe takes it all without waiting (a small input, the common case), else on a thread.
///
/// # Errors
/// The thread cannot be started.
fn spawn_writer(
    mut stdin: std::process::ChildStdin,
    mut input: Vec<u8>,
    done: mpsc::Sender<()>,
) -> std::io::Result<()> {
    let taken = sys::write_now(stdin.as_raw_fd(), &input);
    if taken == input.len() {
        drop(stdin);
        let _ = done.send(());
        return Ok(());
    }
    input.drain(..taken);
    spawn_thread("stdin", move || {
        // A program that never reads or closes stdin early is not an error of ours.
        let _ = stdin.write_all(&input);
        drop(stdin);
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
            keep_tail(
                &mut kept.lock().unwrap_or_else(|e| e.into_inner()),
                &buf[..n],
            );
        }
        let _ = done.send(());
    })
}

/// Appends `bytes` to `kept`, which keeps at most twice [`STDERR_TAIL`] of the end.
fn keep_tail(kept: &mut Vec<u8>, bytes: &[u8]) {
    kept.extend_from_slice(bytes);
    if kept.len() > 2 * STDERR_TAIL {
        let cut = kept.len() - STDERR_TAIL;
        kept.drain(..cut);
    }
}

fn tail(bytes: &[u8]) -> Vec<u8> {
    bytes[bytes.len().saturating_sub(STDERR_TAIL)..].to_vec()
}
