//! The processes below a given one, read from `/proc` (each `/proc/N/stat` names its parent):
//! to measure and to end everything a program started, including what left its process group or
//! its session. A process whose parent has exited is adopted by the nearest child subreaper
//! above it, which the measuring helper is (see [`super::helper`]), so it stays below it.
//!
//! A pid read from `/proc` may be reused by another process before it is signalled; so a kill
//! goes through a pidfd opened on the pid and checked against the reading (same parent, same
//! start time) before the signal is sent. Without pidfds the kill goes by number, as it must.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::sys::{self, Pid, Pidfd};

/// One process: its id, its parent's, its state, its resident pages, its CPU time and its start
/// time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proc {
    pub pid: Pid,
    pub ppid: Pid,
    /// The state letter of `/proc/N/stat`: `R` running, `S` sleeping, `T` stopped, `Z` a
    /// zombie...
    pub state: char,
    /// Resident set size, in pages.
    pub rss: u64,
    /// Its own CPU time, user and system, in clock ticks.
    pub cpu: u64,
    /// The CPU time, user and system, of the children it has reaped (and of theirs), in clock
    /// ticks.
    pub reaped: u64,
    /// Start time after boot, in clock ticks: with the pid, it names one process.
    pub start: u64,
    /// The kernel's flags for it (`PF_*` of `include/linux/sched.h`).
    pub flags: u64,
}

/// `PF_EXITING` in `include/linux/sched.h`: set as `exit` starts, before the process closes its
/// files.
const PF_EXITING: u64 = 0x4;

impl Proc {
    /// Whether it has begun to exit, or has ended (`Z`, `X`).
    #[must_use]
    pub fn exiting(&self) -> bool {
        self.flags & PF_EXITING != 0 || matches!(self.state, 'Z' | 'X' | 'x')
    }

    /// Whether it may still run: neither stopped (`T`, or `t` under a tracer) nor ended (`Z`,
    /// `X`).
    #[must_use]
    pub fn runs(&self) -> bool {
        !matches!(self.state, 'T' | 't' | 'Z' | 'X' | 'x')
    }
}

/// The processes below `root`, not `root` itself, from one reading of `/proc` (a process
/// started during the reading may be missed), leaving out `skip` and what is below it; empty
/// where `/proc` cannot be read.
#[must_use]
pub fn descendants(root: Pid, skip: Option<Pid>) -> Vec<Proc> {
    descendants_but(root, skip.as_slice())
}

/// [`descendants`], leaving out every process of `skip` and what is below each.
#[must_use]
pub fn descendants_but(root: Pid, skip: &[Pid]) -> Vec<Proc> {
    below(processes(), root, skip)
}

/// The processes of `all` below `root`, leaving out every process of `skip` and what is below
/// each.
fn below(all: Vec<Proc>, root: Pid, skip: &[Pid]) -> Vec<Proc> {
    let mut children: HashMap<Pid, Vec<Proc>> = HashMap::new();
    for p in all {
        children.entry(p.ppid).or_default().push(p);
    }
    // One reading holds each pid once with one parent: the walk cannot loop.
    let mut found = Vec::new();
    let mut parents = vec![root];
    while let Some(parent) = parents.pop() {
        for p in children.remove(&parent).unwrap_or_default() {
            if !skip.contains(&p.pid) {
                parents.push(p.pid);
                found.push(p);
            }
        }
    }
    found
}

/// What a tree of processes uses, from one reading of `/proc`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// The sum of the resident set sizes, in bytes.
    pub rss: u64,
    /// The CPU time, user and system, of the processes and of the children they reaped.
    pub cpu: Duration,
}

/// What the processes below `root` use (but those of `skip` and what is below each), from one
/// reading of
/// `/proc`. The memory of `spare` (the sandbox's init, a copy of the helper) is left out, its CPU
/// time counted (it holds that of the orphans it reaped). With `root_reaped`, the CPU time of the
/// children `root` has reaped counts too.
///
/// A process reaped during the reading may be counted twice (as itself, and in its parent's
/// reaped time) or not at all; `/proc` gives times in clock ticks (10 ms on Linux).
///
/// The processes are found from `root` down through each thread's `children` file (a few
/// reads for a small tree, where reading every process of the machine costs milliseconds at
/// each of the many readings of a run); where the kernel has no such files, by reading every
/// process.
#[must_use]
pub fn usage(root: Pid, skip: &[Pid], spare: Option<Pid>, root_reaped: bool) -> Usage {
    let all = subtree(root, skip).unwrap_or_else(processes);
    let reaped = all
        .iter()
        .find(|p| p.pid == root && root_reaped)
        .map_or(0, |p| p.reaped);
    let below = below(all, root, skip);
    let rss = below.iter().filter(|p| Some(p.pid) != spare).map(|p| p.rss);
    let cpu = below.iter().map(|p| p.cpu + p.reaped).sum::<u64>() + reaped;
    Usage {
        rss: rss.sum::<u64>() * sys::page_size(),
        cpu: ticks(cpu),
    }
}

