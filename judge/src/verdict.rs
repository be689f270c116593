//! Verdicts and what the judge reports of a case and a suite, and the pure rules that decide a
//! verdict from how a run ended: its limits and its exit code. A leaf: it runs nothing and reads
//! no file (the comparisons are [`crate::case`]'s, [`crate::checker`]'s, [`crate::interact`]'s).

use serde::Serialize;

use crate::run::{Exit, Limits, Outcome, Timing};

/// Stdout kept per case; past this the case is `OLE`.
pub const OUTPUT_CAP: usize = 64 << 20;

/// The verdict of one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Verdict {
    #[serde(rename = "AC")]
    Accepted,
    #[serde(rename = "WA")]
    WrongAnswer,
    /// A testlib checker's "presentation error" (exit code 2).
    #[serde(rename = "PE")]
    PresentationError,
    #[serde(rename = "TLE")]
    TimeLimit,
    #[serde(rename = "RE")]
    RuntimeError,
    #[serde(rename = "MLE")]
    MemoryLimit,
    #[serde(rename = "OLE")]
    OutputLimit,
    /// The case has no `.out` file.
    #[serde(rename = "NO-ANSWER")]
    NoAnswer,
    /// A problem package's validator, checker, interactor or grader failed on the case: the
    /// judge could not decide (problem packages only).
    #[serde(rename = "JE")]
    JudgeError,
}

impl Verdict {
    /// The short name shown in reports: `AC`, `WA`, `PE`, `TLE`, `RE`, `MLE`, `OLE`, `NO-ANSWER`,
    /// `JE`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::PresentationError => "PE",
            Verdict::TimeLimit => "TLE",
            Verdict::RuntimeError => "RE",
            Verdict::MemoryLimit => "MLE",
            Verdict::OutputLimit => "OLE",
            Verdict::NoAnswer => "NO-ANSWER",
            Verdict::JudgeError => "JE",
        }
    }
}

/// What the judge says about one case.
#[derive(Clone, Debug, Serialize)]
pub struct CaseResult {
    /// `suite/NN`.
    pub name: String,
    pub verdict: Verdict,
    /// The run's time in seconds, on the clock of its limit: CPU time (user and system, of
    /// every process of the run together), or wall time under `--time wall`.
    pub time: f64,
    /// CPU time, user and system, of every process of the run together, in seconds.
    pub cpu: f64,
    /// Wall time from spawn to exit, in seconds.
    pub wall: f64,
    /// Peak resident memory, in bytes.
    pub memory: u64,
    /// The exit code, if the program exited normally.
    pub exit_code: Option<i32>,
    /// Why the case is not AC: the first difference, the stderr tail, the limit.
    pub detail: Option<String>,
    /// The score an interactor gave an accepted case, if it gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// What a package's output validator wrote to `judgemessage.txt` on an accepted case (a
    /// rejected case's is its `detail`), for the promises of `submissions.yaml`.
    #[serde(skip)]
    pub message: Option<String>,
}

/// One suite, judged.
#[derive(Debug, Serialize)]
pub struct SuiteReport {
    pub name: String,
    pub passed: usize,
    pub failed: usize,
    /// Wall time of the whole suite, in seconds.
    pub time: f64,
    /// The sum of the cases' scores, when an interactor gave any (a case without one scores 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    pub cases: Vec<CaseResult>,
}

/// The stderr tail shown with an `RE`, in lines.
const STDERR_LINES: usize = 10;

/// The result of the case labelled `label`, run as `o`, with no score.
#[must_use]
pub fn result(label: &str, verdict: Verdict, detail: Option<String>, o: &Outcome) -> CaseResult {
    CaseResult {
        name: label.to_owned(),
        verdict,
        time: o.time().as_secs_f64(),
        cpu: o.cpu.as_secs_f64(),
        wall: o.wall.as_secs_f64(),
        memory: o.max_rss,
        exit_code: match o.exit {
            Exit::Code(c) => Some(c),
            Exit::Signal(_) => None,
        },
        detail,
        score: None,
        message: None,
    }
}

/// `TLE`, `OLE` or `MLE` if run `o` went past one of `limits`: on CPU time, a run that used
/// more than its limit is `TLE` even if it ended before it was stopped.
#[must_use]
pub fn over_limit(limits: &Limits, o: &Outcome) -> Option<(Verdict, String)> {
    // A limit settled while the run went is the one it ran under.
    let limits = &limits.now();
    let over_cpu = limits.timing == Timing::Cpu && o.cpu > limits.time;
    if o.timed_out || over_cpu {
        return Some((Verdict::TimeLimit, over_time(limits, o)));
    }
    if o.output_exceeded {
        let cap = format!("stdout went past {} MiB", limits.output >> 20);
        return Some((Verdict::OutputLimit, cap));
    }
    let over_memory = |m: &u64| o.memory_exceeded || o.max_rss > *m;
    limits.memory.filter(over_memory).map(|limit| {
        let msg = format!(
            "peak memory {:.1} MiB, limit {:.1} MiB",
            o.max_rss as f64 / 1048576.0,
            limit as f64 / 1048576.0
        );
        (Verdict::MemoryLimit, msg)
    })
}

