//! Every system call of the judge's process layer, behind safe signatures: the only place in the
//! judge with `unsafe` code or calls into `libc`. Each function states what it needs of its
//! arguments; none takes a raw pointer.
//!
//! Signals to processes go through pidfds ([`Pidfd`]) where the kernel has them (Linux 5.3 and
//! later): a pidfd names one process for as long as it is open, so a signal sent through it can
//! never reach another process that was given the same pid. [`pidfds`] says whether they work.

use std::ffi::CString;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

/// A process id.
pub type Pid = libc::pid_t;

/// A raw wait status, as `wait4` gives it.
pub type Status = libc::c_int;

/// A signal number.
pub type Signal = libc::c_int;

pub use libc::{SIGCHLD, SIGCONT, SIGINT, SIGKILL, SIGSTOP, SIGTERM, SIGTSTP, SIGUSR1};

/// The result of a call that returns -1 and sets `errno` on failure.
fn check(r: libc::c_long) -> io::Result<libc::c_long> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

/// A pidfd: a handle on one process, valid for as long as it is open.
#[derive(Debug)]
pub struct Pidfd(OwnedFd);

impl Pidfd {
    /// A pidfd for process `pid`.
    ///
    /// # Errors
    /// No such process, or no pidfds on this kernel (`ENOSYS`).
    pub fn open(pid: Pid) -> io::Result<Pidfd> {
        // SAFETY: pidfd_open takes two integers and returns a new descriptor, which we own.
        let fd = check(unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) })?;
        let fd = RawFd::try_from(fd).map_err(|_| io::Error::from_raw_os_error(libc::EBADF))?;
        // SAFETY: the descriptor was just returned to us and is not owned elsewhere.
        Ok(Pidfd(unsafe { OwnedFd::from_raw_fd(fd) }))
    }

    /// Sends `signal` to the process; an error if it has exited (`ESRCH`).
    ///
    /// # Errors
    /// The process is gone, or the signal cannot be sent.
    pub fn signal(&self, signal: Signal) -> io::Result<()> {
        send_signal(self.0.as_raw_fd(), signal)
    }

    /// The descriptor's number, for a table of descriptors that [`signal_fd`] reads.
    #[must_use]
    pub fn raw(&self) -> RawFd {
        self.0.as_raw_fd()
    }
}

/// Waits until one of `fds` is readable (a pidfd: its process has exited; a pipe: it holds data
/// or its writers are gone), a signal comes, or `timeout` has passed; whether one is readable.
#[must_use]
pub fn wait_readable(fds: &[RawFd], timeout: std::time::Duration) -> bool {
    let mut polled: Vec<libc::pollfd> = fds
        .iter()
        .map(|&fd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    let ms = libc::c_int::try_from(timeout.as_micros().div_ceil(1000)).unwrap_or(libc::c_int::MAX);
    // SAFETY: poll on an array of pollfd of the length given, which outlives the call.
    let n = unsafe { libc::poll(polled.as_mut_ptr(), polled.len() as libc::nfds_t, ms) };
    n > 0
}

/// Waits until `fd` is readable (data, or the end of a pipe), with the signals of `unblocked`
/// unblocked meanwhile, atomically (`ppoll`): whether it is readable; `false` when a handled
/// signal came first.
pub fn wait_readable_unblocking(fd: RawFd, unblocked: &SignalSet) -> bool {
    let mut polled = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: sigset_t is plain old data; pthread_sigmask fills it with the current mask.
    let mut mask: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: no new mask; the current one is written to a valid set.
    unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, std::ptr::null(), &mut mask) };
    for signal in 1..libc::SIGRTMIN() {
        // SAFETY: both sets are valid.
        if unsafe { libc::sigismember(&unblocked.0, signal) } == 1 {
            // SAFETY: as above.
            unsafe { libc::sigdelset(&mut mask, signal) };
        }
    }
    // SAFETY: ppoll on one valid pollfd, no timeout, and a valid mask, all outliving the call.
    let n = unsafe { libc::ppoll(&mut polled, 1, std::ptr::null(), &mask) };
    n > 0
}

