//! The sandbox every judged process runs in, where the machine allows it: the measuring helper
//! enters new user, mount and PID namespaces (unprivileged: `unshare(CLONE_NEWUSER |
//! CLONE_NEWNS | CLONE_NEWPID)`, as the same user) before it forks anything.
//!
//! - **PID namespace.** The helper's first child is the namespace's init: it reaps the orphans of
//!   the case, and when it dies the kernel kills every process of the namespace. The program and
//!   the interactor are forked by the helper into the namespace (their parent, outside it, has
//!   pid 0 for them): they cannot name, so cannot signal, the judge, the helper or any process
//!   of another case.
//! - **Mount namespace.** Every mount is made private and read-only (the test data, the judge's
//!   files, `/tmp`, everything); only the temporary folders the judge names in the process's
//!   arguments (a checker's or an interactor's output folder) are writable, at their own paths. `/proc` is the machine's: the processes outside
//!   can be seen there, not signalled.
//! - **Signals.** The program starts with default dispositions and an empty mask (see
//!   [`super::sys::spawn`]).
//!
//! Where the kernel refuses (no unprivileged user namespaces), or with `JUDGE_NO_SANDBOX=1` in
//! the environment, the helper runs the processes as before, and the judge says so once on
//! stderr.

use std::path::PathBuf;
use std::sync::Once;

use super::sys;

/// How far the helper got into the sandbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entered {
    /// Everything: namespaces and read-only mounts.
    Fully,
    /// The namespaces, not the mounts (the `errno`): the PID namespace still needs its init.
    Namespaces(i32),
    /// Nothing (the `errno`; 0 when turned off).
    Not(i32),
}

/// Enters the sandbox (see the module's documentation) with `writable` folders, in the helper,
/// before it forks.
#[must_use]
pub fn enter(writable: &[PathBuf]) -> Entered {
    if std::env::var_os("JUDGE_NO_SANDBOX").is_some_and(|v| v != "0") {
        return Entered::Not(0);
    }
    let errno = |e: std::io::Error| e.raw_os_error().unwrap_or(libc_eperm());
    if let Err(e) = sys::unshare_sandbox() {
        return Entered::Not(errno(e));
    }
    match sys::mount_read_only(writable) {
        Ok(()) => Entered::Fully,
        Err(e) => Entered::Namespaces(errno(e)),
    }
}

fn libc_eperm() -> i32 {
    1
}

/// Says once on stderr that the judge runs programs without the sandbox, and why (`errno`).
pub fn say_unavailable(errno: i32) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let why = if errno == 0 {
            "JUDGE_NO_SANDBOX is set".to_string()
        } else {
            format!(
                "the namespaces cannot be set up here: {}",
                std::io::Error::from_raw_os_error(errno)
            )
        };
        let mut stderr = std::io::stderr().lock();
        // Nothing to do about a stderr that cannot be written: the runs go on.
        let said = format!(
            "judge: programs run without isolation ({why}); they can write the test data and \
             signal the judge\n"
        );
        let _ = std::io::Write::write_all(&mut stderr, said.as_bytes());
    });
}
