//! What the judge asks a box to show (see [`super::sandbox`]), worked out on the judge's side
//! from the command it runs:
//! - the folder it starts in, read-only, unless that folder is `/`, the home folder or above it
//!   (then an empty folder stands in its place);
//! - every existing path its words name (absolute, or relative to that folder; inside a
//!   `sh -c` string too, split as the shell would split plain words), read-only; a temporary
//!   folder of the judge's that it names, writable;
//! - the installations of the interpreters and compilers on `PATH` outside the system's
//!   folders (`~/.pyenv` for `~/.pyenv/shims`, `~/.cargo` for `~/.cargo/bin`), read-only;
//! - hidden: the folders the judge marks ([`keep_hidden`]: the test data, the packages, its
//!   cache) and every temporary folder of the judge's that the command does not name (another
//!   case's), wherever they lie below a folder shown.

use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use super::registry;
use super::sandbox::SYSTEM;

/// Folders the judge keeps out of every box.
static HIDDEN: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Whether the boxes keep the machine's network.
static NETWORK: AtomicBool = AtomicBool::new(false);

/// Keeps `folder` (and all below it) out of every box from now on, even where a folder above it
/// is shown: for test data, a package, the judge's cache. A path that does not exist is ignored.
pub fn keep_hidden(folder: &Path) {
    let Ok(folder) = folder.canonicalize() else {
        return;
    };
    let mut hidden = HIDDEN.lock().unwrap_or_else(PoisonError::into_inner);
    if !hidden.contains(&folder) {
        hidden.push(folder);
    }
}

/// Lets the programs reach the machine's network (off by default: a box has only a loopback
/// interface of its own).
pub fn allow_network(allowed: bool) {
    NETWORK.store(allowed, Ordering::SeqCst);
}

/// Whether the boxes keep the network.
#[must_use]
pub fn network() -> bool {
    NETWORK.load(Ordering::SeqCst)
}

/// The helper's box options (`--ro`/`--rw`/`--hide` and a path) for a process started in `cwd`
/// with `words` (its program and arguments).
#[must_use]
pub fn box_options(cwd: &Path, words: &[&OsStr]) -> Vec<(&'static str, PathBuf)> {
    let mut options = Vec::new();
    let ours = registry::folders();
    let mut named = registry::folders_named_in(words);
    if ours.iter().any(|f| f == cwd) {
        // A folder of the judge's that it starts in (a `build` script's copy) is its to write.
        if !named.iter().any(|f| f == cwd) {
            named.push(cwd.to_path_buf());
        }
    } else if showable(cwd) {
        options.push(("--ro", cwd.to_path_buf()));
    }
    let paths = named_paths(cwd, words);
    for folder in registry::shown() {
        if paths.iter().any(|p| p.starts_with(&folder)) {
            options.push(("--show", folder));
        }
    }
    for path in paths {
        if named.iter().any(|f| path.starts_with(f)) || ours.iter().any(|f| f.starts_with(&path)) {
            continue;
        }
        if !path.is_dir() || showable(&path) {
            options.push(("--ro", path));
        }
    }
    options.extend(installations().iter().map(|p| ("--ro", p.clone())));
    options.extend(named.iter().map(|f| ("--rw", f.clone())));
    let hidden = HIDDEN.lock().unwrap_or_else(PoisonError::into_inner);
    let others = ours.into_iter().filter(|f| !named.contains(f));
    let below_shown = |p: &PathBuf| options.iter().any(|(_, shown)| p.starts_with(shown));
    let hides: Vec<PathBuf> = hidden
        .iter()
        .cloned()
        .chain(others)
        .filter(below_shown)
        .collect();
    options.extend(hides.into_iter().map(|p| ("--hide", p)));
    options
}

/// Whether a folder may be shown whole: not `/`, not the home folder nor a folder above it.
fn showable(folder: &Path) -> bool {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    folder.parent().is_some() && !home.is_some_and(|h| h.starts_with(folder))
}