/// Sends `signal` through the pidfd numbered `fd`. A number that is no longer a pidfd gets an
/// error, never a signal to another process.
///
/// # Errors
/// As [`Pidfd::signal`], or `fd` is not a pidfd.
pub fn signal_fd(fd: RawFd, signal: Signal) -> io::Result<()> {
    send_signal(fd, signal)
}

fn send_signal(fd: RawFd, signal: Signal) -> io::Result<()> {
    let null = std::ptr::null::<libc::siginfo_t>();
    // SAFETY: pidfd_send_signal with a null siginfo and no flags; async-signal-safe.
    check(unsafe { libc::syscall(libc::SYS_pidfd_send_signal, fd, signal, null, 0) }).map(drop)
}

/// Whether this kernel has pidfds (asked once).
#[must_use]
pub fn pidfds() -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        std::env::var_os("JUDGE_NO_PIDFD").is_none() && Pidfd::open(getpid()).is_ok()
    })
}

/// Sends `signal` to process `pid` by its number. Only for a process whose pid cannot have been
/// reused: a child of ours not yet reaped (or where pidfds are missing).
///
/// # Errors
/// No such process, or no permission.
pub fn kill(pid: Pid, signal: Signal) -> io::Result<()> {
    debug_assert!(pid > 0);
    // SAFETY: kill takes two integers; async-signal-safe.
    check(unsafe { libc::kill(pid, signal) }.into()).map(drop)
}

/// Sends `signal` to process group `pgid`. Only for a group whose leader is a child of ours not
/// yet reaped: its number cannot be reused while the leader is a zombie.
///
/// # Errors
/// No such group, or no permission.
pub fn kill_group(pgid: Pid, signal: Signal) -> io::Result<()> {
    debug_assert!(pgid > 0);
    // SAFETY: kill takes two integers; async-signal-safe.
    check(unsafe { libc::kill(-pgid, signal) }.into()).map(drop)
}

/// This process's id.
#[must_use]
pub fn getpid() -> Pid {
    // SAFETY: getpid has no arguments and cannot fail.
    unsafe { libc::getpid() }
}

/// The real user id.
#[must_use]
pub fn getuid() -> libc::uid_t {
    // SAFETY: getuid has no arguments and cannot fail.
    unsafe { libc::getuid() }
}

/// The effective user id.
#[must_use]
pub fn geteuid() -> libc::uid_t {
    // SAFETY: geteuid has no arguments and cannot fail.
    unsafe { libc::geteuid() }
}

/// Makes this process get `signal` when its parent (the thread that forked it) ends.
pub fn die_with_parent(signal: Signal) {
    // SAFETY: prctl with integer arguments.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, signal as libc::c_ulong) };
}

/// Overwrites this process's command line (what `/proc/PID/cmdline` shows to anyone) with
/// zeros: for a box's init, a copy of the helper whose arguments name the case's files.
pub fn scrub_command_line() {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return;
    };
    // Fields 48 and 49 of proc(5) (`arg_start`, `arg_end`); the text after the name starts at 3.
    let fields: Vec<&str> = stat.rsplit(") ").next().unwrap_or("").split(' ').collect();
    let number = |i: usize| fields.get(i).and_then(|f| f.parse::<usize>().ok());
    let (Some(start), Some(end)) = (number(48 - 3), number(49 - 3)) else {
        return;
    };
    if start == 0 || end <= start {
        return;
    }
    // SAFETY: [start, end) is this process's own argument area, as the kernel reports it: mapped
    // and writable (the initial stack); nothing reads it after the program's start.
    unsafe { std::ptr::write_bytes(start as *mut u8, 0, end - start) };
}

