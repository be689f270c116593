//! What the judge must end or remove if it is told to stop: the measuring helpers of everything
//! it runs (programs, checkers, interactors), the process groups of its compilers, and its
//! temporary folders. On SIGTERM or SIGINT a
//! thread of its own (the signals are blocked in every other thread) asks each helper to end
//! everything below it, removes the temporary folders, then lets the signal end the judge.
//!
//! The same thread handles SIGTSTP (Ctrl-Z), as a test runner does: the programs run in process
//! groups of their own, out of reach of the terminal's signal, so the judge stops them itself.
//! It stands the judge's clock still ([`super::clock`]), asks each helper to stop its case
//! (SIGTSTP to the helper: it stops everything below itself and its own clock, and waits for
//! SIGCONT), stops the compilers' groups and every other process below the judge (orphans
//! adopted by the judge, what left a compiler's group), and then stops the judge itself. Once the
//! judge is continued (`fg`), it continues them all and lets the clock run on. No helper or group
//! starts meanwhile (the lock they are started under is held).
//!
//! The judge is also a child subreaper: if a program kills its helper, the program and what it
//! started are adopted by the judge rather than by init, and [`sweep_orphans`] ends them.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use super::sys::{self, Pid, Pidfd, Signal, SignalSet};

/// Slots for running helpers (0: free); more than this many at once go untracked.
const SLOTS: usize = 256;

/// A fixed table of non-zero values that signal handlers and threads read without a lock;
/// a value added when the table is full goes untracked.
struct Table([AtomicU64; SLOTS]);

impl Table {
    const fn new() -> Table {
        Table([const { AtomicU64::new(0) }; SLOTS])
    }

    /// Records `value` (non-zero) in a free slot.
    fn add(&self, value: u64) {
        let _ = self.0.iter().find(|s| {
            s.compare_exchange(0, value, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        });
    }

    /// Forgets one slot holding `value`.
    fn remove(&self, value: u64) {
        let _ = self.0.iter().find(|s| {
            s.compare_exchange(value, 0, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        });
    }

    /// The values recorded.
    fn values(&self) -> impl Iterator<Item = u64> + '_ {
        self.0
            .iter()
            .map(|s| s.load(Ordering::SeqCst))
            .filter(|&v| v != 0)
    }
}

/// The running helpers, each slot a pid (high half) and the number of a pidfd on it (low half,
/// or `u32::MAX` without one).
static HELPERS: Table = Table::new();

/// The running process groups (compilers), each slot a group leader's pid (0: free).
static GROUPS: Table = Table::new();

/// The temporary folders in use.
static FOLDERS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Held while a helper is spawned and recorded, and while orphans are swept, so that a helper
/// just spawned is never taken for an orphan.
static SPAWNING: Mutex<()> = Mutex::new(());

/// A helper the judge started and has not reaped yet, recorded until it is reaped or dropped.
pub struct Handle {
    pid: Pid,
    pidfd: Option<Pidfd>,
    slot: u64,
}

impl Handle {
    /// The helper's pid (its own until it is reaped).
    #[must_use]
    pub fn pid(&self) -> Pid {
        self.pid
    }

    /// Sends `signal` to the helper: through its pidfd, or by number (it is our child, not yet
    /// reaped, so the number is still its own).
    ///
    /// # Errors
    /// The helper is gone.
    pub fn signal(&self, signal: Signal) -> std::io::Result<()> {
        match &self.pidfd {
            Some(pidfd) => pidfd.signal(signal),
            None => sys::kill(self.pid, signal),
        }
    }

    /// The helper's pidfd's number, which [`sys::wait_readable`] sees readable once it has
    /// exited; `None` without pidfds.
    #[must_use]
    pub fn exit_fd(&self) -> Option<std::os::fd::RawFd> {
        self.pidfd.as_ref().map(Pidfd::raw)
    }

    /// Reaps the helper if it has exited (and forgets it).
    ///
    /// # Errors
    /// It cannot be waited for (already reaped).
    pub fn reap_now(&self) -> std::io::Result<Option<sys::Reaped>> {
        match sys::reap(self.pid, true) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Ok(None),
            Ok(Some(reaped)) => {
                self.forget();
                Ok(Some(reaped))
            }
            other => other,
        }
    }

    /// Waits for the helper to exit and reaps it (and forgets it).
    #[must_use]
    pub fn reap_blocking(&self) -> Option<sys::Reaped> {
        loop {
            match sys::reap(self.pid, false) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                r => {
                    self.forget();
                    return r.ok().flatten();
                }
            }
        }
    }

    /// Removes the helper from the table, before its pid or its pidfd's number can be reused.
    fn forget(&self) {
        HELPERS.remove(self.slot);
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        self.forget();
    }
}