/// The existing paths that `words` name, absolute (relative ones from `cwd`), outside the
/// system's folders, in order, each once.
fn named_paths(cwd: &Path, words: &[&OsStr]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = Vec::new();
    for word in words.iter().flat_map(|w| plain_words(&w.to_string_lossy())) {
        if word.is_empty() || word.contains('\0') {
            continue;
        }
        let path = normal(&cwd.join(&word));
        if !path.exists() || system(&path) || found.contains(&path) {
            continue;
        }
        let targets = link_targets(&path);
        found.push(path);
        for target in targets {
            if !system(&target) && !found.contains(&target) {
                found.push(target);
            }
        }
    }
    found
}

/// The most entries of a named folder looked at for symbolic links.
const LINKS_LOOKED_AT: usize = 256;

/// Where the symbolic links among `path` lead (resolved whole): `path` itself if it is one, or
/// the links directly inside it if it is a folder (its first [`LINKS_LOOKED_AT`] entries), but
/// those that lead inside it. A package's submission may be a link to another's file, or a
/// folder of links: what they lead to is shown with them (they are the named path's own: its
/// owner could as well have copied them there).
fn link_targets(path: &Path) -> Vec<PathBuf> {
    if path.is_symlink() {
        return link_chain(path);
    }
    if !path.is_dir() {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return Vec::new();
    };
    let inside = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let mut found: Vec<PathBuf> = Vec::new();
    let links = entries.flatten().take(LINKS_LOOKED_AT).map(|e| e.path());
    for link in links.filter(|p| p.is_symlink()) {
        for hop in link_chain(&link) {
            if !hop.starts_with(&inside) && !found.contains(&hop) {
                found.push(hop);
            }
        }
    }
    found
}

/// The most links followed one after the other (the kernel's own limit).
const LINK_HOPS: usize = 40;

/// The paths link `link` leads through to its end (a link to a link shows both), then the end
/// resolved whole (where a folder on the way is a link too).
fn link_chain(link: &Path) -> Vec<PathBuf> {
    let mut hops = Vec::new();
    let mut at = link.to_path_buf();
    for _ in 0..LINK_HOPS {
        let Ok(to) = std::fs::read_link(&at) else {
            break;
        };
        let next = normal(&at.parent().unwrap_or(Path::new("/")).join(to));
        hops.push(next.clone());
        if !next.is_symlink() {
            break;
        }
        at = next;
    }
    if let Ok(end) = link.canonicalize() {
        if !hops.contains(&end) {
            hops.push(end);
        }
    }
    hops
}

/// The plain words of a shell command (or of one argument): split at blanks and at the
/// characters that separate words in the shell, quotes removed, and the value of a
/// `--name=value` word on its own.
fn plain_words(text: &str) -> Vec<String> {
    let separators = |c: char| c.is_whitespace() || ";|&<>()`".contains(c);
    let mut words = Vec::new();
    for word in text.split(separators) {
        let word: String = word.chars().filter(|c| !"'\"".contains(*c)).collect();
        if let Some((_, value)) = word.split_once('=') {
            words.push(value.to_string());
        }
        words.push(word);
    }
    words
}

/// `path` with its `.` and `..` components worked out (without following links).
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Whether `path` is the system's (shown by every box), or the box's own (`/proc`, `/dev`),
/// or the machine's that no box shows (`/sys`).
fn system(path: &Path) -> bool {
    let own = ["/proc", "/dev", "/sys"];
    SYSTEM.iter().chain(&own).any(|s| path.starts_with(s))
}

/// The installations of what `PATH` finds outside the system's folders (read once): a `bin`,
/// `sbin` or `shims` folder's parent, or the folder itself where its parent may not be shown.
fn installations() -> &'static [PathBuf] {
    static FOUND: OnceLock<Vec<PathBuf>> = OnceLock::new();
    FOUND.get_or_init(|| {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut found: Vec<PathBuf> = Vec::new();
        for dir in std::env::split_paths(&path) {
            let Ok(dir) = dir.canonicalize() else {
                continue;
            };
            if system(&dir) {
                continue;
            }
            let install = installation_of(&dir);
            let linked = linked_installations(&dir);
            // rustup's proxies in `~/.cargo/bin` run the toolchains of `~/.rustup`.
            let rustup = std::env::var_os("RUSTUP_HOME")
                .map(PathBuf::from)
                .or_else(|| install.parent().map(|p| p.join(".rustup")))
                .filter(|r| install.ends_with(".cargo") && r.is_dir());
            for install in std::iter::once(install).chain(rustup).chain(linked) {
                if showable(&install) && !found.iter().any(|f| install.starts_with(f)) {
                    found.retain(|f| !f.starts_with(&install));
                    found.push(install);
                }
            }
        }
        found
    })
}