/// Reaps every child of this process, for ever, adding the CPU time of each to `tally`: the life
/// of a PID namespace's init. The tally is busy from before a child is reaped (while it is still
/// a zombie, listed among this process's children) until its time is added, so that a reader who
/// finds no child and a tally not busy has every time.
pub fn reap_forever(tally: &Tally) -> ! {
    loop {
        // SAFETY: siginfo_t is plain old data; all zeroes is a valid value.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid with a valid siginfo; WNOWAIT leaves the child a zombie.
        let ended =
            unsafe { libc::waitid(libc::P_ALL, 0, &mut info, libc::WEXITED | libc::WNOWAIT) };
        if ended < 0 {
            // SAFETY: usleep takes an integer.
            unsafe { libc::usleep(5_000) };
            continue;
        }
        tally.set_busy(true);
        if let Ok(Some(reaped)) = reap(-1, false) {
            tally.add(reaped.cpu);
        }
        tally.set_busy(false);
    }
}

/// A count of CPU time in microseconds on a page shared by a process and the children it forks
/// after making it: what one adds, the others read at once.
pub struct Tally {
    /// The time added, and whether an addition is under way (1) or not (0).
    slots: &'static [std::sync::atomic::AtomicU64; 2],
}

impl Tally {
    /// A new tally at zero, on a shared anonymous page mapped for the rest of the process's life.
    ///
    /// # Errors
    /// The page cannot be mapped.
    pub fn new() -> io::Result<Tally> {
        let size = usize::try_from(page_size()).unwrap_or(4096);
        // SAFETY: an anonymous shared mapping of one page, at an address the kernel picks.
        let page = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if page == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: the page is zeroed, aligned for u64s, larger than two, and never unmapped:
        // valid atomics for the process's life.
        let slots = unsafe { &*page.cast::<[std::sync::atomic::AtomicU64; 2]>() };
        Ok(Tally { slots })
    }

    /// Adds `cpu`.
    pub fn add(&self, cpu: Duration) {
        let micros = u64::try_from(cpu.as_micros()).unwrap_or(u64::MAX);
        self.slots[0].fetch_add(micros, std::sync::atomic::Ordering::SeqCst);
    }

    /// The time added so far, by this process or those sharing the page.
    #[must_use]
    pub fn get(&self) -> Duration {
        Duration::from_micros(self.slots[0].load(std::sync::atomic::Ordering::SeqCst))
    }

    /// Marks an addition under way, or done.
    pub fn set_busy(&self, busy: bool) {
        self.slots[1].store(u64::from(busy), std::sync::atomic::Ordering::SeqCst);
    }

    /// Whether an addition is under way.
    #[must_use]
    pub fn busy(&self) -> bool {
        self.slots[1].load(std::sync::atomic::Ordering::SeqCst) != 0
    }
}

/// The size of a memory page, in bytes.
#[must_use]
pub fn page_size() -> u64 {
    // SAFETY: sysconf takes an integer.
    u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096)
}

/// The clock ticks per second of the times in `/proc/N/stat` (`CLK_TCK`, 100 on Linux).
pub fn clock_ticks() -> u64 {
    // SAFETY: sysconf takes an integer.
    u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) })
        .ok()
        .filter(|&t| t > 0)
        .unwrap_or(100)
}

/// Makes this process a child subreaper: orphans below it are adopted by it, not by init.
pub fn set_child_subreaper() {
    // SAFETY: prctl with integer arguments.
    unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong) };
}

/// Makes `fd` non-blocking.
pub fn set_nonblocking(fd: RawFd) {
    // SAFETY: fcntl on an integer descriptor.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags >= 0 {
        // SAFETY: as above.
        unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) };
    }
}

