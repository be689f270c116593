//! One network namespace for every box of a judge run. A new network namespace costs the kernel
//! about 2 ms to make and as much to tear down; made per run, it would be most of the box's cost.
//! So the judge makes one, the first time a helper needs it: it starts its own executable as a
//! short-lived holder (`judge __network`), which leaves the machine's network (a network
//! namespace with only its loopback interface, up; run by a user other than root, inside a user
//! namespace of its own where that user maps to itself) and says so; the judge opens the
//! namespaces' files in `/proc` and lets the holder exit. The open files keep the namespaces
//! alive for as long as the judge runs. Each helper is given them as descriptors [`NET_FD`] (and
//! [`USER_FD`]) and joins them (`setns`) instead of making its own.
//!
//! The boxes of one judge run thus share one loopback interface: two programs boxed at the same
//! time (`-j 2`, or a program and its interactor) could reach each other through it or through
//! an abstract Unix socket, though neither can reach the machine's network or any other process
//! of the machine. Where the holder cannot make the namespaces, each helper tries itself, and
//! the judge says why it cannot.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use super::ns;
use super::sys;

/// The holder's first argument.
pub const HOLDER: &str = "__network";

pub use super::helper::{NET_FD, USER_FD};

/// The shared namespaces, open.
#[derive(Debug)]
pub struct Shared {
    /// The network namespace.
    pub net: File,
    /// The user namespace that owns it, when the judge does not run as root.
    pub user: Option<File>,
}

/// The shared namespaces, made at the first call; `None` where they cannot be made, or the box
/// is turned off (then each helper goes its own way, and says why).
pub fn shared() -> Option<&'static Shared> {
    static SHARED: OnceLock<Option<Shared>> = OnceLock::new();
    if super::sandbox::turned_off()
        || std::env::var_os("JUDGE_NO_SANDBOX").is_some_and(|v| v != "0")
    {
        return None;
    }
    SHARED
        .get_or_init(|| super::registry::while_spawning(make))
        .as_ref()
}

/// Starts the holder, opens its namespaces once it is ready, and lets it exit.
fn make() -> Option<Shared> {
    let mut holder = Command::new(super::own::executable().ok()?)
        .arg(HOLDER)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut line = String::new();
    let said = holder
        .stdout
        .take()
        .map(|out| BufReader::new(out).read_line(&mut line));
    let shared = (matches!(said, Some(Ok(_))) && line == "ready\n")
        .then(|| {
            let pid = holder.id();
            let open = |kind: &str| File::open(format!("/proc/{pid}/ns/{kind}"));
            let user = match sys::geteuid() {
                0 => None,
                _ => Some(open("user").ok()?),
            };
            Some(Shared {
                net: open("net").ok()?,
                user,
            })
        })
        .flatten();
    drop(holder.stdin.take());
    let _ = holder.kill();
    let _ = holder.wait();
    shared
}

/// The holder (see the module's documentation): makes the namespaces, writes `ready` (or
/// `failed ERRNO`) on stdout, and exits when its stdin closes.
#[must_use]
pub fn hold() -> std::process::ExitCode {
    let root = sys::geteuid() == 0;
    let made = ns::unshare(!root, libc::CLONE_NEWNET).and_then(|()| ns::loopback_up());
    let line = match made {
        Ok(()) => "ready\n".to_string(),
        Err(e) => format!("failed {}\n", e.raw_os_error().unwrap_or(0)),
    };
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(line.as_bytes()).and_then(|()| out.flush());
    drop(out);
    let _ = std::io::stdin().read_to_end(&mut Vec::new());
    std::process::ExitCode::SUCCESS
}