/// The CPU time of the children process `pid` has reaped (and of theirs), zero if it is gone.
#[must_use]
pub fn reaped_cpu(pid: Pid) -> Duration {
    read(pid).map_or(Duration::ZERO, |p| ticks(p.reaped))
}

/// `n` clock ticks as a duration.
fn ticks(n: u64) -> Duration {
    let nanos = u128::from(n) * 1_000_000_000 / u128::from(sys::clock_ticks());
    Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
}

/// [`kill_below`], leaving out every process of `skip` and what is below each.
pub fn kill_below_but(root: Pid, skip: &[Pid], spare: Option<Pid>) {
    for p in descendants_but(root, skip) {
        if Some(p.pid) != spare {
            kill(&p);
        }
    }
}

/// Sends SIGKILL to every process below `root` (but `skip` and what is below it, and `spare`
/// itself), once.
pub fn kill_below(root: Pid, skip: Option<Pid>, spare: Option<Pid>) {
    for p in descendants(root, skip) {
        if Some(p.pid) != spare {
            kill(&p);
        }
    }
}

/// Sends SIGKILL to `p` if it is still the process that was read: through a pidfd checked
/// against a new reading of its `stat`, or by number where pidfds are missing.
pub fn kill(p: &Proc) {
    signal(p, sys::SIGKILL);
}

/// Sends `signal` to `p` if it is still the process that was read, as [`kill`] does.
pub fn signal(p: &Proc, signal: sys::Signal) {
    if !sys::pidfds() {
        let _ = sys::kill(p.pid, signal);
        return;
    }
    let Ok(pidfd) = Pidfd::open(p.pid) else {
        return; // gone
    };
    // The pidfd holds whatever process had the pid when it was opened; read after it, `stat`
    // shows that process or a later one, never an earlier one.
    if read(p.pid).is_some_and(|now| now.ppid == p.ppid && now.start == p.start) {
        let _ = pidfd.signal(signal);
    }
}

/// Stops (SIGSTOP) every process below `root` but `skip` (and what is below each) and `spare`
/// itself, reading `/proc` again and again until none of them runs (a process may fork while it
/// is being stopped, or leave a group that was stopped whole) or `within` has passed; the
/// processes it signalled, for [`resume`]. A process in an uninterruptible wait stops when it
/// leaves it.
pub fn stop_below(root: Pid, skip: &[Pid], spare: Option<Pid>, within: Duration) -> Vec<Proc> {
    let give_up = Instant::now() + within;
    let mut stopped: Vec<Proc> = Vec::new();
    let mut nap = Duration::from_millis(1);
    loop {
        let running: Vec<Proc> = descendants_but(root, skip)
            .into_iter()
            .filter(|p| p.runs() && Some(p.pid) != spare)
            .collect();
        if running.is_empty() || Instant::now() >= give_up {
            return stopped;
        }
        for p in running {
            signal(&p, sys::SIGSTOP);
            if !stopped.iter().any(|s| s.pid == p.pid && s.start == p.start) {
                stopped.push(p);
            }
        }
        // A signalled process stops when it is next scheduled; one that takes long (in an
        // uninterruptible wait) is read again less and less often.
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(50));
    }
}

/// Continues (SIGCONT) the processes [`stop_below`] stopped, each if it is still the process
/// that was read.
pub fn resume(stopped: &[Proc]) {
    for p in stopped {
        signal(p, sys::SIGCONT);
    }
}

/// The children of `parent`, from one reading of `/proc`.
#[must_use]
pub fn children(parent: Pid) -> Vec<Proc> {
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
        .filter_map(|e| read(e.file_name().to_str()?.parse().ok()?))
        .collect()
}

/// `root` and the processes below it (but those of `skip` and what is below each), found by
/// following the `children` file of each thread from `root` down: each process is read once,
/// after its parent's list (a process started, or adopted, during the reading may be missed, as
/// in one reading of all of `/proc`). `None` where the kernel shows no `children` files.
fn subtree(root: Pid, skip: &[Pid]) -> Option<Vec<Proc>> {
    static CHILDREN_FILES: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if !*CHILDREN_FILES.get_or_init(|| std::path::Path::new("/proc/thread-self/children").exists())
    {
        return None;
    }
    let mut found = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![root];
    while let Some(pid) = todo.pop() {
        // A pid reused during the reading could name a process already read: each once.
        if skip.contains(&pid) || !seen.insert(pid) {
            continue;
        }
        let Some(p) = read(pid) else { continue };
        found.push(p);
        todo.extend(children_listed(pid));
    }
    Some(found)
}