/// `RE` (or `WA` for a 0 where another code was expected) if run `o` did not exit with
/// `expected_exit`.
#[must_use]
pub fn wrong_exit(o: &Outcome, expected_exit: i32) -> Option<(Verdict, String)> {
    match o.exit {
        Exit::Code(c) if c == expected_exit => None,
        Exit::Code(0) => Some((
            Verdict::WrongAnswer,
            format!("exit code 0, expected {expected_exit}"),
        )),
        exit => Some((Verdict::RuntimeError, crashed(exit, expected_exit, o))),
    }
}

/// Why run `o` is `TLE`: past its limit of CPU time, or stopped by the wall-time backstop while
/// it slept or waited, or past its limit of wall time.
fn over_time(limits: &Limits, o: &Outcome) -> String {
    let (limit, cpu) = (limits.time.as_secs_f64(), o.cpu.as_secs_f64());
    match limits.timing {
        Timing::Wall => format!("killed after the time limit of {limit} s"),
        Timing::Cpu if o.cpu >= limits.time => {
            format!("used {cpu:.3} s of CPU time, past the limit of {limit} s")
        }
        Timing::Cpu => format!(
            "killed at the wall-time limit of {} s with {cpu:.3} s of its {limit} s of CPU time \
             used: it slept, waited, or found the machine busy",
            limits.wall().as_secs_f64()
        ),
    }
}

/// `exit code 3` or `killed by signal 11 (SIGSEGV)`, the expected code if not 0, and the last
/// lines of stderr.
fn crashed(exit: Exit, expected: i32, o: &Outcome) -> String {
    let mut how = match exit {
        Exit::Code(c) => format!("exit code {c}"),
        Exit::Signal(s) => format!("killed by signal {s}{}", signal_name(s)),
    };
    if expected != 0 {
        how += &format!(", expected exit code {expected}");
    }
    let tail = crate::diff::controls(&String::from_utf8_lossy(&o.stderr_tail));
    let lines: Vec<&str> = tail.lines().collect();
    let tail = lines[lines.len().saturating_sub(STDERR_LINES)..].join("\n");
    if tail.is_empty() {
        how
    } else {
        format!("{how}\n{tail}")
    }
}

fn signal_name(s: i32) -> &'static str {
    match s {
        libc::SIGSEGV => " (SIGSEGV)",
        libc::SIGABRT => " (SIGABRT)",
        libc::SIGKILL => " (SIGKILL)",
        libc::SIGFPE => " (SIGFPE)",
        libc::SIGBUS => " (SIGBUS)",
        libc::SIGILL => " (SIGILL)",
        libc::SIGPIPE => " (SIGPIPE)",
        libc::SIGTERM => " (SIGTERM)",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// A run that ended by itself (not stopped) after `cpu` of CPU time and `wall` of wall time,
    /// timed on `timing`.
    fn ended(timing: Timing, cpu: f64, wall: f64) -> Outcome {
        Outcome {
            stdout: Vec::new(),
            stderr_tail: Vec::new(),
            wall: Duration::from_secs_f64(wall),
            cpu: Duration::from_secs_f64(cpu),
            timing,
            max_rss: 0,
            timed_out: false,
            output_exceeded: false,
            memory_exceeded: false,
            exit: Exit::Code(0),
        }
    }

    fn limits(timing: Timing) -> Limits {
        Limits {
            time: Duration::from_secs(1),
            timing,
            output: OUTPUT_CAP,
            memory: None,
            settling: None,
        }
    }

    #[test]
    fn a_run_past_its_cpu_limit_is_tle_even_if_it_ended_before_it_was_stopped() {
        let (v, detail) = over_limit(&limits(Timing::Cpu), &ended(Timing::Cpu, 1.004, 1.1))
            .expect("over the limit");
        assert_eq!(v, Verdict::TimeLimit);
        assert_eq!(detail, "used 1.004 s of CPU time, past the limit of 1 s");
        assert_eq!(
            over_limit(&limits(Timing::Cpu), &ended(Timing::Cpu, 0.9, 1.5)),
            None
        );
        // On the wall clock, only a run the judge stopped is TLE, as before.
        let o = ended(Timing::Wall, 1.004, 1.004);
        assert_eq!(over_limit(&limits(Timing::Wall), &o), None);
        assert_eq!(o.time(), o.wall);
        assert_eq!(
            ended(Timing::Cpu, 0.5, 0.7).time(),
            Duration::from_secs_f64(0.5)
        );
    }

    #[test]
    fn a_run_stopped_at_the_backstop_says_so() {
        let mut o = ended(Timing::Cpu, 0.02, 2.0);
        o.timed_out = true;
        let (v, detail) = over_limit(&limits(Timing::Cpu), &o).expect("stopped");
        assert_eq!(v, Verdict::TimeLimit);
        assert!(
            detail.starts_with("killed at the wall-time limit of 2 s with 0.020 s of its 1 s"),
            "{detail}"
        );
        assert_eq!(
            limits(Timing::Cpu).wall(),
            Duration::from_secs(2),
            "twice the limit"
        );
        let short = Limits {
            time: Duration::from_millis(300),
            ..limits(Timing::Cpu)
        };
        assert_eq!(
            short.wall(),
            Duration::from_millis(1300),
            "the limit plus 1 s"
        );
        assert_eq!(limits(Timing::Wall).wall(), Duration::from_secs(1));
    }
}
