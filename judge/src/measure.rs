//! The program's own peak memory and exit status, measured by a small helper process that also
//! ends everything the program started.
//!
//! The kernel's peak RSS of a process (`ru_maxrss`) counts every page it held since it was
//! forked, including the pages of the parent it was forked from, up to its `exec`. A program
//! spawned straight from the judge would thus report at least the judge's own size. So the judge
//! runs itself as a helper (`judge __measure FD NPROC PROGRAM ARGS...`): the freshly started
//! helper, which holds only a few pages, forks the program into a process group of its own, waits
//! for it, and writes its status, peak memory and wall time to the pipe `FD`.
//!
//! The helper is a child subreaper (`PR_SET_CHILD_SUBREAPER`): a process the program started
//! whose parent exits is adopted by the helper, not by init, even if it left the program's group
//! or session (`setsid`, `set -m`, `setpgid`). Once the program has exited, the helper kills its
//! group and every process below itself, reaps them, and only then reports and exits; so when
//! the helper is gone, so is everything of its case. On SIGTERM (the judge stopping the case on
//! a limit, or stopping altogether) it kills the program's group, then does the same. The helper
//! also gets SIGTERM if the judge's thread that started it dies (`PR_SET_PDEATHSIG`), so that a
//! judge killed with SIGKILL does not leave programs running.
//!
//! The program runs under a limit of processes (`RLIMIT_NPROC`, see `PROCESSES`), lower than
//! the judge's own, so that a fork bomb leaves the judge room to start its threads.

use std::ffi::{CString, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The helper's first argument.
pub const HELPER: &str = "__measure";

/// Processes the program may start beyond those its user already runs (`RLIMIT_NPROC`).
const PROCESSES: u64 = 512;

/// Processes kept for the judge under its own `RLIMIT_NPROC`, if it has one: the program's limit
/// is this much lower, so that a fork bomb cannot take the last processes the judge may start.
const JUDGE_RESERVE: u64 = 64;

/// How long the helper keeps killing what is left below it before it gives up (processes stuck
/// in the kernel).
const CLEANUP: Duration = Duration::from_secs(10);

/// What the helper saw of the program.
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    /// The raw wait status.
    pub status: libc::c_int,
    /// The largest peak resident memory of any one process of the case, in bytes.
    pub max_rss: u64,
    /// From fork to exit.
    pub wall: Duration,
}

/// What the helper reported.
#[derive(Clone, Copy, Debug)]
pub enum Said {
    /// The program ran.
    Ran(Measured),
    /// The program could not be forked: the `errno`.
    NoFork(i32),
}

/// Everything the helper wrote: the program's pid once forked, then how it ended.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reported {
    /// The program's pid, also its process group.
    pub program: Option<libc::pid_t>,
    /// `None` if the helper was killed before its report.
    pub said: Option<Said>,
}

/// The read end of the helper's report pipe.
pub struct Report {
    fd: libc::c_int,
}

