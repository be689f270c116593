//! The judging core for every format: one case of a [`Problem`] run with one program, and the
//! verdict from the limits, the exit code and the problem's [`Comparison`]. The process work is
//! [`crate::run`]'s (and [`crate::interact`]'s for interactive problems); the comparisons are
//! the default validator, a Kattis validator, a testlib checker, or our suites' own.

use std::path::Path;
use std::time::Duration;

use crate::case::{self, Judging};
use crate::interact::{self, Conversation};
use crate::program::Program;
use crate::run::{self, Limits};
use crate::shell::quote;
use crate::suite::{self, CheckerCodes};
use crate::verdict::{self, CaseResult, Verdict};

use super::default_validator::{self, Flags};
use super::problem::{Case, Comparison, Problem};

/// The limits of one run: `limits.time` is when the run is stopped; a run longer than `time`
/// (at most `limits.time`) is a time limit too.
#[derive(Clone, Copy, Debug)]
pub struct RunLimits {
    pub time: Duration,
    pub limits: Limits,
}

impl RunLimits {
    /// The limits of `problem` with the time limit `time`, runs stopped at `time * margin`.
    #[must_use]
    pub fn of(problem: &Problem, time: Duration) -> RunLimits {
        RunLimits {
            time,
            limits: Limits {
                time: time.mul_f64(problem.time.margin),
                timing: problem.time.timing,
                output: problem.output,
                memory: problem.memory,
                settling: None,
            },
        }
    }
}

/// Runs and judges `case` of `problem` with `program`: [`judge_raw`], then a run longer than
/// the time limit is a time limit ([`at_limit`]).
///
/// # Errors
/// A setup error: a file cannot be read, a process cannot start, a validator or checker is
/// broken (exits other than its format allows).
pub fn judge(
    problem: &Problem,
    program: &Program,
    case: &Case,
    limits: RunLimits,
) -> Result<CaseResult, String> {
    judge_raw(problem, program, case, limits).map(|r| r.at_limit(limits.time))
}

/// A case judged without the time limit.
#[derive(Clone, Debug)]
pub struct Judged {
    pub result: CaseResult,
    /// The verdict is an interactor's rejection given before the program ended: it stands
    /// however long the program then ran.
    pub rejected_first: bool,
}

impl Judged {
    /// The result at the time limit `limit` (see [`at_limit`]).
    #[must_use]
    pub fn at_limit(&self, limit: Duration) -> CaseResult {
        if self.rejected_first {
            return self.result.clone();
        }
        at_limit(self.result.clone(), limit)
    }
}

/// `result` judged at the time limit `limit`: a run longer than it is a time limit, whatever
/// else it got (a run stopped by the judge already is).
#[must_use]
pub fn at_limit(mut result: CaseResult, limit: Duration) -> CaseResult {
    if result.verdict == Verdict::JudgeError {
        return result;
    }
    let over = result.time > limit.as_secs_f64();
    if over || result.verdict == Verdict::TimeLimit {
        result.verdict = Verdict::TimeLimit;
        // A run stopped at the wall-time backstop, within its CPU time, keeps its own detail.
        if over {
            result.detail = Some(format!(
                "ran {:.3} s, past the time limit of {} s",
                result.time,
                limit.as_secs_f64()
            ));
        }
        result.score = None;
    }
    result
}

/// The judge error of `case`: the judge could not decide (`why` names the validator, checker,
/// interactor or file that failed).
#[must_use]
pub fn judge_error(case: &Case, why: &str) -> CaseResult {
    CaseResult {
        name: case.label.clone(),
        verdict: Verdict::JudgeError,
        time: 0.0,
        cpu: 0.0,
        wall: 0.0,
        memory: 0,
        exit_code: None,
        detail: Some(why.to_string()),
        score: None,
        message: None,
    }
}

/// Runs and judges `case` of `problem` with `program`, without the time limit: a run stopped
/// at `limits.limits.time` is a time limit, a run that ended before is judged on its output.
///
/// # Errors
/// As [`judge`].
pub fn judge_raw(
    problem: &Problem,
    program: &Program,
    case: &Case,
    limits: RunLimits,
) -> Result<Judged, String> {
    let mut rejected_first = false;
    let result = match &problem.comparison {
        Comparison::Broken(why) => return Err(why.clone()),
        Comparison::Suite(settings) => {
            let judging = Judging {
                program,
                settings,
                dir: &problem.root,
                limits: limits.limits,
            };
            case::judge(&judging, &as_suite(case))?
        }
        Comparison::Interactor(built, codes) => {
            let command = with_flags(&built.command, &case.flags);
            let conversation = Conversation {
                program,
                dir: &problem.root,
                limits: limits.limits,
                command: &command,
                codes: *codes,
            };
            let (result, first) = interact::judge_first(&conversation, &as_suite(case))?;
            rejected_first = first;
            result
        }
        _ => judge_batch(problem, program, case, limits)?,
    };
    Ok(Judged {
        result,
        rejected_first,
    })
}

