//! What the judge must end or remove if it is told to stop: the measuring helpers of the programs
//! and checkers it runs, the process groups of its interactors, and its temporary folders. On
//! SIGTERM or SIGINT a thread of its own (the signals are blocked in every other thread) asks each
//! helper to end its program and everything below it, kills the interactors' groups, removes the
//! temporary folders, then lets the signal end the judge.
//!
//! The judge is also a child subreaper: if a program kills its helper, the program and what it
//! started are adopted by the judge rather than by init, and [`sweep_orphans`] ends them.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Mutex, PoisonError};

/// Slots for running processes (0: free); more than this many at once go untracked.
const SLOTS: usize = 256;

/// A lock-free table of process ids.
struct Table([AtomicI32; SLOTS]);

impl Table {
    const fn new() -> Table {
        Table([const { AtomicI32::new(0) }; SLOTS])
    }

    fn add(&self, pid: libc::pid_t) {
        let free = |slot: &&AtomicI32| {
            slot.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        };
        let _ = self.0.iter().find(free);
    }

    fn contains(&self, pid: libc::pid_t) -> bool {
        self.0.iter().any(|slot| slot.load(Ordering::SeqCst) == pid)
    }

    fn remove(&self, pid: libc::pid_t) {
        let taken = |slot: &&AtomicI32| {
            slot.compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        };
        let _ = self.0.iter().find(taken);
    }

    /// Sends `signal` to each recorded id, negated (a process group) if `group`.
    fn signal(&self, signal: libc::c_int, group: bool) {
        for slot in &self.0 {
            let pid = slot.load(Ordering::SeqCst);
            if pid > 0 {
                let target = if group { -pid } else { pid };
                // SAFETY: kill has no memory effects; the process is one the judge started.
                unsafe { libc::kill(target, signal) };
            }
        }
    }
}

/// The measuring helpers running (each ends its program's tree on SIGTERM).
static HELPERS: Table = Table::new();

/// The process groups of running interactors.
static GROUPS: Table = Table::new();

/// The temporary folders in use.
static FOLDERS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Held while a tracked process is spawned and recorded, and while orphans are swept, so that a
/// process just spawned is never taken for an orphan.
static SPAWNING: Mutex<()> = Mutex::new(());

/// Spawns `cmd` and records it: as a helper (`helper`) or as a process group (an interactor's).
///
/// # Errors
/// The process cannot be spawned.
pub fn spawn(cmd: &mut Command, helper: bool) -> std::io::Result<Child> {
    let _spawning = SPAWNING.lock().unwrap_or_else(PoisonError::into_inner);
    let child = cmd.spawn()?;
    let pid = child.id() as libc::pid_t;
    if helper {
        HELPERS.add(pid);
    } else {
        GROUPS.add(pid);
    }
    Ok(child)
}

/// Makes the judge a child subreaper (see the module's documentation).
pub fn adopt_orphans() {
    // SAFETY: prctl with these arguments has no memory effects.
    unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong) };
}

/// Kills and reaps the judge's children that it did not start as a helper or an interactor
/// (orphans of a program that killed its helper), and everything below them, until none is left
/// or 10 s have passed.
pub fn sweep_orphans() {
    let me = std::process::id() as libc::pid_t;
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::time::Instant::now() < give_up {
        let orphans: Vec<libc::pid_t> = {
            let _spawning = SPAWNING.lock().unwrap_or_else(PoisonError::into_inner);
            let foreign = crate::tree::children(me)
                .into_iter()
                .map(|p| p.pid)
                .filter(|&pid| !HELPERS.contains(pid) && !GROUPS.contains(pid));
            let orphans: Vec<libc::pid_t> = foreign.collect();
            for &pid in &orphans {
                crate::tree::kill_below(pid);
                // SAFETY: kill has no memory effects; the process is our child, not reaped.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            orphans
        };
        if orphans.is_empty() {
            return;
        }
        for pid in orphans {
            // SAFETY: pid is our child; a null status pointer is allowed.
            unsafe { libc::waitpid(pid, std::ptr::null_mut(), 0) };
        }
    }
}

/// Forgets helper `pid` (it has exited).
pub fn remove_helper(pid: libc::pid_t) {
    HELPERS.remove(pid);
}

/// Forgets group `pgid` (it has been killed).
pub fn remove_group(pgid: libc::pid_t) {
    GROUPS.remove(pgid);
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

fn lock_folders() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    FOLDERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Blocks SIGTERM and SIGINT in the calling thread (and so in every thread it starts later), and
/// starts the thread that handles them. Call it first, before any other thread exists.
///
/// # Errors
/// The thread cannot be started.
pub fn on_termination() -> Result<(), String> {
    let set = termination_signals();
    // SAFETY: set is a valid signal set.
    unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
    std::thread::Builder::new()
        .name("signals".to_owned())
        .spawn(move || loop {
            let mut signal = 0;
            // SAFETY: set and signal are valid; both signals are blocked in every thread.
            if unsafe { libc::sigwait(&set, &mut signal) } == 0 {
                terminate(signal);
            }
        })
        .map(drop)
        .map_err(|e| format!("cannot start a thread: {e}"))
}

fn termination_signals() -> libc::sigset_t {
    // SAFETY: sigset_t is plain old data, initialised by sigemptyset.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGTERM);
        libc::sigaddset(&mut set, libc::SIGINT);
        set
    }
}

/// Ends what the judge has running, removes its temporary folders, and dies of `signal`.
fn terminate(signal: libc::c_int) {
    HELPERS.signal(libc::SIGTERM, false);
    GROUPS.signal(libc::SIGKILL, true);
    for dir in lock_folders().iter() {
        let _ = std::fs::remove_dir_all(dir);
    }
    let set = termination_signals();
    // SAFETY: the default action of the signal, now unblocked in this thread, ends the judge.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::raise(signal);
        libc::_exit(128 + signal);
    }
}
