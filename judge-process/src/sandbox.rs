//! The box every judged process runs in, where the machine allows it. The measuring helper
//! first leaves the machine's network (the judge run's network namespace, with only a loopback
//! interface up, see [`super::network`], unless the network is allowed) and, run by a user other
//! than root, enters a user namespace (where it maps to itself alone, and holds the capabilities
//! it needs to build the boxes). Then, for the program and for the interactor each, it forks the box's
//! init in new PID, mount and IPC namespaces; the init builds the box's filesystem and reaps
//! the box's orphans; the helper forks the program (or the interactor) into the box's PID
//! namespace and mount namespace.
//!
//! A box's filesystem is a new root (a small tmpfs) holding only:
//! - the system's folders, read-only: `/bin`, `/sbin`, `/lib*`, `/usr`, `/etc`, `/opt` (the
//!   symbolic links among them kept as links);
//! - `/dev` with `null`, `zero`, `full`, `random`, `urandom` and the `fd`, `stdin`, `stdout`,
//!   `stderr` links, and an empty `/dev/shm`;
//! - a `/proc` of the box's own PID namespace: the processes of the box and nothing else;
//! - `/tmp`: the box's private folder (its `TMPDIR`), writable;
//! - what the judge names ([`Spec`]), at its own path: read-only (`ro`: the program's files, its
//!   folder, the interpreters' installations), writable (`rw`: a checker's output folder), or
//!   hidden under an empty read-only folder (`hide`: the test data and the judge's cache where
//!   they lie below a folder shown), deeper paths over shallower ones.
//!
//! Every mount is read-only and `nosuid` but the writable ones. The boxed process runs with
//! `no_new_privs`, without any capability: run by root, the helper gives it a user and group of
//! its own (`BOX_ID_BASE` plus the helper's pid, a number no account uses), so that it can
//! neither lift the mounts nor read what only root may read; run by another user, it keeps that
//! user, without the namespace's capabilities (dropped when it runs its program). The program
//! cannot see the interactor (another PID namespace, another filesystem), the judge, the helper
//! or another case.
//!
//! Where the kernel refuses (no user namespaces for this user, no `mount_setattr`), or with
//! `JUDGE_NO_SANDBOX=1` in the environment, the helper runs the processes without a box, and
//! the judge says so once on stderr.

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Once, OnceLock};

use super::ns;
use super::sys::{self, Pid};

/// The first user and group id given to boxed processes when the judge runs as root.
pub const BOX_ID_BASE: u32 = 1_600_000_000;

/// What one box shows besides the system (see the module's documentation).
#[derive(Clone, Debug, Default)]
pub struct Spec {
    /// Shown read-only at their own paths.
    pub ro: Vec<PathBuf>,
    /// Shown writable at their own paths.
    pub rw: Vec<PathBuf>,
    /// Hidden under an empty folder.
    pub hide: Vec<PathBuf>,
    /// Shown read-only at their own paths even where hidden at the same path.
    pub show: Vec<PathBuf>,
    /// The box's private writable folder, shown as `/tmp`.
    pub tmp: Option<PathBuf>,
    /// The folder the boxed process starts in: made if it is not shown.
    pub cwd: PathBuf,
}

impl Spec {
    /// Takes the box option `name` with its `value` (`--ro`, `--rw`, `--hide`, `--show`, `--tmp`);
    /// whether it was one.
    pub fn take(&mut self, name: &str, value: PathBuf) -> bool {
        match name {
            "--ro" => self.ro.push(value),
            "--rw" => self.rw.push(value),
            "--hide" => self.hide.push(value),
            "--show" => self.show.push(value),
            "--tmp" => self.tmp = Some(value),
            _ => return false,
        }
        true
    }

    /// The folders that must be writable by the boxed process.
    fn writable(&self) -> impl Iterator<Item = &PathBuf> {
        self.rw.iter().chain(&self.tmp)
    }
}

/// Who the boxed processes run as: `Some((uid, gid))` to switch to, `None` to stay.
pub type Ids = Option<(u32, u32)>;

/// The judge's shared namespaces a helper was given (see [`super::network`]): descriptors.
#[derive(Clone, Copy, Debug, Default)]
pub struct Given {
    /// The network namespace.
    pub net: Option<RawFd>,
    /// The user namespace that owns it (the judge not being root).
    pub user: Option<RawFd>,
}

impl Given {
    /// Joins the namespaces given, the user namespace first, and closes their descriptors:
    /// whether the network namespace was joined (and the user namespace, where one was given).
    fn join(self) -> bool {
        let joined = self.net.is_some_and(|net| {
            let user = self
                .user
                .is_none_or(|u| ns::join(u, libc::CLONE_NEWUSER).is_ok());
            user && ns::join(net, libc::CLONE_NEWNET).is_ok()
        });
        for fd in self.net.into_iter().chain(self.user) {
            sys::close_inherited(fd);
        }
        joined
    }
}