/// Helpers that have reported the end of their case and have yet to exit, to be reaped.
static ENDING: Mutex<Vec<Handle>> = Mutex::new(Vec::new());

/// Reaps helper `handle` once it has exited: now if it has, else at a later call of
/// [`reap_ended`] or [`reap_all_ending`]. For a helper whose case is over (its report says so),
/// which has only its own exit left.
pub fn reap_later(handle: Handle) {
    let mut ending = ENDING.lock().unwrap_or_else(PoisonError::into_inner);
    ending.push(handle);
    ending.retain(|h| matches!(h.reap_now(), Ok(None)));
}

/// Reaps the helpers given to [`reap_later`] that have exited by now.
pub fn reap_ended() {
    let mut ending = ENDING.lock().unwrap_or_else(PoisonError::into_inner);
    ending.retain(|h| matches!(h.reap_now(), Ok(None)));
}

/// Waits for every helper given to [`reap_later`] and reaps it (the judge's end).
pub fn reap_all_ending() {
    let ending = std::mem::take(&mut *ENDING.lock().unwrap_or_else(PoisonError::into_inner));
    for handle in ending {
        let _ = handle.reap_blocking();
    }
}

/// Runs `f` (which starts and reaps a child of its own) while no orphan is swept, so that its
/// child is never taken for one.
pub fn while_spawning<T>(f: impl FnOnce() -> T) -> T {
    let _spawning = SPAWNING.lock().unwrap_or_else(PoisonError::into_inner);
    f()
}

/// Spawns the helper `cmd` and records it.
///
/// # Errors
/// The process cannot be spawned.
pub fn spawn(cmd: &mut Command) -> std::io::Result<(Child, Handle)> {
    let _spawning = SPAWNING.lock().unwrap_or_else(PoisonError::into_inner);
    let child = cmd.spawn()?;
    let handle = record(child.id() as Pid);
    Ok((child, handle))
}

/// Starts a helper with `start` (through the zygote, which makes it a child of the judge) and
/// records it; `None` if `start` did not start it.
///
/// # Errors
/// As `start`.
pub fn spawn_through(
    start: impl FnOnce() -> Option<std::io::Result<Pid>>,
) -> Option<std::io::Result<Handle>> {
    let _spawning = SPAWNING.lock().unwrap_or_else(PoisonError::into_inner);
    Some(start()?.map(record))
}

/// Records helper `pid`, a child of the judge not yet reaped.
fn record(pid: Pid) -> Handle {
    // The child is not reaped yet: its pid cannot name another process.
    let pidfd = sys::pidfds().then(|| Pidfd::open(pid).ok()).flatten();
    let fd = pidfd.as_ref().map_or(u32::MAX, |p| p.raw() as u32);
    let slot = (u64::from(pid as u32) << 32) | u64::from(fd);
    HELPERS.add(slot);
    Handle { pid, pidfd, slot }
}

/// A process group the judge started (a compiler and what it starts), recorded until
/// [`Group::forget`] or drop: while recorded, the judge kills the group if it is stopped.
/// Contract: the leader is a child of the judge, not reaped before the group is forgotten, so
/// that the group's number stays its own while it is recorded.
pub struct Group {
    pgid: Pid,
}

impl Group {
    /// The group's number (its leader's pid).
    #[must_use]
    pub fn pgid(&self) -> Pid {
        self.pgid
    }

    /// Removes the group from the table; call it before reaping the leader.
    pub fn forget(self) {}
}

impl Drop for Group {
    fn drop(&mut self) {
        GROUPS.remove(self.pgid as u64);
    }
}

/// Spawns `cmd` as the leader of a new process group and records the group.
///
/// # Errors
/// The process cannot be spawned.
pub fn spawn_group(cmd: &mut Command) -> std::io::Result<(Child, Group)> {
    let _spawning = SPAWNING.lock().unwrap_or_else(PoisonError::into_inner);
    std::os::unix::process::CommandExt::process_group(cmd, 0);
    sys::unblock_signals_on_exec(cmd);
    let child = cmd.spawn()?;
    let pgid = child.id() as Pid;
    GROUPS.add(pgid as u64);
    Ok((child, Group { pgid }))
}

/// The recorded process groups.
fn groups() -> impl Iterator<Item = Pid> {
    GROUPS.values().map(|g| g as Pid)
}

