//! The zygote: a small copy of the judge's executable, started once, that forks the measuring
//! helpers, so that a run costs neither a fork of the whole judge (its threads and memory) nor
//! an `exec` and start of its executable.
//!
//! The judge starts it (`judge __zygote JUDGE_PID`) from a thread of its own that lives as long as
//! the judge, and talks to it over a Unix socket on the zygote's descriptor 3. For each helper
//! the judge sends one message: the helper's arguments, environment and folder, with the
//! descriptors it is to hold (its stdin, stdout, stderr, the report pipe...) and their numbers.
//! The zygote forks with `CLONE_PARENT`, so that the helper is the judge's own child, as if the
//! judge had spawned it (the judge waits for it, signals it through a pidfd, and is its subreaper's
//! parent), and answers with the helper's pid. The helper, in the fork, places its descriptors,
//! enters its folder and environment, leads a process group of its own, gets SIGTERM if the
//! judge's zygote thread ends (`PR_SET_PDEATHSIG`: the judge is gone), and runs as a helper
//! started by `exec` would.
//!
//! The zygote holds nothing else: its stdin, stdout and stderr are `/dev/null`, every descriptor it
//! receives is closed once the fork has its copy. It ends when the judge's end of the socket
//! closes, and gets SIGKILL if the judge's zygote thread ends. Where it cannot be started, or dies,
//! the judge starts its helpers with `exec` as before.

mod sys;

use std::ffi::{OsStr, OsString};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;
use std::sync::{Mutex, OnceLock, PoisonError};

use crate::sys::{self as base, Pid};

/// The zygote's first argument.
pub const ZYGOTE: &str = "__zygote";

/// The zygote's socket, as the judge gives it.
const SOCKET_FD: RawFd = 3;

/// The longest message the zygote reads.
const MAX_MESSAGE: usize = 1 << 18;

/// The judge's end of the socket, and the zygote's pid.
struct Zygote {
    socket: OwnedFd,
    pid: Pid,
}

static ZYGOTE_SOCKET: OnceLock<Option<Mutex<Option<Zygote>>>> = OnceLock::new();

/// A helper to start: what it runs (its arguments after the executable's name), its
/// environment (`NAME=value`), its folder, and the descriptors it holds: `fds[i].0` as number
/// `fds[i].1`.
pub struct Request<'a> {
    pub args: &'a [OsString],
    pub env: &'a [OsString],
    pub cwd: &'a Path,
    pub fds: &'a [(RawFd, RawFd)],
}

/// The zygote's pid, if it runs: a child of the judge that is not an orphan.
#[must_use]
pub fn pid() -> Option<Pid> {
    let zygote = ZYGOTE_SOCKET.get()?.as_ref()?;
    let held = zygote.lock().unwrap_or_else(PoisonError::into_inner);
    held.as_ref().map(|z| z.pid)
}

/// Ends the zygote, if it runs: closes the judge's end of its socket (it then exits) and waits
/// for it, so that none of the judge's processes outlives its work. Helpers are started by
/// `exec` from then on.
pub fn end() {
    let Some(Some(zygote)) = ZYGOTE_SOCKET.get() else {
        return;
    };
    let taken = zygote.lock().unwrap_or_else(PoisonError::into_inner).take();
    if let Some(Zygote { socket, pid }) = taken {
        drop(socket);
        // Reaped already (by a wait for any child) is as good: ECHILD.
        let _ = base::reap(pid, false);
    }
}

/// Starts a helper through the zygote (started at the first call): its pid, or `None` where
/// there is no zygote (the caller starts the helper itself). Call it with the judge's spawn lock
/// held (the helper is a child of the judge).
///
/// # Errors
/// The zygote could not fork the helper.
pub fn spawn(request: &Request) -> Option<std::io::Result<Pid>> {
    if std::env::var_os("JUDGE_NO_ZYGOTE").is_some() {
        return None;
    }
    let zygote = ZYGOTE_SOCKET.get_or_init(|| start().map(|z| Mutex::new(Some(z))));
    let mut held = zygote
        .as_ref()?
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    let socket = held.as_ref()?.socket.as_raw_fd();
    let (bytes, fds) = encode(request);
    let mut reply = [0u8; 16];
    let answer = sys::send(socket, &bytes, &fds).and_then(|()| sys::receive(socket, &mut reply));
    match answer {
        Ok(Some((answer, _))) if answer.len() == 4 => {
            let n = i32::from_ne_bytes([answer[0], answer[1], answer[2], answer[3]]);
            Some(if n > 0 {
                Ok(n)
            } else {
                Err(std::io::Error::from_raw_os_error(-n))
            })
        }
        Err(e) if e.raw_os_error() == Some(libc::EMSGSIZE) => None,
        _ => {
            // The zygote is gone: from now on the judge starts its helpers itself.
            *held = None;
            None
        }
    }
}

/// Starts the zygote from a thread that stays for the judge's life.
fn start() -> Option<Zygote> {
    let (ours, theirs) = sys::socket_pair().ok()?;
    let (tx, rx) = std::sync::mpsc::channel();
    let judge = base::getpid();
    let spawned = std::thread::Builder::new()
        .name("zygote".into())
        .spawn(move || {
            let started = (|| {
                let mut cmd = std::process::Command::new(crate::own::executable()?);
                cmd.arg(ZYGOTE)
                    .arg(judge.to_string())
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null());
                base::pass_fds(
                    &mut cmd,
                    vec![(theirs.as_raw_fd(), SOCKET_FD)],
                    base::SIGKILL,
                );
                cmd.spawn()
            })();
            drop(theirs);
            let _ = tx.send(started.map(|child| child.id() as Pid));
            loop {
                std::thread::park();
            }
        });
    spawned.ok()?;
    let pid = rx.recv().ok()?.ok()?;
    Some(Zygote { socket: ours, pid })
}

