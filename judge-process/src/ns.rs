//! The system calls of the box (see [`super::sandbox`]): namespaces, mounts, the loopback
//! interface and the identity a boxed process runs as. With [`super::sys`], the only `unsafe`
//! code of the judge; each function states what it needs of its arguments and takes no raw
//! pointer. All of them are for the single-threaded measuring helper and the box's init.

use std::ffi::{CStr, CString};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::sys::Pid;

/// The result of a call that returns -1 and sets `errno` on failure.
fn check(r: libc::c_long) -> io::Result<libc::c_long> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

/// `path` as a C string.
///
/// # Errors
/// It holds a NUL byte (`EINVAL`).
pub fn c_path(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
}

/// Enters new namespaces for this process (`CLONE_NEW*` flags): with `user`, a user namespace
/// where this process's user and group map to themselves and nothing else (`setgroups` denied),
/// in which it holds every capability until it runs another program.
///
/// # Errors
/// The kernel refuses (`EPERM`, `EINVAL`, `ENOSPC`), or the mapping cannot be written.
pub fn unshare(user: bool, flags: libc::c_int) -> io::Result<()> {
    // SAFETY: getuid and getgid cannot fail.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    let flags = if user {
        flags | libc::CLONE_NEWUSER
    } else {
        flags
    };
    // SAFETY: unshare takes an integer; the caller is single-threaded (a user namespace
    // requires it).
    check(unsafe { libc::unshare(flags) }.into())?;
    if user {
        std::fs::write("/proc/self/setgroups", "deny")?;
        std::fs::write("/proc/self/uid_map", format!("{uid} {uid} 1"))?;
        std::fs::write("/proc/self/gid_map", format!("{gid} {gid} 1"))?;
    }
    Ok(())
}

/// Joins the namespace of kind `kind` (a `CLONE_NEW*` flag) that descriptor `fd` names: for a
/// user namespace, with every capability in it; the caller must be single-threaded.
///
/// # Errors
/// Not a namespace of that kind, or no right to join it.
pub fn join(fd: RawFd, kind: libc::c_int) -> io::Result<()> {
    // SAFETY: setns takes two integers.
    check(unsafe { libc::setns(fd, kind) }.into()).map(drop)
}

/// Brings the loopback interface of this process's network namespace up (a new namespace has it
/// down).
///
/// # Errors
/// No socket, or no right to change the interface.
pub fn loopback_up() -> io::Result<()> {
    // SAFETY: socket takes integers; the descriptor is ours and wrapped at once.
    let fd = check(
        unsafe { libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0) }.into(),
    )?;
    // SAFETY: a new descriptor owned by no one else.
    let socket: File = unsafe { std::os::fd::FromRawFd::from_raw_fd(fd as RawFd) };
    // SAFETY: ifreq is plain old data; all zeroes is a valid value.
    let mut request: libc::ifreq = unsafe { std::mem::zeroed() };
    for (slot, &byte) in request.ifr_name.iter_mut().zip(b"lo\0") {
        *slot = byte as libc::c_char;
    }
    // SAFETY: ioctl with a valid ifreq that outlives the call; SIOCGIFFLAGS fills its flags.
    check(unsafe { libc::ioctl(socket.as_raw_fd(), libc::SIOCGIFFLAGS, &mut request) }.into())?;
    // SAFETY: the union's flags were just filled in.
    unsafe {
        request.ifr_ifru.ifru_flags |= libc::IFF_UP as libc::c_short;
    }
    // SAFETY: as above, SIOCSIFFLAGS reads the request.
    check(unsafe { libc::ioctl(socket.as_raw_fd(), libc::SIOCSIFFLAGS, &request) }.into())?;
    Ok(())
}

/// Forks a child in new PID, mount and IPC namespaces, where it is process 1: the child runs
/// `child` and exits with what it returns; the parent gets the child's pid.
///
/// # Errors
/// The kernel refuses the namespaces, or the fork failed.
pub fn fork_init(child: impl FnOnce() -> i32) -> io::Result<Pid> {
    let flags = libc::CLONE_NEWPID | libc::CLONE_NEWNS | libc::CLONE_NEWIPC;
    // SAFETY: clone without a new stack, as fork does, in a single-threaded caller: the child
    // goes on with a copy of this process's memory, runs `child` and exits.
    let pid = check(unsafe {
        libc::syscall(
            libc::SYS_clone,
            (flags | libc::SIGCHLD) as libc::c_ulong,
            0usize,
            0usize,
            0usize,
            0usize,
        )
    })?;
    if pid == 0 {
        let code = child();
        // SAFETY: _exit takes an integer and does not return.
        unsafe { libc::_exit(code) }
    }
    Ok(pid as Pid)
}