/// The recorded helpers' (pid, pidfd number) pairs.
fn helpers() -> impl Iterator<Item = (Pid, Option<i32>)> {
    HELPERS.values().map(|slot| {
        let (pid, fd) = ((slot >> 32) as u32 as Pid, slot as u32);
        (pid, (fd != u32::MAX).then_some(fd as i32))
    })
}

/// Makes the judge a child subreaper (see the module's documentation).
pub fn adopt_orphans() {
    sys::set_child_subreaper();
}

/// Kills and reaps the judge's children that it did not start as a helper (orphans of a program
/// that killed its helper), and everything below them, until none is left or 10 s have passed.
pub fn sweep_orphans() {
    let me = sys::getpid();
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::time::Instant::now() < give_up {
        let orphans: Vec<Pid> = {
            let _spawning = SPAWNING.lock().unwrap_or_else(PoisonError::into_inner);
            let ours: Vec<Pid> = helpers()
                .map(|(pid, _)| pid)
                .chain(groups())
                .chain(super::zygote::pid())
                .collect();
            let foreign = super::tree::children(me)
                .into_iter()
                .filter(|p| !ours.contains(&p.pid));
            let orphans: Vec<super::tree::Proc> = foreign.collect();
            for p in &orphans {
                super::tree::kill_below(p.pid, None, None);
                // Our child, not reaped (only this sweep reaps orphans, under the lock).
                let _ = sys::kill(p.pid, sys::SIGKILL);
            }
            orphans.iter().map(|p| p.pid).collect()
        };
        if orphans.is_empty() {
            return;
        }
        for pid in orphans {
            let _ = sys::reap(pid, false);
        }
    }
}

/// A private temporary folder (mode 0700, a random name, created exclusively), removed when
/// dropped, or by the judge's signal thread if the judge is stopped first.
pub struct Scratch(tempfile::TempDir);

impl Scratch {
    /// A new folder `$TMPDIR/PREFIXxxxxxx`.
    ///
    /// # Errors
    /// The folder cannot be created or made private.
    pub fn new(prefix: &str) -> Result<Scratch, String> {
        let dir = tempfile::Builder::new()
            .prefix(prefix)
            .tempdir()
            .map_err(|e| format!("cannot create a temporary folder: {e}"))?;
        let private = std::os::unix::fs::PermissionsExt::from_mode(0o700);
        std::fs::set_permissions(dir.path(), private)
            .map_err(|e| format!("{}: {e}", dir.path().display()))?;
        lock_folders().push(dir.path().to_path_buf());
        Ok(Scratch(dir))
    }

    /// The folder.
    #[must_use]
    pub fn path(&self) -> &Path {
        self.0.path()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        lock_folders().retain(|p| p != self.0.path());
    }
}

/// An existing folder lent to the programs the judge runs while this lives: like a [`Scratch`]
/// folder, writable in the box of a program that names it (a compiler's output folder), but
/// left in place when dropped.
pub struct Lent {
    _held: Listed,
}

impl Lent {
    /// Lends `folder` until the returned value is dropped.
    #[must_use]
    pub fn new(folder: &Path) -> Lent {
        Lent {
            _held: Listed::new(&LENT, folder),
        }
    }
}

/// A folder shown read-only, while this lives, to the programs that name a path inside it (a
/// source's folder, for the headers beside it, to its compiler).
pub struct Shown {
    _held: Listed,
}

impl Shown {
    /// Shows `folder` until the returned value is dropped.
    #[must_use]
    pub fn new(folder: &Path) -> Shown {
        Shown {
            _held: Listed::new(&SHOWN, folder),
        }
    }
}

/// A folder in one of the judge's lists (`LENT`, `SHOWN`) while this lives.
struct Listed {
    list: &'static Mutex<Vec<PathBuf>>,
    folder: PathBuf,
}

impl Listed {
    fn new(list: &'static Mutex<Vec<PathBuf>>, folder: &Path) -> Listed {
        lock(list).push(folder.to_path_buf());
        Listed {
            list,
            folder: folder.to_path_buf(),
        }
    }
}

impl Drop for Listed {
    fn drop(&mut self) {
        let mut list = lock(self.list);
        if let Some(i) = list.iter().position(|p| p == &self.folder) {
            list.remove(i);
        }
    }
}

fn lock(list: &'static Mutex<Vec<PathBuf>>) -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    list.lock().unwrap_or_else(PoisonError::into_inner)
}

static SHOWN: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn lock_shown() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    lock(&SHOWN)
}

/// The folders shown ([`Shown`]).
#[must_use]
pub fn shown() -> Vec<PathBuf> {
    lock_shown().clone()
}

