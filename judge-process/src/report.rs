//! What the measuring helper tells the judge, one line per event on a pipe: the lines' format
//! (written by [`super::helper`]) and their reading (by [`super::spawn`]).
//!
//! - `nosandbox ERRNO`: the processes run without the sandbox, for this reason (0: turned off);
//! - `pids PROGRAM INTERACTOR INIT IINIT`: all were forked, with these pids (`INTERACTOR` 0
//!   without one; `INIT` and `IINIT`, the inits of the program's and the interactor's boxes, 0
//!   without them);
//! - `ran STATUS KIB CPU WALL AT`: the program ended with wait status `STATUS`, its largest peak
//!   resident memory (of any one process of its side) was `KIB` KiB, its side used `CPU` ns of
//!   CPU time (user and system, every process of its side together), it ran `WALL` ns, and the
//!   helper saw it end `AT` ns after the helper started (both on the helper's clock, which leaves
//!   out the judge's pauses), or was asked to stop it then (SIGUSR1), if that came first;
//! - `nofork ERRNO`: the program could not be forked;
//! - `interactor STATUS AT`: the interactor ended, seen `AT` ns after the helper started (the
//!   same clock as the program's `AT`);
//! - `nointeractor ERRNO`: the interactor could not be forked.

use std::time::Duration;

use super::sys::{Pid, Status};

/// How the program ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measured {
    /// The raw wait status.
    pub status: Status,
    /// The largest peak resident memory of any one process of the program's side, in bytes.
    pub max_rss: u64,
    /// The CPU time, user and system, of every process of the program's side together.
    pub cpu: Duration,
    /// From fork to exit, the judge's pauses left out.
    pub wall: Duration,
    /// When the helper saw it end, from the helper's start.
    pub at: Duration,
}

/// How a process of the case ended, or why it could not start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Said<T> {
    /// It ran.
    Ran(T),
    /// It could not be forked: the `errno`.
    NoFork(i32),
}

/// How the interactor ended: its raw wait status, and when the helper saw it end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ended {
    pub status: Status,
    pub at: Duration,
}

/// Everything the helper has written so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reported {
    /// The program's end; `None` while it runs, or if the helper was killed first.
    pub program: Option<Said<Measured>>,
    /// The interactor's end, in a conversation.
    pub interactor: Option<Said<Ended>>,
    /// The program's pid, once forked.
    pub program_pid: Option<Pid>,
    /// The interactor's pid, in a conversation, once forked.
    pub interactor_pid: Option<Pid>,
    /// The pid of the sandbox's init, once forked.
    pub init_pid: Option<Pid>,
    /// The pid of the interactor's box's init, once forked.
    pub interactor_init_pid: Option<Pid>,
    /// Why the sandbox is missing (an `errno`, 0 if turned off).
    pub unsandboxed: Option<i32>,
}

impl Reported {
    /// Reads the complete lines of `text` into `self`.
    pub fn read(&mut self, text: &str) {
        for line in text.lines() {
            let mut words = line.split_whitespace();
            let what = words.next().unwrap_or("");
            let numbers: Option<Vec<u64>> = words.map(|w| w.parse().ok()).collect();
            match (what, numbers.as_deref()) {
                ("ran", Some(&[status, kib, cpu, wall, at])) => {
                    let Ok(status) = Status::try_from(status) else {
                        continue;
                    };
                    self.program = Some(Said::Ran(Measured {
                        status,
                        max_rss: kib.saturating_mul(1024),
                        cpu: Duration::from_nanos(cpu),
                        wall: Duration::from_nanos(wall),
                        at: Duration::from_nanos(at),
                    }));
                }
                ("pids", Some(&[program, interactor, init, interactor_init])) => {
                    let pid = |n: u64| Pid::try_from(n).ok().filter(|&p| p > 0);
                    self.program_pid = pid(program);
                    self.interactor_pid = pid(interactor);
                    self.init_pid = pid(init);
                    self.interactor_init_pid = pid(interactor_init);
                }
                ("nosandbox", Some(&[errno])) => {
                    self.unsandboxed = Some(i32::try_from(errno).unwrap_or(0));
                }
                ("nofork", Some(&[errno])) => {
                    self.program = Some(Said::NoFork(i32::try_from(errno).unwrap_or(0)));
                }
                ("interactor", Some(&[status, at])) => {
                    let Ok(status) = Status::try_from(status) else {
                        continue;
                    };
                    let at = Duration::from_nanos(at);
                    self.interactor = Some(Said::Ran(Ended { status, at }));
                }
                ("nointeractor", Some(&[errno])) => {
                    self.interactor = Some(Said::NoFork(i32::try_from(errno).unwrap_or(0)));
                }
                _ => {}
            }
        }
    }
}

/// The `ran` line.
#[must_use]
pub fn ran(
    status: Status,
    max_rss_kib: u64,
    cpu: Duration,
    wall: Duration,
    at: Duration,
) -> String {
    let (cpu, wall, at) = (cpu.as_nanos(), wall.as_nanos(), at.as_nanos());
    format!("ran {status} {max_rss_kib} {cpu} {wall} {at}\n")
}

/// The `pids` line.
#[must_use]
pub fn pids(program: Pid, interactor: Option<Pid>, inits: [Option<Pid>; 2]) -> String {
    let interactor = interactor.unwrap_or(0);
    let [init, interactor_init] = inits.map(|p| p.unwrap_or(0));
    format!("pids {program} {interactor} {init} {interactor_init}\n")
}

/// The `interactor` line.
#[must_use]
pub fn interactor(status: Status, at: Duration) -> String {
    format!("interactor {status} {}\n", at.as_nanos())
}

/// The line of a process that could not be forked (`what`: `nofork` or `nointeractor`).
#[must_use]
pub fn no_fork(what: &str, error: &std::io::Error) -> String {
    format!("{what} {}\n", error.raw_os_error().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_written_are_read_back() {
        let mut r = Reported::default();
        let (wall, at) = (Duration::from_nanos(1_500), Duration::from_nanos(2_000));
        let cpu = Duration::from_nanos(1_234);
        r.read(&ran(9, 7, cpu, wall, at));
        assert_eq!(r.interactor, None);
        r.read(&interactor(256, Duration::from_nanos(1_999)));
        r.read(&pids(5, Some(6), [None, None]));
        assert_eq!((r.interactor_pid, r.init_pid), (Some(6), None));
        let program = Measured {
            status: 9,
            max_rss: 7 * 1024,
            cpu,
            wall,
            at,
        };
        assert_eq!(r.program, Some(Said::Ran(program)));
        let ended = Ended {
            status: 256,
            at: Duration::from_nanos(1_999),
        };
        assert_eq!(r.interactor, Some(Said::Ran(ended)));
        let error = std::io::Error::from_raw_os_error(11);
        r.read(&no_fork("nofork", &error));
        assert_eq!(r.program, Some(Said::NoFork(11)));
    }

    #[test]
    fn garbled_lines_are_ignored() {
        let mut r = Reported::default();
        r.read("ran 1 2\nran x 1 2 3 4\nran 1 2 3 4\ninteractor 1\nhello\n");
        assert_eq!(r, Reported::default());
    }
}