impl Report {
    /// `command` wrapped in the helper, with the read end of the pipe it will report on, and the
    /// judge's copy of the write end, to drop as soon as the command is spawned. The helper gets
    /// SIGTERM if the thread that spawns it ends.
    ///
    /// # Errors
    /// The judge cannot find itself, or the pipe cannot be made.
    pub fn wrap(command: &Command) -> std::io::Result<(Command, Report, WriteEnd)> {
        let exe = std::env::current_exe()?;
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: fds has room for the two descriptors.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let (read, write) = (fds[0], fds[1]);
        let mut wrapped = Command::new(exe);
        wrapped
            .arg(HELPER)
            .arg(write.to_string())
            .arg(process_limit().to_string())
            .arg(command.get_program())
            .args(command.get_args());
        if let Some(dir) = command.get_current_dir() {
            wrapped.current_dir(dir);
        }
        // SAFETY: fcntl and prctl are async-signal-safe; the helper (only) keeps the write end.
        unsafe {
            wrapped.pre_exec(move || {
                let deathsig = libc::SIGTERM as libc::c_ulong;
                if libc::fcntl(write, libc::F_SETFD, 0) == 0
                    && libc::prctl(libc::PR_SET_PDEATHSIG, deathsig) == 0
                {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
        Ok((wrapped, Report { fd: read }, WriteEnd(write)))
    }

    /// What the helper wrote, once it has exited: `pid N` once the program is forked, then its
    /// report (`nofork ERRNO`, or the status, peak RSS in KiB and wall time in nanoseconds).
    #[must_use]
    pub fn read(&self) -> Reported {
        let mut buf = [0u8; 256];
        // SAFETY: buf is valid for its length; the pipe is non-blocking.
        let n = unsafe { libc::read(self.fd, buf.as_mut_ptr().cast(), buf.len()) };
        let text = usize::try_from(n)
            .ok()
            .and_then(|n| std::str::from_utf8(&buf[..n]).ok())
            .unwrap_or("");
        let mut reported = Reported::default();
        for line in text.lines() {
            if let Some(pid) = line.strip_prefix("pid ") {
                reported.program = pid.parse().ok();
            } else {
                reported.said = said(line);
            }
        }
        reported
    }
}

/// One report line.
fn said(line: &str) -> Option<Said> {
    if let Some(errno) = line.strip_prefix("nofork ") {
        return Some(Said::NoFork(errno.trim().parse().ok()?));
    }
    let mut f = line.split_whitespace().map(str::parse::<u64>);
    let (status, kib, nanos) = (f.next()?.ok()?, f.next()?.ok()?, f.next()?.ok()?);
    Some(Said::Ran(Measured {
        status: libc::c_int::try_from(status).ok()?,
        max_rss: kib * 1024,
        wall: Duration::from_nanos(nanos),
    }))
}

impl Drop for Report {
    fn drop(&mut self) {
        // SAFETY: the descriptor is ours.
        unsafe { libc::close(self.fd) };
    }
}

/// The judge's copy of the write end, closed on drop (after the spawn).
pub struct WriteEnd(libc::c_int);

impl Drop for WriteEnd {
    fn drop(&mut self) {
        // SAFETY: the descriptor is ours.
        unsafe { libc::close(self.0) };
    }
}

/// The helper: `args` are `FD NPROC PROGRAM ARGS...`. Runs the program with `RLIMIT_NPROC` at
/// `NPROC` (at most the helper's hard limit), reports on `FD`, exits 0; exits 127 if the
/// arguments are wrong.
pub fn helper(args: &[OsString]) -> std::process::ExitCode {
    let number = |i: usize| args.get(i).and_then(|a| a.to_str()?.parse::<u64>().ok());
    let fd = number(0).and_then(|fd| libc::c_int::try_from(fd).ok());
    let argv: Option<Vec<CString>> = args
        .get(2..)
        .map(|a| a.iter().map(|s| CString::new(s.as_bytes()).ok()).collect())
        .and_then(|v: Option<Vec<CString>>| v.filter(|v| !v.is_empty()));
    let (Some(fd), Some(nproc), Some(argv)) = (fd, number(1), argv) else {
        return std::process::ExitCode::from(127);
    };
    let report = run(fd, nproc, &argv);
    // SAFETY: report is valid for its length; the program must not inherit the pipe, and has not.
    unsafe { libc::write(fd, report.as_ptr().cast(), report.len()) };
    std::process::ExitCode::SUCCESS
}

/// The program's process group (its pid) once forked, for the SIGTERM handler; 0 before.
static PROGRAM: AtomicI32 = AtomicI32::new(0);

/// On SIGTERM: kill the program's group; the helper's wait then returns, and it ends the rest.
extern "C" fn on_sigterm(_: libc::c_int) {
    let pgid = PROGRAM.load(Ordering::SeqCst);
    if pgid > 0 {
        // SAFETY: async-signal-safe; the group is the program's own.
        unsafe { libc::kill(-pgid, libc::SIGKILL) };
    }
}

/// Runs the program and ends everything below the helper; the report line.
fn run(fd: libc::c_int, nproc: u64, argv: &[CString]) -> String {
    let mut ptrs: Vec<*const libc::c_char> = argv.iter().map(|a| a.as_ptr()).collect();
    ptrs.push(std::ptr::null());
    let sigterm = signal_set(libc::SIGTERM);
    let empty = empty_signal_set();
    // SAFETY: plain system calls on valid arguments. SIGTERM stays blocked until the program's
    // group is known to the handler; the handler is installed without SA_RESTART, so that it
    // interrupts the wait.
    unsafe {
        libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong);
        libc::sigprocmask(libc::SIG_BLOCK, &sigterm, std::ptr::null_mut());
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigterm as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut());
    }
    let mut nproc_limit = libc::rlimit {
        rlim_cur: libc::RLIM_INFINITY,
        rlim_max: libc::RLIM_INFINITY,
    };
    // SAFETY: nproc_limit is a valid pointer.
    unsafe { libc::getrlimit(libc::RLIMIT_NPROC, &mut nproc_limit) };
    nproc_limit.rlim_cur = nproc.min(nproc_limit.rlim_max);
    let start = Instant::now();
    // SAFETY: the helper is single-threaded; the child only calls async-signal-safe functions.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        // SAFETY: ptrs is a null-terminated array of C strings that outlive the call.
        unsafe {
            libc::setrlimit(libc::RLIMIT_NPROC, &nproc_limit);
            libc::setpgid(0, 0);
            // The program starts as a shell would start it: SIGPIPE at its default (the helper,
            // a Rust program, ignores it, and an ignored signal stays ignored across exec: a
            // `producer | head -1` would then write on forever) and no signal blocked.
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
            libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
            libc::execvp(ptrs[0], ptrs.as_ptr());
            libc::_exit(127)
        }
    }
    if pid < 0 {
        let errno = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
        return format!("nofork {errno}\n");
    }
    let forked = format!("pid {pid}\n");
    // SAFETY: as above; setpgid here too, so that the group exists before the handler may run.
    unsafe {
        libc::write(fd, forked.as_ptr().cast(), forked.len());
        libc::setpgid(pid, pid);
        PROGRAM.store(pid, Ordering::SeqCst);
        libc::sigprocmask(libc::SIG_UNBLOCK, &sigterm, std::ptr::null_mut());
    }
    let (status, usage) = wait_for(pid);
    let wall = start.elapsed();
    end_all(pid);
    // SAFETY: rusage is plain old data.
    let mut children: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: children is a valid pointer.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut children) };
    let max_rss = usage.ru_maxrss.max(children.ru_maxrss);
    format!("{status} {max_rss} {}\n", wall.as_nanos())
}