/// Makes the children this process forks from now on members of the PID namespace `ns` (a
/// namespace below this process's own).
///
/// # Errors
/// Not a PID namespace below ours, or no right to enter it.
pub fn children_in(ns: &File) -> io::Result<()> {
    // SAFETY: setns on a descriptor we hold.
    check(unsafe { libc::setns(ns.as_raw_fd(), libc::CLONE_NEWPID) }.into()).map(drop)
}

fn mount(
    source: Option<&CStr>,
    target: &CStr,
    fstype: Option<&CStr>,
    flags: libc::c_ulong,
    data: Option<&CStr>,
) -> io::Result<()> {
    let ptr = |s: Option<&CStr>| s.map_or(std::ptr::null(), CStr::as_ptr);
    // SAFETY: every pointer is null or a valid C string that outlives the call.
    let r = unsafe {
        libc::mount(
            ptr(source),
            target.as_ptr(),
            ptr(fstype),
            flags,
            ptr(data).cast(),
        )
    };
    check(r.into()).map(drop)
}

/// Makes every mount of this process's mount namespace private: nothing done here reaches
/// another namespace.
///
/// # Errors
/// The mount namespace is the machine's own, or no right.
pub fn make_private() -> io::Result<()> {
    mount(None, c"/", None, libc::MS_REC | libc::MS_PRIVATE, None)
}

/// Mounts a new tmpfs on `target` with mount options `options` (`size=...,mode=...`).
///
/// # Errors
/// The mount fails.
pub fn mount_tmpfs(target: &Path, options: &str) -> io::Result<()> {
    let data = CString::new(options).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))?;
    let flags = libc::MS_NOSUID | libc::MS_NODEV;
    mount(
        Some(c"tmpfs"),
        &c_path(target)?,
        Some(c"tmpfs"),
        flags,
        Some(&data),
    )
}

/// Mounts a `/proc` on `target` showing this process's PID namespace.
///
/// # Errors
/// The mount fails.
pub fn mount_proc(target: &Path) -> io::Result<()> {
    let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
    mount(Some(c"proc"), &c_path(target)?, Some(c"proc"), flags, None)
}

/// Binds what `source` (a descriptor opened with `O_PATH`) names on `target`, with what is
/// mounted below it.
///
/// # Errors
/// The mount fails.
pub fn bind(source: &File, target: &Path) -> io::Result<()> {
    let from = CString::new(format!("/proc/self/fd/{}", source.as_raw_fd())).expect("no NUL");
    let flags = libc::MS_BIND | libc::MS_REC;
    mount(Some(&from), &c_path(target)?, None, flags, None)
}

/// `MOUNT_ATTR_RDONLY`.
pub const READ_ONLY: u64 = 0x1;
/// `MOUNT_ATTR_NOSUID`.
pub const NO_SUID: u64 = 0x2;

/// Sets the attributes `set` and clears `clear` on the mount at `path` (and every mount below it
/// with `recursive`): `mount_setattr`, Linux 5.12 and later.
///
/// # Errors
/// The call fails (`ENOSYS` on older kernels).
pub fn set_attributes(path: &Path, set: u64, clear: u64, recursive: bool) -> io::Result<()> {
    #[repr(C)]
    struct MountAttr {
        attr_set: u64,
        attr_clr: u64,
        propagation: u64,
        userns_fd: u64,
    }
    let attr = MountAttr {
        attr_set: set,
        attr_clr: clear,
        propagation: 0,
        userns_fd: 0,
    };
    let target = c_path(path)?;
    let flags: libc::c_uint = if recursive { 0x8000 } else { 0 }; // AT_RECURSIVE
                                                                  // SAFETY: mount_setattr with a valid path, flags and a pointer to an attribute of its size.
    let r = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            target.as_ptr(),
            flags,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    check(r).map(drop)
}

/// Makes the mount at `new_root` the root of this process's mount namespace and leaves the old
/// root behind (unmounted from the namespace): `pivot_root(".", ".")` from the new root.
///
/// # Errors
/// `new_root` is not a mount point, or the calls fail.
pub fn pivot_to(new_root: &Path) -> io::Result<()> {
    std::env::set_current_dir(new_root)?;
    // SAFETY: pivot_root with two valid C strings.
    check(unsafe { libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) })?;
    // SAFETY: umount2 with a valid C string and an integer.
    check(unsafe { libc::umount2(c".".as_ptr(), libc::MNT_DETACH) }.into())?;
    std::env::set_current_dir("/")
}