/// The interactor's `command` with a case's `flags` after the arguments the judge appends.
fn with_flags(command: &str, flags: &[String]) -> String {
    if flags.is_empty() {
        return command.to_owned();
    }
    let flags: Vec<String> = flags.iter().map(|f| quote(Path::new(f))).collect();
    format!("f() {{ {command} \"$@\" {}; }}; f", flags.join(" "))
}

/// `case` as a case of our suites, its expected exit code in its `exit` file (none: 0).
fn as_suite(case: &Case) -> suite::Case {
    suite::Case {
        label: case.label.clone(),
        input: case.input.clone(),
        output: case.answer.clone(),
        exit: case.exit.clone().unwrap_or_default(),
    }
}

/// A batch problem: run, then the limits, the exit code, and the comparison.
fn judge_batch(
    problem: &Problem,
    program: &Program,
    case: &Case,
    limits: RunLimits,
) -> Result<CaseResult, String> {
    let input = std::fs::read(&case.input).map_err(|e| format!("{}: {e}", case.input.display()))?;
    let o = run::run(program, input, limits.limits)?;
    let over = verdict::over_limit(&limits.limits, &o);
    if let Some((v, d)) = over.or_else(|| verdict::wrong_exit(&o, 0)) {
        return Ok(verdict::result(&case.label, v, Some(d), &o));
    }
    let (rejection, score, message) = compare(problem, case, &o.stdout)?;
    let verdict = match &rejection {
        None => Verdict::Accepted,
        Some((v, _)) => *v,
    };
    let mut result = verdict::result(&case.label, verdict, rejection.map(|r| r.1), &o);
    result.score = score;
    result.message = message;
    Ok(result)
}

/// The comparison's rejection (verdict and message), if any, the validator's score, and the
/// validator's message on an accepted output.
type Compared = (Option<(Verdict, String)>, Option<f64>, Option<String>);

fn compare(problem: &Problem, case: &Case, got: &[u8]) -> Result<Compared, String> {
    let answer =
        || std::fs::read(&case.answer).map_err(|e| format!("{}: {e}", case.answer.display()));
    match &problem.comparison {
        Comparison::Default => {
            let flags = Flags::parse(&case.flags).map_err(|e| format!("{}: {e}", case.label))?;
            let said = default_validator::check(&flags, &answer()?, got);
            Ok((said.map(|m| (Verdict::WrongAnswer, m)), None, None))
        }
        Comparison::Validator(built) => {
            let said = super::validator::check(
                built,
                &problem.root,
                &case.input,
                &case.answer,
                &case.flags,
                got,
            )?;
            Ok((
                said.rejection.map(|m| (Verdict::WrongAnswer, m)),
                said.score,
                said.message,
            ))
        }
        Comparison::Testlib(built) => {
            let rejection = crate::checker::check(
                &built.command,
                CheckerCodes::Testlib,
                &problem.root,
                &case.input,
                got,
                &case.answer,
            )?;
            Ok((rejection.map(|r| (r.verdict, r.message)), None, None))
        }
        Comparison::Broken(why) => Err(why.clone()),
        Comparison::Suite(_) | Comparison::Interactor(..) => Err(format!(
            "{}: an interactive or suite comparison has no batch check",
            case.label
        )),
    }
}

/// `f(0)`, ..., `f(n - 1)` on `jobs` threads (see [`crate::pool`]), the results in index order.
///
/// # Errors
/// The first error in index order; no item is started after it.
pub fn all<T: Send>(
    jobs: usize,
    n: usize,
    f: impl Fn(usize) -> Result<T, String> + Sync,
) -> Result<Vec<T>, String> {
    let mut results = Vec::with_capacity(n);
    crate::pool::in_order(jobs, n, f, |_, r| {
        results.push(r);
        std::ops::ControlFlow::Continue(())
    })?;
    Ok(results)
}