/// The message for `request`: the number of descriptors and their numbers, then the folder, the
/// environment, an empty string and the arguments, each ended by a NUL byte.
fn encode(request: &Request) -> (Vec<u8>, Vec<RawFd>) {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&(request.fds.len() as u32).to_ne_bytes());
    for &(_, to) in request.fds {
        bytes.extend_from_slice(&to.to_ne_bytes());
    }
    let strings = std::iter::once(request.cwd.as_os_str())
        .chain(request.env.iter().map(OsString::as_os_str))
        .chain([OsStr::new("")])
        .chain(request.args.iter().map(OsString::as_os_str));
    for s in strings {
        bytes.extend_from_slice(s.as_bytes());
        bytes.push(0);
    }
    (bytes, request.fds.iter().map(|&(from, _)| from).collect())
}

/// A request as the zygote reads it.
struct Decoded {
    targets: Vec<RawFd>,
    cwd: OsString,
    env: Vec<OsString>,
    args: Vec<OsString>,
}

fn decode(bytes: &[u8]) -> Option<Decoded> {
    let count = u32::from_ne_bytes(bytes.get(..4)?.try_into().ok()?) as usize;
    let numbers = bytes.get(4..4 + 4 * count)?;
    let targets = numbers
        .chunks_exact(4)
        .map(|c| RawFd::from_ne_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let rest = bytes.get(4 + 4 * count..)?.strip_suffix(&[0])?;
    let mut strings = rest
        .split(|&b| b == 0)
        .map(|s| OsString::from_vec(s.to_vec()));
    let cwd = strings.next()?;
    let env = strings.by_ref().take_while(|s| !s.is_empty()).collect();
    Some(Decoded {
        targets,
        cwd,
        env,
        args: strings.collect(),
    })
}

/// The zygote (see the module's documentation): `args` is the judge's pid. Exits 0 when the
/// judge's end of the socket closes.
#[must_use]
pub fn zygote(args: &[OsString]) -> std::process::ExitCode {
    let judge: Option<Pid> = args.first().and_then(|a| a.to_str()?.parse().ok());
    let Some(judge) = judge else {
        return std::process::ExitCode::from(127);
    };
    base::die_with_parent(base::SIGKILL);
    let Ok(socket) = sys::move_high(SOCKET_FD) else {
        return std::process::ExitCode::from(127);
    };
    if sys::parent() != judge {
        return std::process::ExitCode::SUCCESS;
    }
    // One buffer for every request: a new one would be written over pages shared with the
    // helpers forked before (each write a copy of the page).
    let mut buffer = vec![0u8; MAX_MESSAGE];
    while let Ok(Some((bytes, fds))) = sys::receive(socket.as_raw_fd(), &mut buffer) {
        let answer = match decode(bytes).filter(|d| d.targets.len() == fds.len()) {
            Some(request) => fork_helper(request, fds, judge, socket.as_raw_fd()),
            None => -libc::EINVAL,
        };
        if sys::send(socket.as_raw_fd(), &answer.to_ne_bytes(), &[]).is_err() {
            break;
        }
    }
    std::process::ExitCode::SUCCESS
}

/// Forks the helper of `request`, holding `fds`: its pid, or `-errno`.
fn fork_helper(request: Decoded, fds: Vec<OwnedFd>, judge: Pid, socket: RawFd) -> i32 {
    let forked = sys::fork_sibling(|| {
        base::close_inherited(socket);
        let placed: Vec<(OwnedFd, RawFd)> = fds.into_iter().zip(request.targets).collect();
        if sys::place(placed).is_err() {
            return 127;
        }
        base::die_with_parent(base::SIGTERM);
        if sys::parent() != judge || std::env::set_current_dir(&request.cwd).is_err() {
            return 127;
        }
        sys::own_group_no_mask();
        for (name, _) in std::env::vars_os() {
            std::env::remove_var(name);
        }
        for entry in &request.env {
            let bytes = entry.as_bytes();
            if let Some(eq) = bytes.iter().position(|&b| b == b'=') {
                let (name, value) = (&bytes[..eq], &bytes[eq + 1..]);
                std::env::set_var(OsStr::from_bytes(name), OsStr::from_bytes(value));
            }
        }
        let code = crate::helper::run(&request.args);
        i32::from(code)
    });
    match forked {
        Ok(pid) => pid,
        Err(e) => -e.raw_os_error().unwrap_or(libc::EAGAIN),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_reads_back_as_it_was_written() {
        let args = [
            OsString::from("__measure"),
            OsString::from("a b"),
            OsString::from(""),
        ];
        let env = [OsString::from("A=1"), OsString::from("PATH=/x:/y")];
        let fds = [(10, 0), (11, 1), (12, 3)];
        let request = Request {
            args: &args[1..],
            env: &env,
            cwd: Path::new("/some folder"),
            fds: &fds,
        };
        let (bytes, sent) = encode(&request);
        assert_eq!(sent, vec![10, 11, 12]);
        let d = decode(&bytes).expect("decodes");
        assert_eq!(d.targets, vec![0, 1, 3]);
        assert_eq!(d.cwd, "/some folder");
        assert_eq!(d.env, env.to_vec());
        assert_eq!(d.args, args[1..].to_vec());
        assert!(decode(&bytes[..6]).is_none(), "cut inside the numbers");
        assert!(decode(&bytes[..16]).is_none(), "no NUL at the end");
        assert!(decode(&[1, 0]).is_none());
    }
}