/// Writes what `fd` (a pipe's write end, blocking) takes of `bytes` without waiting: the number
/// of bytes written (0 when it is full or closed). The descriptor stays blocking.
pub fn write_now(fd: RawFd, bytes: &[u8]) -> usize {
    // SAFETY: fcntl on an integer descriptor.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return 0;
    }
    // SAFETY: as above.
    unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) };
    let mut written = 0;
    while written < bytes.len() {
        let rest = &bytes[written..];
        // SAFETY: rest is valid for its length.
        let n = unsafe { libc::write(fd, rest.as_ptr().cast(), rest.len()) };
        if n <= 0 {
            break;
        }
        written += n.unsigned_abs();
    }
    // SAFETY: as above.
    unsafe { libc::fcntl(fd, libc::F_SETFL, flags) };
    written
}

/// A pipe, both ends close-on-exec and non-blocking: (read, write).
///
/// # Errors
/// Out of descriptors.
pub fn pipe_nonblocking() -> io::Result<(OwnedFd, OwnedFd)> {
    pipe(libc::O_CLOEXEC | libc::O_NONBLOCK)
}

/// A pipe, both ends close-on-exec and blocking: (read, write).
///
/// # Errors
/// Out of descriptors.
pub fn pipe_blocking() -> io::Result<(OwnedFd, OwnedFd)> {
    pipe(libc::O_CLOEXEC)
}

fn pipe(flags: libc::c_int) -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: fds has room for the two descriptors.
    check(unsafe { libc::pipe2(fds.as_mut_ptr(), flags) }.into())?;
    // SAFETY: both descriptors are new and ours alone.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Sets or clears close-on-exec on `fd` (a descriptor of this process; a bad one is ignored).
pub fn set_cloexec(fd: RawFd, on: bool) {
    let flag = if on { libc::FD_CLOEXEC } else { 0 };
    // SAFETY: fcntl on an integer descriptor; no memory is passed.
    unsafe { libc::fcntl(fd, libc::F_SETFD, flag) };
}

/// Closes descriptor `fd` of this process, which nothing else owns (a descriptor inherited by
/// number; a bad one is ignored).
pub fn close_inherited(fd: RawFd) {
    // SAFETY: close on an integer descriptor that no Rust object owns.
    unsafe { libc::close(fd) };
}

/// Points this process's stdin, stdout and stderr at `/dev/null`, so that it no longer holds the
/// pipes it was started with (their readers then see their end when its children end).
pub fn detach_stdio() {
    let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    else {
        return;
    };
    for fd in 0..3 {
        // SAFETY: dup2 on integer descriptors; `null` stays owned by its File.
        unsafe { libc::dup2(null.as_raw_fd(), fd) };
    }
}

/// Reads what `fd` holds now (a non-blocking descriptor): the bytes, empty at end of file or when
/// nothing is there yet.
#[must_use]
pub fn read_now(fd: RawFd) -> Vec<u8> {
    let mut buf = [0u8; 512];
    // SAFETY: buf is valid for its length.
    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
    usize::try_from(n).map_or_else(|_| Vec::new(), |n| buf[..n].to_vec())
}

/// Writes all of `bytes` to `fd` (a blocking descriptor), ignoring errors (the reader is gone).
pub fn write_all(fd: RawFd, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: bytes is valid for its length.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        match usize::try_from(n) {
            Ok(n) if n > 0 => bytes = &bytes[n..],
            _ if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
            _ => return,
        }
    }
}

