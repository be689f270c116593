//! The process groups the judge has started and not yet killed, so that SIGTERM or SIGINT to the
//! judge kills them before it exits. The table is lock-free: the signal handler only reads it.

use std::sync::atomic::{AtomicI32, Ordering};

/// Slots for the running groups (0: free); more than this many at once go untracked.
const SLOTS: usize = 256;

static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];

/// Records the running group `pgid`.
pub fn add(pgid: libc::pid_t) {
    for slot in &GROUPS {
        if slot
            .compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
}

/// Forgets group `pgid` (it has been killed).
pub fn remove(pgid: libc::pid_t) {
    for slot in &GROUPS {
        if slot
            .compare_exchange(pgid, 0, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
}

/// On SIGTERM and SIGINT: kill every recorded group, then die of the same signal.
pub fn kill_on_termination() {
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only calls async-signal-safe functions (kill, signal, raise) and
    // reads atomics.
    unsafe {
        libc::signal(libc::SIGTERM, handler);
        libc::signal(libc::SIGINT, handler);
    }
}

extern "C" fn on_signal(signal: libc::c_int) {
    for slot in &GROUPS {
        let pgid = slot.load(Ordering::SeqCst);
        if pgid > 0 {
            // SAFETY: async-signal-safe; the group is one the judge started.
            unsafe { libc::kill(-pgid, libc::SIGKILL) };
        }
    }
    // SAFETY: async-signal-safe; the default action ends the judge with this signal.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}
