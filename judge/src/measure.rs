//! The program's own peak memory and exit status, measured by a small helper process.
//!
//! The kernel's peak RSS of a process (`ru_maxrss`) counts every page it held since it was
//! forked, including the pages of the parent it was forked from, up to its `exec`. A program
//! spawned straight from the judge would thus report at least the judge's own size. So the judge
//! runs itself as a helper (`judge __measure FD PROGRAM ARGS...`): the freshly started helper,
//! which holds only a few pages, forks the program, waits for it, and writes its status, peak
//! memory and wall time to the pipe `FD`. The helper and the program share the process group
//! that the judge kills on a limit; the helper then writes nothing, and the judge falls back to
//! what it measured itself.

use std::ffi::{CString, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::{Duration, Instant};

/// The helper's first argument.
pub const HELPER: &str = "__measure";

/// What the helper saw of the program.
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    /// The raw wait status.
    pub status: libc::c_int,
    /// Peak resident memory in bytes.
    pub max_rss: u64,
    /// From fork to exit.
    pub wall: Duration,
}

/// The read end of the helper's report pipe.
pub struct Report {
    fd: libc::c_int,
}

impl Report {
    /// `command` wrapped in the helper, with the read end of the pipe it will report on, and the
    /// judge's copy of the write end, to drop as soon as the command is spawned.
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
            .arg(command.get_program())
            .args(command.get_args());
        if let Some(dir) = command.get_current_dir() {
            wrapped.current_dir(dir);
        }
        // SAFETY: fcntl is async-signal-safe; it lets the helper (only) keep the write end.
        unsafe {
            wrapped.pre_exec(move || {
                if libc::fcntl(write, libc::F_SETFD, 0) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
        Ok((wrapped, Report { fd: read }, WriteEnd(write)))
    }

    /// The helper's report, once it has exited; `None` if it wrote none (it was killed).
    #[must_use]
    pub fn read(&self) -> Option<Measured> {
        let mut buf = [0u8; 128];
        // SAFETY: buf is valid for its length; the pipe is non-blocking.
        let n = unsafe { libc::read(self.fd, buf.as_mut_ptr().cast(), buf.len()) };
        let text = std::str::from_utf8(&buf[..usize::try_from(n).ok()?]).ok()?;
        let mut f = text.split_whitespace().map(str::parse::<u64>);
        let (status, kib, nanos) = (f.next()?.ok()?, f.next()?.ok()?, f.next()?.ok()?);
        Some(Measured {
            status: libc::c_int::try_from(status).ok()?,
            max_rss: kib * 1024,
            wall: Duration::from_nanos(nanos),
        })
    }
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

/// The helper: `args` are `FD PROGRAM ARGS...`. Runs the program, reports on `FD`, exits 0; exits
/// 127 if the arguments are wrong or the program cannot be forked.
pub fn helper(args: &[OsString]) -> std::process::ExitCode {
    let fd: Option<libc::c_int> = args.first().and_then(|a| a.to_str()?.parse().ok());
    let argv: Option<Vec<CString>> = args
        .get(1..)
        .map(|a| a.iter().map(|s| CString::new(s.as_bytes()).ok()).collect())
        .and_then(|v: Option<Vec<CString>>| v.filter(|v| !v.is_empty()));
    let (Some(fd), Some(argv)) = (fd, argv) else {
        return std::process::ExitCode::from(127);
    };
    match run(fd, &argv) {
        Some(()) => std::process::ExitCode::SUCCESS,
        None => std::process::ExitCode::from(127),
    }
}

fn run(fd: libc::c_int, argv: &[CString]) -> Option<()> {
    let mut ptrs: Vec<*const libc::c_char> = argv.iter().map(|a| a.as_ptr()).collect();
    ptrs.push(std::ptr::null());
    // SAFETY: the program must not inherit the report pipe.
    unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
    let start = Instant::now();
    // SAFETY: the helper is single-threaded; the child only calls execvp and _exit.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return None;
    }
    if pid == 0 {
        // SAFETY: ptrs is a null-terminated array of C strings that outlive the call.
        unsafe {
            libc::execvp(ptrs[0], ptrs.as_ptr());
            libc::_exit(127)
        }
    }
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: pid is our child; the pointers are valid.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            break;
        }
        if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return None;
        }
    }
    let report = format!(
        "{} {} {}\n",
        status,
        usage.ru_maxrss,
        start.elapsed().as_nanos()
    );
    // SAFETY: report is valid for its length.
    unsafe { libc::write(fd, report.as_ptr().cast(), report.len()) };
    Some(())
}