/// Prepares `cmd` so that the process it starts holds `fds[i].0` as descriptor `fds[i].1`
/// (numbers from 3 up, none of them 0 to 2) and gets `death` when the thread that spawned it
/// ends (`PR_SET_PDEATHSIG`).
pub fn pass_fds(cmd: &mut Command, fds: Vec<(RawFd, RawFd)>, death: Signal) {
    debug_assert!(fds.iter().all(|&(_, to)| to > 2));
    let death = death as libc::c_ulong;
    // SAFETY: the closure only calls async-signal-safe functions (fcntl, dup2, close, prctl) on
    // integers, and allocates nothing: `fds` was built before the fork.
    unsafe {
        cmd.pre_exec(move || {
            // Moved out of the way first, so that no target number overwrites a source.
            let mut moved = [0 as libc::c_int; 8];
            for (slot, &(from, _)) in moved.iter_mut().zip(&fds) {
                *slot = libc::fcntl(from, libc::F_DUPFD_CLOEXEC, 64);
                if *slot < 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            for (&from, &(_, to)) in moved.iter().zip(&fds) {
                if libc::dup2(from, to) < 0 {
                    return Err(io::Error::last_os_error());
                }
                libc::close(from);
            }
            if libc::prctl(libc::PR_SET_PDEATHSIG, death) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Makes the child of `cmd` start with no signal blocked. The judge blocks its termination and
/// stop signals in every thread (its signal thread takes them with `sigwait`), and a child
/// inherits the mask across `exec`: a compiler or `cargo build` would then ignore the Ctrl-C and
/// Ctrl-Z of the terminal.
pub fn unblock_signals_on_exec(cmd: &mut Command) {
    // SAFETY: the closure only calls sigemptyset and sigprocmask, async-signal-safe, on a set on
    // its own stack.
    unsafe {
        cmd.pre_exec(|| {
            let mut empty: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut empty);
            if libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut()) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// A set of signals.
#[derive(Clone, Copy)]
pub struct SignalSet(libc::sigset_t);

impl SignalSet {
    /// The set of `signals`.
    #[must_use]
    pub fn of(signals: &[Signal]) -> SignalSet {
        // SAFETY: sigset_t is plain old data, initialised by sigemptyset.
        let mut set: libc::sigset_t = unsafe { std::mem::zeroed() };
        // SAFETY: set is a valid signal set.
        unsafe { libc::sigemptyset(&mut set) };
        for &s in signals {
            // SAFETY: as above.
            unsafe { libc::sigaddset(&mut set, s) };
        }
        SignalSet(set)
    }

    /// Blocks the set in the calling thread (and the threads it starts later).
    pub fn block(&self) {
        // SAFETY: the set is valid; the old mask is not asked for.
        unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &self.0, std::ptr::null_mut()) };
    }

    /// Unblocks the set in the calling thread.
    pub fn unblock(&self) {
        // SAFETY: as in `block`.
        unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &self.0, std::ptr::null_mut()) };
    }

    /// Waits for one of the set's signals (blocked in every thread); its number.
    #[must_use]
    pub fn wait(&self) -> Option<Signal> {
        let mut signal = 0;
        // SAFETY: the set and the output are valid.
        (unsafe { libc::sigwait(&self.0, &mut signal) } == 0).then_some(signal)
    }
}

/// Installs `handler` for `signal`, without `SA_RESTART` (so that it interrupts a wait). The
/// handler may only call async-signal-safe functions.
pub fn on_signal(signal: Signal, handler: extern "C" fn(Signal)) {
    // SAFETY: sigaction is plain old data; all zeroes is a valid value (no flags, empty mask).
    let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
    action.sa_sigaction = handler as libc::sighandler_t;
    // SAFETY: action is valid; the old action is not asked for.
    unsafe { libc::sigaction(signal, &action, std::ptr::null_mut()) };
}

/// Whether `signal` is ignored (`SIG_IGN`) in this process, as it may be inherited from the
/// parent.
#[must_use]
pub fn ignored(signal: Signal) -> bool {
    // SAFETY: sigaction is plain old data; all zeroes is a valid value.
    let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
    // SAFETY: no new action is given; the old one is written to a valid pointer.
    let r = unsafe { libc::sigaction(signal, std::ptr::null(), &mut action) };
    r == 0 && action.sa_sigaction == libc::SIG_IGN
}

/// Stops this process as SIGTSTP's default action does (all its threads), from a thread where
/// SIGTSTP is blocked (and at its default action), and returns once the process is continued
/// (SIGCONT); at once in a process group the kernel calls orphaned (no shell to continue it),
/// where the kernel discards SIGTSTP. Raised while blocked, then unblocked, so that a SIGTSTP
/// already pending stops the process once, not twice, and the parent (a shell) sees a stop by
/// SIGTSTP.
pub fn stop_self() {
    let set = SignalSet::of(&[SIGTSTP]);
    // SAFETY: raise takes an integer; the signal is blocked in this thread, so it stays pending
    // until the unblocking below.
    unsafe { libc::raise(SIGTSTP) };
    set.unblock();
    set.block();
}

/// Ends this process with `signal`'s default action (from the thread that calls it, with the
/// signal unblocked there), or exits with 128 + `signal` if that did not end it.
pub fn die_of(signal: Signal) -> ! {
    // SAFETY: signal and raise take integers; _exit never returns.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        SignalSet::of(&[signal]).unblock();
        libc::raise(signal);
        libc::_exit(128 + signal)
    }
}

/// `RLIMIT_NPROC`: (soft, hard), `None` for no limit.
#[must_use]
pub fn process_limits() -> (Option<u64>, Option<u64>) {
    let mut limit = libc::rlimit {
        rlim_cur: libc::RLIM_INFINITY,
        rlim_max: libc::RLIM_INFINITY,
    };
    // SAFETY: limit is a valid pointer.
    unsafe { libc::getrlimit(libc::RLIMIT_NPROC, &mut limit) };
    let finite = |v| (v != libc::RLIM_INFINITY).then_some(v);
    (finite(limit.rlim_cur), finite(limit.rlim_max))
}

/// How a child is started by [`spawn`]: everything prepared before the fork, so that the child
/// allocates nothing.
pub struct Exec {
    /// Owns the strings that `ptrs` points into.
    _argv: Vec<CString>,
    ptrs: Vec<*const libc::c_char>,
    dir: Option<CString>,
    /// Descriptors to move onto 0, 1, 2.
    stdio: Option<[RawFd; 3]>,
    /// `RLIMIT_NPROC`'s soft limit.
    processes: Option<u64>,
    /// A mount namespace to enter first.
    mount_ns: Option<RawFd>,
    /// The user and group to become, with no supplementary group.
    ids: Option<(libc::uid_t, libc::gid_t)>,
    /// Whether to set `no_new_privs`: no program it runs gains a privilege.
    no_new_privs: bool,
}

impl Exec {
    /// `argv[0]` (looked up on `PATH`) with `argv`, in folder `dir` if given.
    ///
    /// # Panics
    /// `argv` is empty.
    #[must_use]
    pub fn new(argv: Vec<CString>, dir: Option<CString>) -> Exec {
        assert!(!argv.is_empty(), "a program to run");
        let mut ptrs: Vec<*const libc::c_char> = argv.iter().map(|a| a.as_ptr()).collect();
        ptrs.push(std::ptr::null());
        Exec {
            _argv: argv,
            ptrs,
            dir,
            stdio: None,
            processes: None,
            mount_ns: None,
            ids: None,
            no_new_privs: false,
        }
    }

    /// Makes the child drop every privilege before it runs its program: become `ids` (if given)
    /// with no supplementary group, and set `no_new_privs`.
    pub fn unprivileged(&mut self, ids: Option<(u32, u32)>) {
        self.ids = ids;
        self.no_new_privs = true;
    }

    /// Makes the child enter the mount namespace `ns` (a descriptor that outlives the fork),
    /// then go to its folder taken from `here`, the parent's folder (entering a mount namespace
    /// leaves the child at its root).
    pub fn join(&mut self, ns: &File, here: &std::path::Path) {
        use std::os::unix::ffi::OsStrExt;
        self.mount_ns = Some(ns.as_raw_fd());
        let dir = match &self.dir {
            Some(dir) => here.join(std::ffi::OsStr::from_bytes(dir.as_bytes())),
            None => here.to_path_buf(),
        };
        self.dir = CString::new(dir.as_os_str().as_bytes()).ok();
    }

    /// Gives the child `fds` as its stdin, stdout and stderr.
    #[must_use]
    pub fn stdio(mut self, fds: [RawFd; 3]) -> Exec {
        self.stdio = Some(fds);
        self
    }

    /// Limits the child's processes (`RLIMIT_NPROC`, at most the hard limit).
    #[must_use]
    pub fn processes(mut self, n: u64) -> Exec {
        self.processes = Some(n);
        self
    }
}

/// Forks a child that starts `exec` as a shell would start it: in a process group of its own,
/// with SIGPIPE at its default action (an ignored signal stays ignored across `exec`, and a Rust
/// parent ignores SIGPIPE: `producer | head -1` would then write on forever) and no signal
/// blocked. The child exits 127 if it cannot start the program, saying why on its stderr (`NAME:
/// not found`). Only for a single-threaded
/// caller (the measuring helper).
///
/// # Errors
/// The fork failed.
pub fn spawn(exec: &Exec) -> io::Result<Pid> {
    let limit = exec.processes.map(|n| {
        let (_, hard) = process_limits();
        let n = hard.map_or(n, |h| n.min(h));
        libc::rlimit {
            rlim_cur: n,
            rlim_max: hard.unwrap_or(libc::RLIM_INFINITY),
        }
    });
    let empty = SignalSet::of(&[]);
    // SAFETY: the caller is single-threaded; the child only calls async-signal-safe functions on
    // data prepared before the fork (`exec.ptrs` is a null-terminated array of C strings that
    // outlive the call) and ends in execvp or _exit.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        // SAFETY: as above.
        unsafe {
            if let Some(limit) = &limit {
                libc::setrlimit(libc::RLIMIT_NPROC, limit);
            }
            libc::setpgid(0, 0);
            if let Some(fds) = exec.stdio {
                for (to, &from) in fds.iter().enumerate() {
                    libc::dup2(from, to as libc::c_int);
                }
            }
            if let Some(ns) = exec.mount_ns {
                if libc::setns(ns, libc::CLONE_NEWNS) != 0 {
                    libc::_exit(127);
                }
            }
            if let Some(dir) = &exec.dir {
                if libc::chdir(dir.as_ptr()) != 0 && exec.mount_ns.is_none() {
                    libc::_exit(127);
                }
            }
            if let Some((uid, gid)) = exec.ids {
                if libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setresgid(gid, gid, gid) != 0
                    || libc::setresuid(uid, uid, uid) != 0
                {
                    libc::_exit(127);
                }
            }
            if exec.no_new_privs && libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                libc::_exit(127);
            }
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
            libc::sigprocmask(libc::SIG_SETMASK, &empty.0, std::ptr::null_mut());
            libc::execvp(exec.ptrs[0], exec.ptrs.as_ptr());
            // As a shell says it (`sh: 1: NAME: not found`), for a program run without one.
            let why: &[u8] = match *libc::__errno_location() {
                libc::ENOENT => b": not found\n",
                libc::EACCES => b": permission denied\n",
                libc::ENOEXEC => b": exec format error\n",
                _ => b": cannot be run\n",
            };
            let name = exec.ptrs[0];
            libc::write(2, name.cast(), libc::strlen(name));
            libc::write(2, why.as_ptr().cast(), why.len());
            libc::_exit(127)
        }
    }
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    // Here too, so that the group exists before the parent signals it.
    // SAFETY: setpgid takes integers.
    unsafe { libc::setpgid(pid, pid) };
    Ok(pid)
}