/// The programs' `RLIMIT_NPROC`: [`PROCESSES`] more than the judge's user ran when the first
/// program started (read once: reading `/proc` for each case would cost milliseconds), and
/// [`JUDGE_RESERVE`] fewer than the judge's own limit. The kernel applies it to every user but
/// root (and holders of `CAP_SYS_RESOURCE`).
fn process_limit() -> u64 {
    static LIMIT: OnceLock<u64> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        let mut limit = libc::rlimit {
            rlim_cur: libc::RLIM_INFINITY,
            rlim_max: libc::RLIM_INFINITY,
        };
        // SAFETY: limit is a valid pointer; getuid has no memory effects.
        let uid = unsafe {
            libc::getrlimit(libc::RLIMIT_NPROC, &mut limit);
            libc::getuid()
        };
        let ours = user_tasks(uid) + PROCESSES;
        if limit.rlim_cur == libc::RLIM_INFINITY {
            ours
        } else {
            ours.min(limit.rlim_cur.saturating_sub(JUDGE_RESERVE))
        }
    })
}

/// The processes and threads that real user `uid` runs (what `RLIMIT_NPROC` counts), from
/// `/proc/N/status`.
fn user_tasks(uid: libc::uid_t) -> u64 {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let uid = uid.to_string();
    let field = |status: &str, name: &str| -> Option<String> {
        let line = status.lines().find_map(|l| l.strip_prefix(name))?;
        Some(line.split_whitespace().next()?.to_owned())
    };
    dir.filter_map(Result::ok)
        .filter_map(|e| std::fs::read_to_string(e.path().join("status")).ok())
        .filter(|status| field(status, "Uid:").as_deref() == Some(uid.as_str()))
        .filter_map(|status| field(&status, "Threads:")?.parse::<u64>().ok())
        .sum()
}

fn signal_set(signal: libc::c_int) -> libc::sigset_t {
    let mut set = empty_signal_set();
    // SAFETY: `set` is an initialised signal set.
    unsafe { libc::sigaddset(&mut set, signal) };
    set
}

/// The empty signal set.
fn empty_signal_set() -> libc::sigset_t {
    // SAFETY: sigset_t is plain old data, initialised by sigemptyset.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        set
    }
}

/// Waits for the program `pid`, reaping any other process that ends meanwhile (adopted ones
/// included, so that they do not pile up as zombies); its wait status and resource usage.
fn wait_for(pid: libc::pid_t) -> (libc::c_int, libc::rusage) {
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: the pointers are valid.
        let r = unsafe { libc::wait4(-1, &mut status, 0, &mut usage) };
        let interrupted =
            r < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted;
        if r == pid || (r < 0 && !interrupted) {
            return (status, usage);
        }
    }
}

/// Kills the program's group and every process below the helper, again until none is left (or
/// [`CLEANUP`] has passed), reaping them.
fn end_all(pid: libc::pid_t) {
    // SAFETY: getpid and kill have no memory effects; the group is the program's own.
    let me = unsafe {
        libc::kill(-pid, libc::SIGKILL);
        libc::getpid()
    };
    let deadline = Instant::now() + CLEANUP;
    loop {
        let mut status = 0;
        // SAFETY: status is a valid pointer.
        let r = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if r > 0 {
            continue;
        }
        let error = std::io::Error::last_os_error();
        if r < 0 && error.kind() != std::io::ErrorKind::Interrupted {
            return; // no child left: nothing is left below the helper
        }
        if Instant::now() >= deadline {
            return;
        }
        crate::tree::kill_below(me);
        std::thread::sleep(Duration::from_millis(1));
    }
}