/// The installation of `path` (a file's folder's): the parent of a `bin`, `sbin` or `shims`
/// folder, else the folder itself.
fn installation_of(folder: &Path) -> PathBuf {
    match folder.file_name().and_then(OsStr::to_str) {
        Some("bin" | "sbin" | "shims") => folder
            .parent()
            .filter(|p| showable(p))
            .map_or_else(|| folder.to_path_buf(), Path::to_path_buf),
        _ => folder.to_path_buf(),
    }
}

/// The installations that the symbolic links of `dir` (a folder on `PATH`, its first 256
/// entries) point into, outside the system's folders and `dir`.
fn linked_installations(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = Vec::new();
    for entry in entries.flatten().take(256) {
        let path = entry.path();
        if !path.is_symlink() {
            continue;
        }
        let Some(folder) = path
            .canonicalize()
            .ok()
            .and_then(|t| t.parent().map(Path::to_path_buf))
        else {
            continue;
        };
        let install = installation_of(&folder);
        if !system(&install) && !install.starts_with(dir) && !found.contains(&install) {
            found.push(install);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_are_split_and_unquoted() {
        let words = plain_words("python3 'a b.py' --in=/x/y <in >out; ./run");
        assert!(words.contains(&"a".to_string()));
        assert!(words.contains(&"/x/y".to_string()));
        assert!(words.contains(&"in".to_string()));
        assert!(words.contains(&"./run".to_string()));
    }

    #[test]
    fn the_links_a_named_path_holds_lead_to_what_is_shown_with_it() {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let root = tmp.path().canonicalize().expect("a real path");
        let (other, named) = (root.join("other"), root.join("named"));
        std::fs::create_dir_all(&other).expect("a folder");
        std::fs::create_dir_all(&named).expect("a folder");
        std::fs::write(other.join("a.py"), "print(1)\n").expect("a file");
        std::fs::write(named.join("own.py"), "print(2)\n").expect("a file");
        let link = named.join("link.py");
        std::os::unix::fs::symlink("../other/a.py", &link).expect("a link");
        std::os::unix::fs::symlink("own.py", named.join("inside.py")).expect("a link");
        assert_eq!(link_targets(&named), vec![other.join("a.py")]);
        assert_eq!(link_targets(&link), vec![other.join("a.py")]);
        // A link to a link: each is shown, or the first leads nowhere in the box.
        std::os::unix::fs::symlink("a.py", other.join("b.py")).expect("a link");
        let twice = named.join("twice.py");
        std::os::unix::fs::symlink("../other/b.py", &twice).expect("a link");
        assert_eq!(
            link_targets(&twice),
            vec![other.join("b.py"), other.join("a.py")]
        );
        assert!(link_targets(&other.join("a.py")).is_empty());
        let words = [OsStr::new("python3"), link.as_os_str()];
        assert_eq!(named_paths(&root, &words), vec![link, other.join("a.py")]);
    }

    #[test]
    fn dots_are_worked_out() {
        assert_eq!(normal(Path::new("/a/b/../c/./d")), PathBuf::from("/a/c/d"));
    }

    #[test]
    fn root_and_home_are_not_shown_whole() {
        assert!(!showable(Path::new("/")));
        if let Some(home) = std::env::var_os("HOME").map(PathBuf::from) {
            assert!(!showable(&home));
            if let Some(parent) = home.parent() {
                assert!(!showable(parent));
            }
            assert!(showable(&home.join("project")));
        }
    }
}