/// The children of every thread of process `pid`, as their `children` files list them.
fn children_listed(pid: Pid) -> Vec<Pid> {
    let Ok(threads) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut listed = Vec::new();
    for t in threads.filter_map(Result::ok) {
        let mut path = t.path();
        path.push("children");
        if let Ok(text) = std::fs::read_to_string(&path) {
            listed.extend(
                text.split_whitespace()
                    .filter_map(|w| w.parse::<Pid>().ok()),
            );
        }
    }
    listed
}

/// Process `pid` as `/proc` shows it now.
fn read(pid: Pid) -> Option<Proc> {
    parse_stat(
        pid,
        &std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?,
    )
}

/// Whether process `pid` has begun to exit, or has ended ([`Proc::exiting`]); false if `/proc`
/// does not show it.
#[must_use]
pub fn exiting(pid: Pid) -> bool {
    read(pid).is_some_and(|p| p.exiting())
}

/// The state, the parent, the flags, the CPU times, the RSS and the start time from one
/// `/proc/N/stat` line.
fn parse_stat(pid: Pid, stat: &str) -> Option<Proc> {
    // The command name, field 2, is in parentheses and may hold spaces: count after the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Field 3 is the state, 4 the parent, 9 the flags, 14 to 17 the user and system times and
    // those of the reaped children, 22 the start time, 24 the RSS; `fields[0]` is field 3.
    let number = |field: usize| fields.get(field - 3)?.parse::<u64>().ok();
    Some(Proc {
        pid,
        state: fields.first()?.chars().next()?,
        ppid: number(4)?.try_into().ok()?,
        cpu: number(14)? + number(15)?,
        reaped: number(16)? + number(17)?,
        start: number(22)?,
        rss: number(24)?,
        flags: number(9)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exiting_or_ended_process_is_told_from_a_running_one() {
        let line = |state: char, flags: u64| {
            format!("42 (a (b) c) {state} 1 42 42 0 -1 {flags} 0 0 0 0 1 2 0 0 20 0 1 0 9 0 7")
        };
        let exiting_in = |stat: &str| parse_stat(42, stat).map(|p| p.exiting());
        assert_eq!(exiting_in(&line('S', 0x0040_0000)), Some(false));
        assert_eq!(exiting_in(&line('R', 0x0040_0004)), Some(true));
        assert_eq!(exiting_in(&line('Z', 0x0040_0000)), Some(true));
        assert_eq!(exiting_in("42 (x) S 1"), None);
        assert!(!exiting(sys::getpid()));
    }

    #[test]
    fn reads_the_parent_the_times_the_start_and_the_rss() {
        let stat =
            "42 (a b) c) S 7 77 77 0 -1 4194560 100 0 0 0 11 12 13 14 20 0 1 0 500 1000 321 rest";
        let p = parse_stat(42, stat).expect("a stat line");
        assert_eq!((p.pid, p.ppid, p.start, p.rss), (42, 7, 500, 321));
        assert_eq!((p.cpu, p.reaped), (23, 27));
        assert_eq!(p.state, 'S');
        assert!(p.runs());
        assert_eq!(parse_stat(1, "1 (x"), None);
    }

    /// The memory of the processes below `root`.
    fn rss(root: Pid, skip: Option<Pid>, spare: Option<Pid>) -> u64 {
        usage(root, skip.as_slice(), spare, false).rss
    }

    #[test]
    fn the_cpu_time_of_a_busy_child_counts_running_and_reaped() {
        // A fixed amount of work (some 0.2 s of CPU time for a shell), waited for, then a sleep.
        let busy = "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done";
        let mut shell = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("sh -c '{busy}' & wait; exec sleep 30"))
            .spawn()
            .expect("sh starts");
        let root = shell.id() as Pid;
        let give_up = Instant::now() + Duration::from_secs(60);
        let mut running = Duration::ZERO;
        // While the child runs, its time is its own; once the shell has reaped it, the shell's.
        while read(root).is_some_and(|p| p.reaped == 0) && Instant::now() < give_up {
            running = running.max(usage(root, &[], None, true).cpu);
            std::thread::sleep(Duration::from_millis(5));
        }
        let reaped = usage(root, &[], None, true).cpu;
        assert!(reaped >= Duration::from_millis(50), "{reaped:?}");
        assert!(
            running <= reaped,
            "{running:?} seen running, {reaped:?} reaped"
        );
        // `sleep` reaped nothing; the shell's own time is not below it.
        assert_eq!(reaped_cpu(root), reaped);
        assert!(usage(root, &[], None, false).cpu < Duration::from_millis(20));
        let _ = shell.kill();
        let _ = shell.wait();
    }

    #[test]
    fn a_child_is_below_us_and_uses_memory() {
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .expect("sleep starts");
        let me = sys::getpid();
        let below = descendants(me, None);
        let pid = child.id() as Pid;
        assert!(below.iter().any(|p| p.pid == pid), "{below:?}");
        assert!(!descendants(me, Some(pid)).iter().any(|p| p.pid == pid));
        // Between fork and exec a child may briefly show no resident pages: wait for some.
        let start = std::time::Instant::now();
        while rss(me, None, None) == 0 && start.elapsed() < std::time::Duration::from_secs(3) {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(rss(me, None, None) > 0);
        let page = sys::page_size();
        let own = descendants(me, None)
            .iter()
            .find(|p| p.pid == pid)
            .map_or(0, |p| p.rss);
        // Other tests' children come and go: compare within one page of slack per process.
        let (all, spared) = (rss(me, None, None), rss(me, None, Some(pid)));
        assert!(
            spared < all || own == 0,
            "{spared} < {all}, own {} bytes",
            own * page
        );
        let _ = child.kill();
        let _ = child.wait();
    }

    /// The state letter of process `pid`, once it is `want` (waiting up to 5 s for it).
    fn state_becomes(pid: Pid, want: char) -> Option<char> {
        let give_up = Instant::now() + Duration::from_secs(5);
        loop {
            let state = read(pid).map(|p| p.state);
            if state == Some(want) || Instant::now() >= give_up {
                return state;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Following the `children` files finds the same tree as reading every process, less what
    /// is skipped.
    #[test]
    fn the_children_files_find_the_tree_that_all_of_proc_shows() {
        let mut shell = std::process::Command::new("sh")
            .arg("-c")
            .arg("sh -c 'sleep 30 & wait' & sleep 30 & wait")
            .spawn()
            .expect("sh starts");
        let root = shell.id() as Pid;
        let give_up = Instant::now() + Duration::from_secs(10);
        while descendants(root, None).len() < 3 && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(10));
        }
        let pids = |ps: Vec<Proc>| {
            let mut pids: Vec<Pid> = ps.iter().map(|p| p.pid).collect();
            pids.sort_unstable();
            pids
        };
        let all = pids(descendants(root, None));
        assert_eq!(all.len(), 3, "{all:?}");
        if let Some(found) = subtree(root, &[]) {
            let mut want = all.clone();
            want.push(root);
            want.sort_unstable();
            assert_eq!(pids(found), want);
            // The inner shell and its sleep left out.
            let inner = descendants(root, None)
                .into_iter()
                .find(|p| !descendants(p.pid, None).is_empty())
                .expect("the inner shell");
            let rest = pids(subtree(root, &[inner.pid]).expect("children files"));
            assert_eq!(rest.len(), 2, "{rest:?}");
            assert!(!rest.contains(&inner.pid));
        }
        kill_below(root, None, None);
        let _ = shell.kill();
        let _ = shell.wait();
    }

    #[test]
    fn a_tree_is_stopped_whole_and_resumed() {
        // A shell whose two children each start a grandchild: the tree below the shell.
        let mut shell = std::process::Command::new("sh")
            .arg("-c")
            .arg("sh -c 'sleep 30 & wait' & sh -c 'sleep 30 & wait' & wait")
            .spawn()
            .expect("sh starts");
        let root = shell.id() as Pid;
        let give_up = Instant::now() + Duration::from_secs(10);
        while descendants(root, None).len() < 4 && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(10));
        }
        let below = descendants(root, None);
        assert_eq!(below.len(), 4, "{below:?}");
        let stopped = stop_below(root, &[], None, Duration::from_secs(5));
        assert_eq!(stopped.len(), 4, "{stopped:?}");
        for p in &below {
            assert_eq!(read(p.pid).map(|p| p.state), Some('T'), "{p:?}");
        }
        assert_eq!(
            read(root).map(|p| p.state),
            Some('S'),
            "the root itself runs on"
        );
        resume(&stopped);
        for p in &below {
            assert_eq!(state_becomes(p.pid, 'S'), Some('S'), "{p:?}");
        }
        kill_below(root, None, None);
        let _ = shell.kill();
        let _ = shell.wait();
    }

    #[test]
    fn a_reading_that_no_longer_names_the_process_kills_nothing() {
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .expect("sleep starts");
        let pid = child.id() as Pid;
        let real = read(pid).expect("the child in /proc");
        // Another process that once had this pid: it started at another time.
        kill(&Proc {
            start: real.start + 1,
            ..real
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert_eq!(
            child.try_wait().expect("waitable"),
            None,
            "killed by a stale pid"
        );
        kill(&real);
        let status = child.wait().expect("waitable");
        assert!(!status.success());
    }
}