/// The folders lent ([`Lent`]): never removed by the judge.
static LENT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn lock_lent() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    lock(&LENT)
}

/// The temporary folders in use whose path is part of one of `words` (a program's arguments):
/// the folders a checker or an interactor is given to write in.
#[must_use]
pub fn folders_named_in(words: &[&std::ffi::OsStr]) -> Vec<PathBuf> {
    let words: Vec<String> = words
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let named = |dir: &&PathBuf| {
        let dir = dir.to_string_lossy();
        words.iter().any(|w| w.contains(dir.as_ref()))
    };
    folders().iter().filter(named).cloned().collect()
}

/// Every temporary folder in use, and every folder lent.
#[must_use]
pub fn folders() -> Vec<PathBuf> {
    let mut all = lock_folders().clone();
    all.extend(lock_lent().iter().cloned());
    all
}

fn lock_folders() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    FOLDERS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The signals the judge's signal thread handles: SIGTERM and SIGINT, and SIGTSTP unless the
/// judge was started with it ignored (then Ctrl-Z stays without effect, as it was meant to).
fn handled_signals() -> SignalSet {
    if sys::ignored(sys::SIGTSTP) {
        SignalSet::of(&[sys::SIGTERM, sys::SIGINT])
    } else {
        SignalSet::of(&[sys::SIGTERM, sys::SIGINT, sys::SIGTSTP])
    }
}

/// Blocks SIGTERM, SIGINT and SIGTSTP in the calling thread (and so in every thread it starts
/// later), and starts the thread that handles them. Call it first, before any other thread
/// exists.
///
/// # Errors
/// The thread cannot be started.
pub fn on_termination() -> Result<(), String> {
    let set = handled_signals();
    set.block();
    std::thread::Builder::new()
        .name("signals".to_owned())
        .spawn(move || loop {
            match set.wait() {
                Some(sys::SIGTSTP) => suspend(),
                Some(signal) => terminate(signal),
                None => {}
            }
        })
        .map(drop)
        .map_err(|e| format!("cannot start a thread: {e}"))
}

/// How long the judge keeps stopping the processes below it outside the helpers' cases (a
/// process in an uninterruptible wait stops only when it leaves it).
const STOP_WITHIN: std::time::Duration = std::time::Duration::from_secs(2);

/// Sends `signal` to the helper `pid`, through its pidfd numbered `fd` where it has one.
fn signal_helper(pid: Pid, fd: Option<i32>, signal: Signal) {
    let _ = match fd {
        Some(fd) => sys::signal_fd(fd, signal),
        None => sys::kill(pid, signal),
    };
}

/// Ctrl-Z (see the module's documentation): stops the clock, everything the judge runs and the
/// judge itself; once the judge is continued, continues them all and the clock.
fn suspend() {
    let _spawning = SPAWNING.lock().unwrap_or_else(PoisonError::into_inner);
    if !super::clock::pause() {
        return;
    }
    for (pid, fd) in helpers() {
        signal_helper(pid, fd, sys::SIGTSTP);
    }
    for pgid in groups() {
        let _ = sys::kill_group(pgid, sys::SIGSTOP);
    }
    // The rest below the judge: what left a compiler's group, orphans of a helper that died.
    // Each helper stops its own case.
    let cases: Vec<Pid> = helpers().map(|(pid, _)| pid).collect();
    let others = super::tree::stop_below(sys::getpid(), &cases, None, STOP_WITHIN);
    sys::stop_self();
    for pgid in groups() {
        let _ = sys::kill_group(pgid, sys::SIGCONT);
    }
    super::tree::resume(&others);
    for (pid, fd) in helpers() {
        signal_helper(pid, fd, sys::SIGCONT);
    }
    super::clock::resume();
}

/// Set once the judge is ending on a signal: no run returns from then on.
static ENDING_JUDGE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Parks the calling thread for good if the judge is ending on a signal, so that a run its
/// ending stopped is not reported as a result (the process dies meanwhile).
pub fn hold_if_ending() {
    while ENDING_JUDGE.load(Ordering::SeqCst) {
        std::thread::park();
    }
}

/// Ends what the judge has running, removes its temporary folders, and dies of `signal`.
fn terminate(signal: Signal) {
    ENDING_JUDGE.store(true, Ordering::SeqCst);
    for (pid, fd) in helpers() {
        signal_helper(pid, fd, sys::SIGTERM);
    }
    for pgid in groups() {
        let _ = sys::kill_group(pgid, sys::SIGKILL);
    }
    for dir in lock_folders().iter() {
        let _ = std::fs::remove_dir_all(dir);
    }
    sys::die_of(signal);
}