/// A child that has ended: its wait status, peak resident memory (its own and that of the
/// descendants it reaped), in KiB, and CPU time (user and system, its own and that of the
/// descendants it reaped).
#[derive(Clone, Copy, Debug)]
pub struct Reaped {
    pub status: Status,
    pub max_rss_kib: u64,
    pub cpu: Duration,
}

/// The CPU time, user and system, this process has used so far.
#[must_use]
pub fn own_cpu() -> Duration {
    // SAFETY: rusage is plain old data; all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills a valid rusage.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    duration(usage.ru_utime) + duration(usage.ru_stime)
}

/// The monotonic clock (`CLOCK_MONOTONIC`, the clock of [`std::time::Instant`]) in
/// nanoseconds. Async-signal-safe: a signal handler may read it.
#[must_use]
pub fn monotonic_ns() -> u64 {
    // SAFETY: timespec is plain old data; all zeroes is a valid value.
    let mut now: libc::timespec = unsafe { std::mem::zeroed() };
    // SAFETY: clock_gettime fills a valid timespec; CLOCK_MONOTONIC always exists.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    let secs = u64::try_from(now.tv_sec).unwrap_or(0);
    let nanos = u64::try_from(now.tv_nsec).unwrap_or(0);
    secs.saturating_mul(1_000_000_000).saturating_add(nanos)
}

