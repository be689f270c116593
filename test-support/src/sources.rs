//! The sources fingerprint: a 64-bit FNV-1a hash of the `.rs` files that decide how
//! `minesweeper-bot` plays its games, so that a report can say which code played it and a merge
//! can refuse shards played by different code.
//!
//! The files are every `.rs` file under [`FOLDERS`] (recursively), named by their path relative to
//! the workspace root with `/` between the parts, and taken in the byte order of those names. For
//! each file the hash is fed its name, a zero byte, the length in bytes of its text as 8
//! little-endian bytes, and the text, in which every CRLF is first turned into LF (so that a
//! checkout with Windows line ends gives the same fingerprint). Nothing else goes in: not the
//! build profile, the compiler, the machine or the time.
//!
//! `play/build.rs` computes the fingerprint with this module and writes it into the build; the
//! tests recompute it with the same code.

use std::io;
use std::path::Path;

/// The folders, relative to the workspace root, whose `.rs` files are fingerprinted: the
/// library's Minesweeper (the game, the analyzer, the bot's strategies, the no-guess generator)
/// and the bot's runner (playing, shards, reports, merge).
pub const FOLDERS: [&str; 2] = ["src/minesweeper", "play/src/minesweeper_bot"];

/// The 64-bit FNV-1a hash.
pub struct Fnv1a(u64);

impl Fnv1a {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    /// The hash of nothing.
    pub fn new() -> Fnv1a {
        Fnv1a::default()
    }

    /// Feeds `bytes` to the hash.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(Fnv1a::PRIME);
        }
    }

    /// The hash of what was fed.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a(Fnv1a::OFFSET)
    }
}

/// `text` with every CRLF turned into LF (a lone CR stays).
pub fn with_lf(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for (i, &b) in text.iter().enumerate() {
        if !(b == b'\r' && text.get(i + 1) == Some(&b'\n')) {
            out.push(b);
        }
    }
    out
}

/// The `.rs` files under `folders` of `root`, named relative to `root` with `/` separators,
/// sorted by name.
///
/// # Errors
/// A folder or file that cannot be read, or a name that is not UTF-8.
pub fn files(root: &Path, folders: &[&str]) -> io::Result<Vec<String>> {
    let mut found = Vec::new();
    for folder in folders {
        collect(root, folder, &mut found)?;
    }
    found.sort();
    Ok(found)
}

/// Adds the `.rs` files under `root/folder` (a name relative to `root`) to `found`.
fn collect(root: &Path, folder: &str, found: &mut Vec<String>) -> io::Result<()> {
    let dir = root.join(folder);
    let entries = std::fs::read_dir(&dir)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name().into_string().map_err(|n| {
            let what = format!("{}: a file name that is not UTF-8: {n:?}", dir.display());
            io::Error::new(io::ErrorKind::InvalidData, what)
        })?;
        let relative = format!("{folder}/{name}");
        if std::fs::metadata(entry.path())?.is_dir() {
            collect(root, &relative, found)?;
        } else if name.ends_with(".rs") {
            found.push(relative);
        }
    }
    Ok(())
}

/// The fingerprint of the `.rs` files under `folders` of `root` (see the module's documentation).
///
/// # Errors
/// As [`files`], or no `.rs` file at all.
pub fn fingerprint(root: &Path, folders: &[&str]) -> io::Result<u64> {
    let names = files(root, folders)?;
    if names.is_empty() {
        let what = format!("no .rs file under {folders:?} of {}", root.display());
        return Err(io::Error::new(io::ErrorKind::NotFound, what));
    }
    let mut hash = Fnv1a::new();
    for name in names {
        let path = root.join(&name);
        let text = std::fs::read(&path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let text = with_lf(&text);
        hash.write(name.as_bytes());
        hash.write(&[0]);
        hash.write(&(text.len() as u64).to_le_bytes());
        hash.write(&text);
    }
    Ok(hash.finish())
}
