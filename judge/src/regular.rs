//! Files that are what they claim: every case, answer and package file the judge reads is
//! checked to be a regular file (links followed) before it is opened, and read with a bound
//! on its size. A named pipe would make the judge wait for a writer forever, and a device node
//! (`/dev/zero` made with `mknod` inside a package) would be read without end; both are
//! refused with the file's path, as is a file larger than the bound, before anything is read.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// The most bytes read of a configuration file: `problem.yaml`, `testdata.yaml`,
/// `problem.xml`, `suite.toml`, `NN.exit`, `.timelimit`.
pub const CONFIG_MAX: u64 = 4 << 20;

/// The most bytes read of a case's input or answer.
pub const CASE_MAX: u64 = 1 << 30;

/// An error when `path` (links followed) is not a regular file; `NotFound` when it does not
/// exist, so that callers can tell a missing file from a wrong one.
///
/// # Errors
/// The file does not exist or cannot be looked at, or is a folder, a named pipe, a device, a
/// socket: the reason, without the path (callers add it).
pub fn check(path: &Path) -> io::Result<()> {
    is_regular(&std::fs::metadata(path)?)
}

/// The bytes of the regular file at `path`, at most `max` of them.
///
/// # Errors
/// As [`check`]; the file holds more than `max` bytes; it cannot be read.
pub fn read(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    check(path)?;
    // Not blocking: a file swapped for a named pipe since the check opens without a writer.
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    let meta = file.metadata()?;
    is_regular(&meta)?;
    if meta.len() > max {
        return Err(too_large(max));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_large(max));
    }
    Ok(bytes)
}

/// [`read`] with the path in the message: `PATH: not a regular file (a named pipe)`.
///
/// # Errors
/// As [`read`].
pub fn read_named(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    read(path, max).map_err(|e| format!("{}: {}", path.display(), plain(&e)))
}

/// Opens the regular file at `path` for reading (not a named pipe or a device).
///
/// # Errors
/// As [`check`].
pub fn open(path: &Path) -> io::Result<File> {
    check(path)?;
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    is_regular(&file.metadata()?)?;
    Ok(file)
}

fn is_regular(meta: &Metadata) -> io::Result<()> {
    let t = meta.file_type();
    let what = if t.is_file() {
        return Ok(());
    } else if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a named pipe"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "something else"
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("not a regular file ({what})"),
    ))
}

fn too_large(max: u64) -> io::Error {
    let bound = if max >= 1 << 20 && max.is_multiple_of(1 << 20) {
        format!("{} MiB", max >> 20)
    } else {
        format!("{max} bytes")
    };
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("larger than {bound}, the most the judge reads"),
    )
}

/// An I/O error's message without Rust's ` (os error N)` suffix.
#[must_use]
pub fn plain(e: &io::Error) -> String {
    let s = e.to_string();
    s.split(" (os error").next().unwrap_or(&s).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_are_read_and_within_the_bound() {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let file = tmp.path().join("a");
        std::fs::write(&file, "12345").expect("a file");
        assert_eq!(read(&file, 5).expect("read"), b"12345");
        let e = read_named(&file, 4).expect_err("too large");
        assert!(
            e.ends_with("a: larger than 4 bytes, the most the judge reads"),
            "{e}"
        );
        let e = read_named(tmp.path(), 5).expect_err("a folder");
        assert!(e.ends_with(": not a regular file (a folder)"), "{e}");
        let fifo = tmp.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let e = read_named(&fifo, 5).expect_err("a pipe");
            assert!(
                e.ends_with("pipe: not a regular file (a named pipe)"),
                "{e}"
            );
            assert!(open(&fifo).is_err());
        }
        let e = read_named(Path::new("/dev/zero"), 5).expect_err("a device");
        assert!(
            e.ends_with("not a regular file (a character device)"),
            "{e}"
        );
        let gone = read(&tmp.path().join("gone"), 5).expect_err("missing");
        assert_eq!(gone.kind(), io::ErrorKind::NotFound);
    }
}