/// Enters the helper's own namespaces (see the module's documentation), in the helper, before it
/// forks: the judge's shared ones where it was `given` them and can join them, else new ones.
/// Returns the ids the boxed processes run as, or the `errno` why there is no box (0: turned
/// off).
///
/// # Errors
/// The `errno` of the namespace the kernel refused.
pub fn enter(network: bool, given: Given) -> Result<Ids, i32> {
    let joined = given.join();
    if std::env::var_os("JUDGE_NO_SANDBOX").is_some_and(|v| v != "0") {
        return Err(0);
    }
    let root = sys::geteuid() == 0;
    if !joined {
        let flags = if network { 0 } else { libc::CLONE_NEWNET };
        ns::unshare(!root, flags).map_err(errno)?;
        if !network {
            ns::loopback_up().map_err(errno)?;
        }
    }
    let id = BOX_ID_BASE + sys::getpid().unsigned_abs();
    Ok(root.then_some((id, id)))
}

fn errno(e: io::Error) -> i32 {
    e.raw_os_error().unwrap_or(libc::EPERM)
}

/// A box ready to be entered: its init, the CPU time the init spent building it, the CPU time of
/// the orphans it has reaped so far, and its PID and mount namespaces.
pub struct Opened {
    pub init: Pid,
    pub build_cpu: std::time::Duration,
    pub orphans_cpu: sys::Tally,
    pub pid_ns: File,
    pub mount_ns: File,
}

/// Forks the init of a box that shows `spec`, once `ids` own its writable folders: it builds the
/// box, closes `keep_closed` (the case's descriptors), dies with the helper, and reaps the box's
/// orphans until then.
///
/// # Errors
/// The box could not be built (the init is then gone).
pub fn open(spec: &Spec, ids: Ids, keep_closed: &[RawFd]) -> io::Result<Opened> {
    if let Some((uid, gid)) = ids {
        for folder in spec.writable() {
            give(folder, uid, gid)?;
        }
    }
    let orphans_cpu = sys::Tally::new()?;
    let (ready_read, ready_write) = sys::pipe_blocking()?;
    let (read_end, write_end) = (ready_read.as_raw_fd(), ready_write.as_raw_fd());
    let init = ns::fork_init(|| {
        // In the child, which owns copies of the descriptors: closed by number. Its command line
        // (the helper's) would tell the boxed process the paths of the case.
        sys::scrub_command_line();
        sys::detach_stdio();
        // (Numbers of `keep_closed` not in use may have been given to the pipe.)
        for &fd in keep_closed
            .iter()
            .filter(|&&fd| fd != write_end)
            .chain([&read_end])
        {
            sys::close_inherited(fd);
        }
        sys::die_with_parent(sys::SIGKILL);
        let built = build(spec).err().map_or(0, errno);
        let spent = u64::try_from(sys::own_cpu().as_micros()).unwrap_or(u64::MAX);
        let mut said = [0u8; 12];
        said[..4].copy_from_slice(&built.to_ne_bytes());
        said[4..].copy_from_slice(&spent.to_ne_bytes());
        sys::write_all(write_end, &said);
        sys::close_inherited(write_end);
        sys::reap_forever(&orphans_cpu)
    })?;
    drop(ready_write);
    let mut said = [0u8; 12];
    let read = io::Read::read_exact(&mut File::from(ready_read), &mut said);
    let built = read.map(|()| {
        let (built, spent) = said.split_at(4);
        let built = i32::from_ne_bytes(built.try_into().unwrap_or_default());
        let spent = u64::from_ne_bytes(spent.try_into().unwrap_or_default());
        (built, std::time::Duration::from_micros(spent))
    });
    let opened = match built {
        Ok((0, build_cpu)) => (|| {
            Ok(Opened {
                init,
                build_cpu,
                orphans_cpu,
                pid_ns: File::open(format!("/proc/{init}/ns/pid"))?,
                mount_ns: File::open(format!("/proc/{init}/ns/mnt"))?,
            })
        })(),
        Ok((e, _)) => Err(io::Error::from_raw_os_error(e)),
        Err(e) => Err(e),
    };
    if opened.is_err() {
        let _ = sys::kill(init, sys::SIGKILL);
        let _ = sys::reap(init, false);
    }
    opened
}

/// Gives `path`, and all below it if it is a folder (the judge's own temporary folders, a few
/// files), to `uid` and `gid`; links are not followed.
fn give(path: &Path, uid: u32, gid: u32) -> io::Result<()> {
    std::os::unix::fs::lchown(path, Some(uid), Some(gid))?;
    if std::fs::symlink_metadata(path)?.is_dir() {
        for entry in std::fs::read_dir(path)? {
            give(&entry?.path(), uid, gid)?;
        }
    }
    Ok(())
}

