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
    /// The score an interactor gave an accepted case, if it gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
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
    if let Some(interactor) = &j.settings.interactor {
        return crate::interact::judge(j, interactor, case);
    }
    let input = std::fs::read(&case.input).map_err(|e| format!("{}: {e}", case.input.display()))?;
    let expected_exit = case.expected_exit()?;
    let o = run::run(j.program, input, j.limits)
        .map_err(|e| format!("cannot run {:?}: {e}", j.program.describe()))?;
    let (verdict, detail) = decide(j, case, &o, expected_exit)?;
    Ok(result(case, verdict, detail, &o))
}

/// The result of case `case`, run as `o`, with no score.
#[must_use]
pub fn result(case: &Case, verdict: Verdict, detail: Option<String>, o: &Outcome) -> CaseResult {
    CaseResult {
        name: case.label.clone(),
        verdict,
        time: o.wall.as_secs_f64(),
        memory: o.max_rss,
        exit_code: match o.exit {
            Exit::Code(c) => Some(c),
            Exit::Signal(_) => None,
        },
        detail,
        score: None,
    }
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
    if let Some((v, d)) = over_limit(j, o).or_else(|| wrong_exit(o, expected_exit)) {
        return Ok((v, Some(d)));
    }
    let Some(expected) = crate::suite::read_optional(&case.output)? else {
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
    let difference = compare::compare_bytes(
        j.settings.compare,
        j.settings.tolerance,
        &expected,
        &o.stdout,
    );
    Ok(match difference {
        None => (Verdict::Accepted, None),
        Some(d) => (Verdict::WrongAnswer, Some(d)),
    })
}

/// `TLE`, `OLE` or `MLE` if run `o` went past one of the limits of `j`.
#[must_use]
pub fn over_limit(j: &Judging, o: &Outcome) -> Option<(Verdict, String)> {
    if o.timed_out {
        return Some((Verdict::TimeLimit, over_time(j.limits.time)));
    }
    if o.output_exceeded {
        let cap = format!("stdout went past {} MiB", j.limits.output >> 20);
        return Some((Verdict::OutputLimit, cap));
    }
    let over_memory = |m: &u64| o.memory_exceeded || o.max_rss > *m;
    j.limits.memory.filter(over_memory).map(|limit| {
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