/// Reaps child `pid` (any child for -1, any child in process group G for -G): blocking until it ends, or, with `nohang`, `None`
/// if it has not ended yet.
///
/// # Errors
/// No such child (`ECHILD`), or interrupted by a signal (`EINTR`).
pub fn reap(pid: Pid, nohang: bool) -> io::Result<Option<Reaped>> {
    let mut status = 0;
    // SAFETY: rusage is plain old data; all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let flags = if nohang { libc::WNOHANG } else { 0 };
    // SAFETY: status and usage are valid pointers.
    let r = check(unsafe { libc::wait4(pid, &mut status, flags, &mut usage) }.into())?;
    Ok((r > 0).then(|| Reaped {
        status,
        max_rss_kib: u64::try_from(usage.ru_maxrss).unwrap_or(0),
        cpu: duration(usage.ru_utime) + duration(usage.ru_stime),
    }))
}

/// A `timeval` of `rusage` as a duration (a negative one as zero).
fn duration(t: libc::timeval) -> Duration {
    let micros = i128::from(t.tv_sec) * 1_000_000 + i128::from(t.tv_usec);
    Duration::from_micros(u64::try_from(micros).unwrap_or(0))
}

/// A child that has ended, left unreaped (`WNOWAIT`), so that its pid and process group stay
/// its own until [`reap`]: any child for `pid` -1, else that one. Blocking, or with `nohang`
/// `None` while none has ended.
///
/// # Errors
/// No child (`ECHILD`), or interrupted by a signal (`EINTR`).
pub fn ended(pid: Pid, nohang: bool) -> io::Result<Option<Pid>> {
    let (idtype, id) = if pid < 0 {
        (libc::P_ALL, 0)
    } else {
        (libc::P_PID, pid as libc::id_t)
    };
    let mut flags = libc::WEXITED | libc::WNOWAIT;
    if nohang {
        flags |= libc::WNOHANG;
    }
    // SAFETY: siginfo_t is plain old data; all zeroes is a valid value.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: info is a valid pointer.
    check(unsafe { libc::waitid(idtype, id, &mut info, flags) }.into())?;
    // SAFETY: waitid filled the child's fields (or left si_pid 0 under WNOHANG).
    let found = unsafe { info.si_pid() };
    Ok((found > 0).then_some(found))
}

/// How a wait status ended: `Ok(code)` for an exit, `Err(signal)` for a signal (0 if neither).
pub fn decode(status: Status) -> Result<i32, Signal> {
    if libc::WIFEXITED(status) {
        Ok(libc::WEXITSTATUS(status))
    } else if libc::WIFSIGNALED(status) {
        Err(libc::WTERMSIG(status))
    } else {
        Err(0)
    }
}
