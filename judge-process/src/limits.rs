//! The limit of processes a judged program runs under (`RLIMIT_NPROC`), so that a fork bomb
//! leaves the judge room to start its threads and helpers.

use std::sync::OnceLock;

use super::sys;

/// Processes the program may start beyond those its user already runs (`RLIMIT_NPROC`).
const PROCESSES: u64 = 512;

/// Processes kept for the judge under its own `RLIMIT_NPROC`, if it has one: the program's limit
/// is this much lower, so that a fork bomb cannot take the last processes the judge may start.
const JUDGE_RESERVE: u64 = 64;

/// The programs' `RLIMIT_NPROC`: `PROCESSES` more than the judge's user ran when the first
/// program started (read once: reading `/proc` for each case would cost milliseconds), and
/// `JUDGE_RESERVE` fewer than the judge's own limit. The kernel applies it to every user but
/// root (and holders of `CAP_SYS_RESOURCE`).
#[must_use]
pub fn processes() -> u64 {
    static LIMIT: OnceLock<u64> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        let ours = user_tasks(sys::getuid()) + PROCESSES;
        match sys::process_limits().0 {
            None => ours,
            Some(soft) => ours.min(soft.saturating_sub(JUDGE_RESERVE)),
        }
    })
}

/// The processes and threads that real user `uid` runs (what `RLIMIT_NPROC` counts), from
/// `/proc/N/status`.
fn user_tasks(uid: u32) -> u64 {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let uid = uid.to_string();
    let field = |status: &str, name: &str| -> Option<String> {
        let line = status.lines().find_map(|l| l.strip_prefix(name))?;
        Some(line.split_whitespace().next()?.to_owned())
    };
    dir.filter_map(Result::ok)
        .filter_map(|e| std::fs::read_to_string(e.path().join("status")).ok())
        .filter(|status| field(status, "Uid:").as_deref() == Some(uid.as_str()))
        .filter_map(|status| field(&status, "Threads:")?.parse::<u64>().ok())
        .sum()
}
