//! Runs one program on one input: stdin written on its own thread, stdout and stderr drained on
//! threads, wall time from spawn, peak memory from `wait4`, and a deadline that kills the group.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// Limits for one run.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub time: Duration,
    /// Bytes of stdout kept; past this the run is stopped and reported as `OLE`.
    pub output: usize,
}

/// What happened when the program ran.
#[derive(Debug)]
pub struct Outcome {
    pub stdout: Vec<u8>,
    /// The last few KiB of stderr.
    pub stderr_tail: Vec<u8>,
    pub wall: Duration,
    /// Peak resident memory in bytes.
    pub max_rss: u64,
    pub timed_out: bool,
    pub output_exceeded: bool,
    /// Exit code, if the program exited normally.
    pub code: Option<i32>,
    /// Signal number, if the program was killed by one.
    pub signal: Option<i32>,
}

const STDERR_TAIL: usize = 4096;

/// Runs `sh -c command` with `input` on stdin.
///
/// # Errors
/// Fails only if the shell cannot be spawned or waited for.
pub fn run(command: &str, input: Vec<u8>, limits: Limits) -> std::io::Result<Outcome> {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let start = Instant::now();
    let mut child = cmd.spawn()?;
    let pid = child.id() as libc::pid_t;

    let mut stdin = child.stdin.take().expect("stdin is piped");
    let writer = thread::spawn(move || {
        // A program that never reads or closes stdin early is not an error of ours.
        let _ = stdin.write_all(&input);
    });

    let exceeded = Arc::new(AtomicBool::new(false));
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let flag = Arc::clone(&exceeded);
    let cap = limits.output;
    let out_reader = thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 64 * 1024];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 {
                break;
            }
            if kept.len() + n > cap {
                flag.store(true, Ordering::SeqCst);
                let room = cap - kept.len();
                kept.extend_from_slice(&buf[..room]);
                break;
            }
            kept.extend_from_slice(&buf[..n]);
        }
        kept
    });

    let mut stderr = child.stderr.take().expect("stderr is piped");
    let err_reader = thread::spawn(move || {
        let mut tail = Vec::new();
        let mut buf = [0u8; 16 * 1024];
        while let Ok(n) = stderr.read(&mut buf) {
            if n == 0 {
                break;
            }
            tail.extend_from_slice(&buf[..n]);
            if tail.len() > 2 * STDERR_TAIL {
                tail.drain(..tail.len() - STDERR_TAIL);
            }
        }
        if tail.len() > STDERR_TAIL {
            tail.drain(..tail.len() - STDERR_TAIL);
        }
        tail
    });

    let deadline = start + limits.time;
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data, all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut timed_out = false;
    let mut killed_for_output = false;
    let wall;
    loop {
        // SAFETY: pid is our child; status and usage are valid pointers.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            wall = start.elapsed();
            break;
        }
        if r < 0 {
            let err = std::io::Error::last_os_error();
            if err.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        let now = Instant::now();
        let over_output = exceeded.load(Ordering::SeqCst);
        if now >= deadline || over_output {
            timed_out = !over_output;
            killed_for_output = over_output;
            kill_group(pid);
            // SAFETY: as above, now blocking until the killed child is reaped.
            unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
            wall = start.elapsed();
            break;
        }
        thread::sleep(Duration::from_micros(500).min(deadline - now));
    }
    // Children left behind may still hold the pipes open: end the whole group.
    kill_group(pid);
    let _ = writer.join();
    let stdout = out_reader.join().unwrap_or_default();
    let stderr_tail = err_reader.join().unwrap_or_default();

    let (code, signal) = if libc::WIFEXITED(status) {
        (Some(libc::WEXITSTATUS(status)), None)
    } else if libc::WIFSIGNALED(status) {
        (None, Some(libc::WTERMSIG(status)))
    } else {
        (None, None)
    };
    Ok(Outcome {
        stdout,
        stderr_tail,
        wall,
        max_rss: u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024,
        timed_out,
        output_exceeded: killed_for_output || exceeded.load(Ordering::SeqCst),
        code,
        signal,
    })
}

fn kill_group(pid: libc::pid_t) {
    // SAFETY: kill has no memory effects; the group id is our child's own.
    unsafe { libc::kill(-pid, libc::SIGKILL) };
}
