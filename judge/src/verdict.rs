//! Judges one case: runs the program, then decides the verdict from the limits, the exit code and
//! the comparison of its output with the expected one.

use std::path::Path;
use std::time::Duration;

use serde::Serialize;

use crate::checker;
use crate::compare::{self, Mode};
use crate::program::Program;
use crate::run::{self, Exit, Limits, Outcome};
use crate::suite::{Case, Settings};

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
}

impl Verdict {
    /// The short name shown in reports: `AC`, `WA`, `PE`, `TLE`, `RE`, `MLE`, `OLE`, `NO-ANSWER`.
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
        }
    }
}

/// What the judge says about one case.
#[derive(Clone, Debug, Serialize)]
pub struct CaseResult {
    /// `suite/NN`.
    pub name: String,
    pub verdict: Verdict,
    /// Wall time from spawn to exit, in seconds.
    pub time: f64,
    /// Peak resident memory, in bytes.
    pub memory: u64,
    /// The exit code, if the program exited normally.
    pub exit_code: Option<i32>,
    /// Why the case is not AC: the first difference, the stderr tail, the limit.
    pub detail: Option<String>,
}

/// Everything fixed for a suite's cases.
pub struct Judging<'a> {
    pub program: &'a Program,
    pub settings: &'a Settings,
    pub dir: &'a Path,
    pub limits: Limits,
}

/// The stderr tail shown with an `RE`, in lines.
const STDERR_LINES: usize = 10;

/// Runs and judges one case.
///
/// # Errors
/// Setup errors only: a file of the suite cannot be read, the program cannot be spawned, the
/// checker is broken.
pub fn judge(j: &Judging, case: &Case) -> Result<CaseResult, String> {
    let input = std::fs::read(&case.input).map_err(|e| format!("{}: {e}", case.input.display()))?;
    let expected_exit = case.expected_exit()?;
    let o = run::run(j.program, input, j.limits)
        .map_err(|e| format!("cannot run {:?}: {e}", j.program.describe()))?;
    let (verdict, detail) = decide(j, case, &o, expected_exit)?;
    Ok(CaseResult {
        name: case.label.clone(),
        verdict,
        time: o.wall.as_secs_f64(),
        memory: o.max_rss,
        exit_code: match o.exit {
            Exit::Code(c) => Some(c),
            Exit::Signal(_) => None,
        },
        detail,
    })
}

/// The verdict and its detail for a run `o` of case `case`, whose expected exit code is
/// `expected_exit`.
///
/// # Errors
/// The checker is broken.
pub fn decide(
    j: &Judging,
    case: &Case,
    o: &Outcome,
    expected_exit: i32,
) -> Result<(Verdict, Option<String>), String> {
    if o.timed_out {
        return Ok((Verdict::TimeLimit, Some(over_time(j.limits.time))));
    }
    if o.output_exceeded {
        let cap = format!("stdout went past {} MiB", j.limits.output >> 20);
        return Ok((Verdict::OutputLimit, Some(cap)));
    }
    let over_memory = |m: &u64| o.memory_exceeded || o.max_rss > *m;
    if let Some(limit) = j.limits.memory.filter(over_memory) {
        let msg = format!(
            "peak memory {:.1} MiB, limit {:.1} MiB",
            o.max_rss as f64 / 1048576.0,
            limit as f64 / 1048576.0
        );
        return Ok((Verdict::MemoryLimit, Some(msg)));
    }
    match o.exit {
        Exit::Code(c) if c == expected_exit => {}
        Exit::Code(0) => {
            let msg = format!("exit code 0, expected {expected_exit}");
            return Ok((Verdict::WrongAnswer, Some(msg)));
        }
        exit => return Ok((Verdict::RuntimeError, Some(crashed(exit, expected_exit, o)))),
    }
    let Ok(expected) = std::fs::read(&case.output) else {
        let file = case
            .output
            .file_name()
            .unwrap_or_default()
            .to_string_lossy();
        return Ok((Verdict::NoAnswer, Some(format!("{file} is missing"))));
    };
    if let (Mode::Checker, Some(cmd)) = (j.settings.compare, &j.settings.checker) {
        let codes = j.settings.checker_codes;
        let said = checker::check(cmd, codes, j.dir, &case.input, &o.stdout, &case.output)?;
        return Ok(said.map_or((Verdict::Accepted, None), |r| (r.verdict, Some(r.message))));
    }
    let difference = compare::compare(
        j.settings.compare,
        j.settings.tolerance,
        &String::from_utf8_lossy(&expected),
        &String::from_utf8_lossy(&o.stdout),
    );
    Ok(match difference {
        None => (Verdict::Accepted, None),
        Some(d) => (Verdict::WrongAnswer, Some(d)),
    })
}

fn over_time(limit: Duration) -> String {
    format!("killed after the time limit of {} s", limit.as_secs_f64())
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
    let tail = String::from_utf8_lossy(&o.stderr_tail);
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
