//! The resident memory of a whole process group, read from `/proc`, so that a program over the
//! memory limit is stopped while it runs rather than judged after it has taken the machine's memory.

/// The sum of the resident set sizes, in bytes, of the processes whose group is `pgid` but
/// process `except` (the measuring helper); 0 where `/proc` cannot be read.
#[must_use]
pub fn group_rss(pgid: libc::pid_t, except: libc::pid_t) -> u64 {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    // SAFETY: sysconf has no memory effects.
    let page = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096);
    dir.filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()) && n.parse() != Ok(except))
        })
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter_map(|stat| rss_in_group(&stat, pgid))
        .sum::<u64>()
        * page
}

/// The RSS in pages from one `/proc/N/stat` line, if the process is in group `pgid`.
fn rss_in_group(stat: &str, pgid: libc::pid_t) -> Option<u64> {
    // The command name, field 2, is in parentheses and may hold spaces: count after the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Field 5 is the process group, field 24 the RSS; `fields[0]` is field 3.
    let group: libc::pid_t = fields.get(2)?.parse().ok()?;
    (group == pgid).then(|| fields.get(21)?.parse().ok())?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_group_and_the_rss() {
        let stat =
            "42 (a b) c) S 1 77 77 0 -1 4194560 100 0 0 0 0 0 0 0 20 0 1 0 500 1000 321 rest";
        assert_eq!(rss_in_group(stat, 77), Some(321));
        assert_eq!(rss_in_group(stat, 78), None);
    }

    #[test]
    fn our_own_group_uses_memory() {
        // SAFETY: getpgrp has no memory effects.
        let me = unsafe { libc::getpgrp() };
        assert!(group_rss(me, 0) > 0);
    }
}