/// The system's folders every box shows read-only.
pub const SYSTEM: [&str; 9] = [
    "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/usr", "/etc", "/opt",
];

/// The devices every box shows.
const DEVICES: [&str; 5] = ["null", "zero", "full", "random", "urandom"];

/// Where the box's new root is mounted before it becomes the root (in the init's own mount
/// namespace, hiding nothing of anyone else's).
fn staging() -> &'static Path {
    ["/tmp", "/mnt", "/var/tmp"]
        .into_iter()
        .map(Path::new)
        .find(|p| p.is_dir())
        .unwrap_or(Path::new("/tmp"))
}

/// How one path is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    ReadOnly,
    Writable,
    Hidden,
    /// Read-only, over a hidden folder at the same path.
    Shown,
}

/// One mount of the box: `source` (opened before anything is mounted) shown at `target`.
struct Entry {
    target: PathBuf,
    kind: Kind,
    source: Option<File>,
}

/// Builds the box of `spec` in this process (the init, in its new mount namespace) and makes it
/// the root.
fn build(spec: &Spec) -> io::Result<()> {
    ns::make_private()?;
    let entries = entries(spec);
    let devices: Vec<(&str, File)> = DEVICES
        .iter()
        .filter_map(|d| Some((*d, open_path(&Path::new("/dev").join(d))?)))
        .collect();
    let links: Vec<(&str, PathBuf)> = SYSTEM
        .iter()
        .filter_map(|d| Some((&d[1..], std::fs::read_link(d).ok()?)))
        .collect();
    let root = staging();
    ns::mount_tmpfs(root, "size=1m,mode=755")?;
    let inside = |p: &Path| root.join(p.strip_prefix("/").unwrap_or(p));
    for (name, target) in &links {
        std::os::unix::fs::symlink(target, root.join(name))?;
    }
    make_dev(root, &devices)?;
    for entry in &entries {
        show(entry, &inside(&entry.target))?;
    }
    let cwd = inside(&spec.cwd);
    if std::fs::symlink_metadata(&cwd).is_err() {
        // Below a read-only folder a missing folder cannot be made: then the process starts in
        // `/`, as it would in a folder that vanished.
        let _ = std::fs::create_dir_all(&cwd);
    }
    let proc_ = root.join("proc");
    std::fs::create_dir(&proc_)?;
    ns::mount_proc(&proc_)?;
    ns::set_attributes(root, ns::READ_ONLY | ns::NO_SUID, 0, true)?;
    for entry in entries.iter().filter(|e| e.kind == Kind::Writable) {
        ns::set_attributes(&inside(&entry.target), 0, ns::READ_ONLY, false)?;
    }
    ns::set_attributes(&root.join("dev/shm"), 0, ns::READ_ONLY, false)?;
    ns::pivot_to(root)
}

/// The mounts of `spec`, shallower paths first (a hidden folder after a folder shown at the same
/// path), their sources opened.
fn entries(spec: &Spec) -> Vec<Entry> {
    let system = SYSTEM
        .iter()
        .map(PathBuf::from)
        .filter(|p| !p.is_symlink() && p.is_dir());
    let mut wanted: Vec<(PathBuf, PathBuf, Kind)> = system
        .chain(spec.ro.iter().cloned())
        .map(|p| (p.clone(), p, Kind::ReadOnly))
        .collect();
    wanted.extend(
        spec.rw
            .iter()
            .map(|p| (p.clone(), p.clone(), Kind::Writable)),
    );
    wanted.extend(
        spec.tmp
            .iter()
            .map(|p| (p.clone(), "/tmp".into(), Kind::Writable)),
    );
    wanted.extend(
        spec.hide
            .iter()
            .map(|p| (p.clone(), p.clone(), Kind::Hidden)),
    );
    wanted.extend(
        spec.show
            .iter()
            .map(|p| (p.clone(), p.clone(), Kind::Shown)),
    );
    wanted.retain(|(_, target, _)| target.is_absolute() && target != Path::new("/"));
    wanted.sort_by_key(|(_, target, kind)| (target.components().count(), *kind));
    let redundant: Vec<bool> = (0..wanted.len())
        .map(|i| shown_by_above(&wanted, i))
        .collect();
    let mut redundant = redundant.into_iter();
    wanted.retain(|_| !redundant.next().unwrap_or(false));
    wanted
        .into_iter()
        .filter_map(|(source, target, kind)| {
            let source = match kind {
                Kind::Hidden => None,
                _ => Some(open_path(&source)?),
            };
            Some(Entry {
                target,
                kind,
                source,
            })
        })
        .collect()
}

