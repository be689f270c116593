//! The system calls of the zygote (see [`super`]): a socket that carries descriptors, and the
//! fork of a child of the zygote's own parent. With `crate::sys` and `crate::ns`, the only
//! `unsafe` code of the judge; each function states what it needs and takes no raw pointer.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use crate::sys::Pid;

/// The most descriptors one message carries.
pub const MAX_FDS: usize = 12;

fn check(r: libc::c_long) -> io::Result<libc::c_long> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

/// A connected pair of Unix sockets that keep message boundaries (`SOCK_SEQPACKET`), closed on
/// `exec`.
///
/// # Errors
/// No socket could be made.
pub fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as libc::c_int; 2];
    let kind = libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC;
    // SAFETY: socketpair fills the array of two integers it is given.
    check(unsafe { libc::socketpair(libc::AF_UNIX, kind, 0, fds.as_mut_ptr()) }.into())?;
    // SAFETY: two new descriptors owned by no one else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Sends `bytes` as one message on `socket`, with copies of the descriptors `fds` (at most
/// [`MAX_FDS`]).
///
/// # Errors
/// The message cannot be sent (the other end is gone, it is too long).
pub fn send(socket: RawFd, bytes: &[u8], fds: &[RawFd]) -> io::Result<()> {
    if fds.len() > MAX_FDS {
        return Err(io::Error::from_raw_os_error(libc::EINVAL));
    }
    let room = cmsg_space(fds.len());
    // u64 for the alignment of a cmsghdr.
    let mut control = vec![0u64; room.div_ceil(8).max(1)];
    let mut iov = libc::iovec {
        iov_base: bytes.as_ptr() as *mut libc::c_void,
        iov_len: bytes.len(),
    };
    // SAFETY: msghdr is plain old data; all zeroes is a valid value.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    if !fds.is_empty() {
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = room as _;
        // SAFETY: the control buffer holds `room` bytes, enough for one header and `fds`; the
        // macros compute offsets inside it.
        unsafe {
            let header = libc::CMSG_FIRSTHDR(&msg);
            (*header).cmsg_level = libc::SOL_SOCKET;
            (*header).cmsg_type = libc::SCM_RIGHTS;
            (*header).cmsg_len = libc::CMSG_LEN(std::mem::size_of_val(fds) as u32) as _;
            std::ptr::copy_nonoverlapping(
                fds.as_ptr(),
                libc::CMSG_DATA(header).cast::<RawFd>(),
                fds.len(),
            );
        }
    }
    loop {
        // SAFETY: msg points at the iovec and control buffer above, which outlive the call.
        let sent = unsafe { libc::sendmsg(socket, &msg, libc::MSG_NOSIGNAL) };
        if sent >= 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

fn cmsg_space(fds: usize) -> usize {
    // SAFETY: CMSG_SPACE computes a size from an integer.
    unsafe { libc::CMSG_SPACE((fds * std::mem::size_of::<RawFd>()) as u32) as usize }
}

/// Receives one message from `socket` into `bytes` (at most its length), with the descriptors it
/// carries (closed on `exec`): the part of `bytes` received; `None` once the other end is gone.
///
/// # Errors
/// The message cannot be read, or was longer than `bytes` (`EMSGSIZE`).
pub fn receive(socket: RawFd, bytes: &mut [u8]) -> io::Result<Option<(&[u8], Vec<OwnedFd>)>> {
    let room = cmsg_space(MAX_FDS);
    let mut control = vec![0u64; room.div_ceil(8)];
    let mut iov = libc::iovec {
        iov_base: bytes.as_mut_ptr().cast(),
        iov_len: bytes.len(),
    };
    // SAFETY: msghdr is plain old data; all zeroes is a valid value.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = room as _;
    let got = loop {
        // SAFETY: msg points at buffers of the lengths it states, which outlive the call.
        let got = unsafe { libc::recvmsg(socket, &mut msg, libc::MSG_CMSG_CLOEXEC) };
        if got >= 0 {
            break got as usize;
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    };
    let mut fds = Vec::new();
    // SAFETY: the kernel filled the control buffer; the macros walk its headers within
    // msg_controllen, and each SCM_RIGHTS header holds descriptors now ours.
    unsafe {
        let mut header = libc::CMSG_FIRSTHDR(&msg);
        while !header.is_null() {
            if (*header).cmsg_level == libc::SOL_SOCKET && (*header).cmsg_type == libc::SCM_RIGHTS {
                let data = libc::CMSG_DATA(header).cast::<RawFd>();
                let len = (*header).cmsg_len as usize - libc::CMSG_LEN(0) as usize;
                for i in 0..len / std::mem::size_of::<RawFd>() {
                    fds.push(OwnedFd::from_raw_fd(data.add(i).read_unaligned()));
                }
            }
            header = libc::CMSG_NXTHDR(&msg, header);
        }
    }
    if msg.msg_flags & (libc::MSG_TRUNC | libc::MSG_CTRUNC) != 0 {
        return Err(io::Error::from_raw_os_error(libc::EMSGSIZE));
    }
    if got == 0 && fds.is_empty() {
        return Ok(None);
    }
    Ok(Some((&bytes[..got], fds)))
}

/// Forks a child whose parent is this process's own parent (`CLONE_PARENT`): the parent gets
/// its pid, the child runs `child` (as the only thread of a copy of this process) and exits
/// with what it returns. For a single-threaded caller.
///
/// # Errors
/// The fork failed.
pub fn fork_sibling(child: impl FnOnce() -> i32) -> io::Result<Pid> {
    let flags = (libc::CLONE_PARENT | libc::SIGCHLD) as libc::c_ulong;
    // SAFETY: clone without a new stack, as fork does, in a single-threaded caller: the child
    // goes on with a copy of this process's memory, runs `child` and exits.
    let pid =
        check(unsafe { libc::syscall(libc::SYS_clone, flags, 0usize, 0usize, 0usize, 0usize) })?;
    if pid == 0 {
        let code = child();
        // SAFETY: exit takes an integer; the process is single-threaded, its buffers flushed by
        // the caller.
        unsafe { libc::_exit(code) }
    }
    Ok(pid as Pid)
}

/// Makes `fds[i].0` this process's descriptor number `fds[i].1` (not closed on `exec`), and
/// closes the sources; numbers are moved out of the way first, so that no target overwrites a
/// source.
///
/// # Errors
/// A descriptor cannot be duplicated.
pub fn place(fds: Vec<(OwnedFd, RawFd)>) -> io::Result<()> {
    let mut moved = Vec::with_capacity(fds.len());
    for (from, to) in fds {
        // SAFETY: fcntl on a descriptor we own; the duplicate is ours.
        let high =
            check(unsafe { libc::fcntl(from.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 64) }.into())?;
        drop(from);
        // SAFETY: a new descriptor owned by no one else.
        moved.push((unsafe { OwnedFd::from_raw_fd(high as RawFd) }, to));
    }
    for (from, to) in moved {
        // SAFETY: dup2 on integers: `to` is a number this process gives up to the copy.
        check(unsafe { libc::dup2(from.as_raw_fd(), to) }.into())?;
    }
    Ok(())
}

/// The pid of this process's parent.
#[must_use]
pub fn parent() -> Pid {
    // SAFETY: getppid has no arguments and cannot fail.
    unsafe { libc::getppid() }
}

/// Makes this process the leader of a new process group, and lets every signal through.
pub fn own_group_no_mask() {
    // SAFETY: setpgid takes integers; sigprocmask with a set on our stack.
    unsafe {
        libc::setpgid(0, 0);
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
    }
}

/// Moves descriptor `fd` to a number of 64 or more, closed on `exec`; the new number.
///
/// # Errors
/// It cannot be duplicated.
pub fn move_high(fd: RawFd) -> io::Result<OwnedFd> {
    // SAFETY: fcntl on an integer descriptor; the duplicate is ours, the original closed by number.
    let high = check(unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 64) }.into())?;
    // SAFETY: as above.
    unsafe {
        libc::close(fd);
        Ok(OwnedFd::from_raw_fd(high as RawFd))
    }
}
