//! The processes below a given one, read from `/proc` (each `/proc/N/stat` names its parent):
//! to measure and to end everything a program started, including what left its process group or
//! its session. A process whose parent has exited is adopted by the nearest child subreaper
//! above it, which the measuring helper is (see [`crate::measure`]), so it stays below it.

use std::collections::HashMap;

/// One process: its id, its parent's, and its resident pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proc {
    pub pid: libc::pid_t,
    pub ppid: libc::pid_t,
    /// Resident set size, in pages.
    pub rss: u64,
}

/// The processes below `root`, not `root` itself, from one reading of `/proc` (a process
/// started during the reading may be missed); empty where `/proc` cannot be read.
#[must_use]
pub fn descendants(root: libc::pid_t) -> Vec<Proc> {
    let mut children: HashMap<libc::pid_t, Vec<Proc>> = HashMap::new();
    for p in processes() {
        children.entry(p.ppid).or_default().push(p);
    }
    // One reading holds each pid once with one parent: the walk cannot loop.
    let mut found = Vec::new();
    let mut parents = vec![root];
    while let Some(parent) = parents.pop() {
        for p in children.remove(&parent).unwrap_or_default() {
            parents.push(p.pid);
            found.push(p);
        }
    }
    found
}

/// The sum of the resident set sizes, in bytes, of the processes below `root`.
#[must_use]
pub fn rss(root: libc::pid_t) -> u64 {
    // SAFETY: sysconf has no memory effects.
    let page = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096);
    descendants(root).iter().map(|p| p.rss).sum::<u64>() * page
}

/// Sends SIGKILL to every process below `root`, once.
pub fn kill_below(root: libc::pid_t) {
    for p in descendants(root) {
        // SAFETY: kill has no memory effects; the process is below one the judge started.
        unsafe { libc::kill(p.pid, libc::SIGKILL) };
    }
}

/// The children of `parent`, from one reading of `/proc`.
#[must_use]
pub fn children(parent: libc::pid_t) -> Vec<Proc> {
    let mut all = processes();
    all.retain(|p| p.ppid == parent);
    all
}

/// Every process that `/proc` shows.
fn processes() -> Vec<Proc> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(Result::ok)
        .filter_map(|e| {
            let pid = e.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
            parse_stat(pid, &stat)
        })
        .collect()
}

/// The parent and the RSS from one `/proc/N/stat` line.
fn parse_stat(pid: libc::pid_t, stat: &str) -> Option<Proc> {
    // The command name, field 2, is in parentheses and may hold spaces: count after the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Field 4 is the parent, field 24 the RSS; `fields[0]` is field 3.
    Some(Proc {
        pid,
        ppid: fields.get(1)?.parse().ok()?,
        rss: fields.get(21)?.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_parent_and_the_rss() {
        let stat =
            "42 (a b) c) S 7 77 77 0 -1 4194560 100 0 0 0 0 0 0 0 20 0 1 0 500 1000 321 rest";
        let p = parse_stat(42, stat).expect("a stat line");
        assert_eq!((p.pid, p.ppid, p.rss), (42, 7, 321));
        assert_eq!(parse_stat(1, "1 (x"), None);
    }

    #[test]
    fn a_child_is_below_us_and_uses_memory() {
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .expect("sleep starts");
        let me = std::process::id() as libc::pid_t;
        let below = descendants(me);
        let pid = child.id() as libc::pid_t;
        assert!(below.iter().any(|p| p.pid == pid), "{below:?}");
        // Between fork and exec a child may briefly show no resident pages: wait for some.
        let start = std::time::Instant::now();
        while rss(me) == 0 && start.elapsed() < std::time::Duration::from_secs(3) {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(rss(me) > 0);
        let _ = child.kill();
        let _ = child.wait();
    }
}