/// Whether entry `i` of `wanted` (sorted shallower first) is read-only at its own path and would
/// show what the box shows there anyway: the deepest entry above it is read-only at its own
/// path too (no hidden or writable folder between them).
fn shown_by_above(wanted: &[(PathBuf, PathBuf, Kind)], i: usize) -> bool {
    let (source, target, kind) = &wanted[i];
    let own = |kind: &Kind, source: &PathBuf, target: &PathBuf| {
        matches!(kind, Kind::ReadOnly | Kind::Shown) && source == target
    };
    let same_target = wanted.iter().filter(|(_, t, _)| t == target).count() > 1;
    if same_target || !own(kind, source, target) {
        return false;
    }
    let above = wanted[..i]
        .iter()
        .filter(|(_, t, _)| t != target && target.starts_with(t))
        .max_by_key(|(_, t, k)| (t.components().count(), *k));
    above.is_some_and(|(s, t, k)| own(k, s, t))
}

/// `path` opened to be named, not read (`O_PATH`); `None` if it does not exist.
fn open_path(path: &Path) -> Option<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_PATH | libc::O_CLOEXEC)
        .open(path)
        .ok()
}

/// Mounts `entry` at `at` (its target inside the new root): a missing mount point is made (in a
/// folder of the box's own, or one shown writable), one that cannot be made leaves the entry out.
fn show(entry: &Entry, at: &Path) -> io::Result<()> {
    let folder = entry
        .source
        .as_ref()
        .map_or(Ok(true), |s| s.metadata().map(|m| m.is_dir()))?;
    if std::fs::symlink_metadata(at).is_err() {
        let made = at
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| {
                if folder {
                    std::fs::create_dir(at)
                } else {
                    File::create(at).map(drop)
                }
            });
        if made.is_err() {
            return Ok(());
        }
    }
    match &entry.source {
        None => ns::mount_tmpfs(at, "size=64k,mode=755")?,
        Some(source) => {
            ns::bind(source, at)?;
            if matches!(entry.kind, Kind::ReadOnly | Kind::Shown) {
                // At once: nothing made later for a deeper path can reach the disk through it.
                ns::set_attributes(at, ns::READ_ONLY | ns::NO_SUID, 0, true)?;
            }
        }
    }
    Ok(())
}

/// Fills `root/dev`: the `devices` bound on files of their names, the links to `/proc/self/fd`,
/// and a small tmpfs on `shm`.
fn make_dev(root: &Path, devices: &[(&str, File)]) -> io::Result<()> {
    let dev = root.join("dev");
    std::fs::create_dir(&dev)?;
    for (name, source) in devices {
        let at = dev.join(name);
        File::create(&at)?;
        ns::bind(source, &at)?;
    }
    let links = [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ];
    for (name, target) in links {
        std::os::unix::fs::symlink(target, dev.join(name))?;
    }
    let shm = dev.join("shm");
    std::fs::create_dir(&shm)?;
    ns::mount_tmpfs(&shm, "size=64m,mode=1777")
}

/// Why the helpers ran without a box, once one has said so (an `errno`, 0 when turned off).
static UNAVAILABLE: OnceLock<i32> = OnceLock::new();

/// Whether the box is turned off (`--no-sandbox`).
static TURNED_OFF: AtomicBool = AtomicBool::new(false);

/// Turns the box off for every run from now on (`--no-sandbox`).
pub fn turn_off() {
    TURNED_OFF.store(true, Ordering::SeqCst);
}

/// Whether the box is turned off.
#[must_use]
pub fn turned_off() -> bool {
    TURNED_OFF.load(Ordering::SeqCst)
}

/// Why the helpers ran without a box, once one has said so: an `errno`, 0 when turned off.
#[must_use]
pub fn unavailable() -> Option<i32> {
    UNAVAILABLE.get().copied()
}

/// Why there is no box, and what to do.
pub fn why(errno: i32) -> String {
    if errno == 0 {
        "the sandbox is turned off".to_string()
    } else {
        format!(
            "the namespaces cannot be set up here: {}; allow unprivileged user namespaces \
             (sysctl kernel.unprivileged_userns_clone=1, or the AppArmor profile that restricts \
             them) or run as root",
            std::io::Error::from_raw_os_error(errno)
        )
    }
}

/// Says once on stderr that the judge runs programs without the box, and why (`errno`).
pub fn say_unavailable(errno: i32) {
    let _ = UNAVAILABLE.set(errno);
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let why = if errno == 0 {
            "--no-sandbox or JUDGE_NO_SANDBOX is set".to_string()
        } else {
            why(errno)
        };
        let mut stderr = std::io::stderr().lock();
        // Nothing to do about a stderr that cannot be written: the runs go on.
        let said = format!(
            "judge: programs run without the sandbox ({why}); they can read the test data, write \
             the machine's files and signal the judge\n"
        );
        let _ = std::io::Write::write_all(&mut stderr, said.as_bytes());
    });
}
